/**
 * The one line the console's activity list shows for a finished call: what happened, in words,
 * from the result's structured content (an ActionResult: where it navigated, dialogs, errors,
 * requests; another tool's result: its main fields), or the first line of its text.
 *
 * @module
 */

/** Longest summary, characters. */
export const SUMMARY_CHARS = 200;

/** The parts of a tool result the summary reads. */
export interface SummarizedResult {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown> | undefined;
  isError?: boolean | undefined;
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function obj(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === "object" && !Array.isArray(v) ? v as Record<string, unknown> : undefined;
}

function count(v: unknown): number {
  return Array.isArray(v) ? v.length : 0;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** Facts of an ActionResult (`ok`, `action`, `navigation`, …), most telling first. */
function actionFacts(s: Record<string, unknown>): string[] {
  const parts: string[] = [];
  const action = obj(s.action);
  const target = action?.ref ?? action?.selector;
  if (typeof target === "string") parts.push(cut(target, 40));
  else if (typeof action?.key === "string") parts.push(`key ${cut(action.key, 40)}`);
  const err = obj(s.error);
  if (typeof err?.message === "string") parts.push(cut(err.message, 120));
  const nav = obj(s.navigation);
  if (nav?.changed && typeof nav.to === "string") parts.push(`→ ${cut(nav.to, 80)}`);
  if (count(s.dialogs)) parts.push(plural(count(s.dialogs), "dialog"));
  if (count(s.pageErrors)) parts.push(plural(count(s.pageErrors), "page error"));
  const consoleErrors = count(obj(s.console)?.errors);
  if (consoleErrors) parts.push(plural(consoleErrors, "console error"));
  const net = obj(obj(s.network)?.summary);
  if (typeof net?.total === "number" && net.total) {
    parts.push(
      `${plural(net.total, "request")}${
        typeof net.failed === "number" && net.failed ? ` (${net.failed} failed)` : ""
      }`,
    );
  }
  if (count(s.downloads)) parts.push(plural(count(s.downloads), "download"));
  if (count(s.warnings)) parts.push(plural(count(s.warnings), "warning"));
  // An action with nothing else to tell: say it went through, not its raw JSON.
  if (!parts.length) parts.push(s.ok === true ? "done" : "not done");
  return parts;
}

/** Facts of another result: scalars as `key=value`, lists as `key: N`. */
function fieldFacts(s: Record<string, unknown>): string[] {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(s)) {
    if (parts.length >= 6) break;
    if (typeof v === "string") parts.push(`${k}=${cut(JSON.stringify(v), 60)}`);
    else if (typeof v === "number" || typeof v === "boolean") parts.push(`${k}=${v}`);
    else if (Array.isArray(v)) parts.push(`${k}: ${v.length}`);
  }
  return parts;
}

/** The activity line of a result; see the module doc. */
export function summarizeResult(result: SummarizedResult): string {
  const text = result.content.find((c) => c.type === "text")?.text;
  const firstLine = text?.split("\n", 1)[0] ?? "(no text)";
  const s = result.structuredContent;
  if (result.isError || !s) return cut(firstLine, SUMMARY_CHARS);
  const facts = typeof s.ok === "boolean" && obj(s.action) ? actionFacts(s) : fieldFacts(s);
  return cut(facts.length ? facts.join(" · ") : firstLine, SUMMARY_CHARS);
}
