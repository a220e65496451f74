/**
 * The operations the bench times, written once for both servers: navigate, a whole-page
 * snapshot (browxai pages by tokens: every page is fetched and summed), and the TodoMVC flow
 * (fill the new-todo field + Enter, click the item's toggle).
 *
 * @module
 */
import { join } from "node:path";
import type { BenchClient, CallResult, ServerKind } from "./clients.ts";

/** browxai's largest snapshot page, in estimated tokens (the `maxTokens` schema maximum). */
export const BROWXAI_PAGE_TOKENS = 200_000;

/** A whole-page snapshot. */
export interface FullSnapshot {
  /** Total wall time of all the calls, in ms. */
  ms: number;
  /** All pages' text, joined by newlines. */
  text: string;
  /** Calls made (pages). */
  calls: number;
  /** The first error's text, if a call failed. */
  error?: string;
}

const withSession = (args: Record<string, unknown>, session?: string) =>
  session ? { ...args, session } : args;

/**
 * Snapshot of the whole page. browxai: `snapshot` with maxTokens {@link BROWXAI_PAGE_TOKENS},
 * following `nextOffset` until the last page; peer: one `browser_snapshot`.
 */
export async function fullSnapshot(
  c: BenchClient,
  kind: ServerKind,
  session?: string,
): Promise<FullSnapshot> {
  if (kind === "peer") {
    const r = await c.call("browser_snapshot", {});
    return { ms: r.ms, text: r.text, calls: 1, ...(r.isError ? { error: r.text } : {}) };
  }
  let ms = 0;
  const texts: string[] = [];
  let offset = 0;
  for (let calls = 1;; calls++) {
    const args = withSession(
      { maxTokens: BROWXAI_PAGE_TOKENS, ...(offset ? { offset } : {}) },
      session,
    );
    const r = await c.call("snapshot", args);
    ms += r.ms;
    texts.push(r.text);
    if (r.isError) return { ms, text: texts.join("\n"), calls, error: r.text };
    const next = r.structured?.nextOffset;
    if (r.structured?.truncated !== true || typeof next !== "number" || calls >= 200) {
      return { ms, text: texts.join("\n"), calls };
    }
    offset = next;
  }
}

/**
 * Navigates. browxai: `navigate` with `snapshot: "none"` unless `withSnapshot` (then its
 * default, a delta that is the page's first ~3k tokens after a load); peer:
 * `browser_navigate` (its result depends on its `--snapshot-mode`).
 */
export function navigate(
  c: BenchClient,
  kind: ServerKind,
  url: string,
  options: { withSnapshot?: boolean; session?: string } = {},
): Promise<CallResult> {
  if (kind === "peer") return c.call("browser_navigate", { url });
  return c.call(
    "navigate",
    withSession({ url, ...(options.withSnapshot ? {} : { snapshot: "none" }) }, options.session),
  );
}

/** The ref on the first line of `text` matching `line` (refs look like `e12` or `f1e3`). */
export function refOn(text: string, line: RegExp): string | undefined {
  for (const l of text.split("\n")) {
    if (!line.test(l)) continue;
    const m = /\[ref=([\w-]+)\]/.exec(l);
    if (m) return m[1];
  }
  return undefined;
}

/** The ref of the last todo item's toggle: the last checkbox line that is not "toggle all". */
export function lastToggleRef(text: string): string | undefined {
  const lines = text.split("\n").filter((l) =>
    /checkbox/.test(l) && /\[ref=/.test(l) && !/mark all|toggle all/i.test(l)
  );
  return lines.length ? refOn(lines[lines.length - 1]!, /./) : undefined;
}

/** The new-todo field's line in either server's snapshot. */
export const NEW_TODO = /textbox "What needs to be done\?"/;

/** Polls whole-page snapshots until one matches `re`; returns it, or throws after `timeoutMs`. */
export async function snapshotUntil(
  c: BenchClient,
  kind: ServerKind,
  re: RegExp,
  options: { session?: string; timeoutMs?: number } = {},
): Promise<FullSnapshot> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  while (true) {
    const s = await fullSnapshot(c, kind, options.session);
    if (re.test(s.text)) return s;
    if (Date.now() > deadline) {
      throw new Error(`no ${re} in the ${kind} snapshot: ${s.error ?? s.text.slice(0, 400)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What one TodoMVC flow measured. */
export interface TodoFlow {
  navigate: CallResult;
  /** The first snapshot that shows the new-todo field. */
  snapshot: FullSnapshot;
  /**
   * Wall time of all the snapshots taken until one showed the new-todo field (the app
   * rendered), pauses between them included, in ms.
   */
  snapshotWaitMs: number;
  /** fill + Enter (browxai `fill` submit; peer `browser_type` submit). */
  fill: CallResult;
  /** The full snapshot after the fill: a read of a page both servers have read before. */
  reread: FullSnapshot;
  /** Click on the new item's toggle. */
  click: CallResult;
  /** The peer's action results link a snapshot file instead of inlining it: its texts. */
  linked: { fill?: string; click?: string };
  /** Checks that failed (the item did not appear, or was not checked). */
  errors: string[];
}

/**
 * The snapshot file a peer result links (`[Snapshot](.playwright-mcp/page-….yml)`), read from
 * the peer's working folder; undefined when the result links none or the file is unreadable.
 */
export async function linkedFile(
  text: string,
  workDir: string | undefined,
): Promise<string | undefined> {
  const m = /\[Snapshot\]\(([^)]+)\)/.exec(text);
  if (!m || !workDir) return undefined;
  const path = m[1]!.startsWith("/") ? m[1]! : join(workDir, m[1]!);
  return await Deno.readTextFile(path).catch(() => undefined);
}

/**
 * Loads a TodoMVC-style app at `url`, waits for its new-todo field (polling snapshots), adds
 * `todo` with fill + Enter, then clicks that item's toggle. Errors of the timed calls and of
 * the checks after them (a fresh snapshot must show the item, then its toggle checked) are
 * collected, not thrown.
 *
 * @param workDir The peer's working folder, to read the snapshot files it links.
 */
export async function todoFlow(
  c: BenchClient,
  kind: ServerKind,
  url: string,
  options: { session?: string; todo?: string; workDir?: string | undefined } = {},
): Promise<TodoFlow> {
  const session = options.session;
  const todo = options.todo ?? "Buy oat milk";
  const errors: string[] = [];
  const nav = session && kind === "browxai"
    ? await c.call("open_session", { session, url })
    : await navigate(c, kind, url, session ? { session } : {});
  if (nav.isError) errors.push(`navigate: ${nav.text.slice(0, 200)}`);
  const waitStart = performance.now();
  const snapshot = await snapshotUntil(c, kind, NEW_TODO, session ? { session } : {});
  const snapshotWaitMs = performance.now() - waitStart;
  const input = refOn(snapshot.text, NEW_TODO)!;
  const fill = kind === "peer"
    ? await c.call("browser_type", { target: input, text: todo, submit: true })
    : await c.call("fill", withSession({ ref: input, value: todo, submit: true }, session));
  if (fill.isError) errors.push(`fill: ${fill.text.slice(0, 200)}`);
  const after = await fullSnapshot(c, kind, session);
  if (!after.text.includes(todo)) errors.push(`fill: "${todo}" is not in the list`);
  const toggle = lastToggleRef(after.text);
  let click: CallResult;
  if (!toggle) {
    errors.push("click: no toggle in the snapshot");
    click = { ms: NaN, text: "", isError: true, structured: undefined };
  } else {
    click = kind === "peer"
      ? await c.call("browser_click", { target: toggle })
      : await c.call("click", withSession({ ref: toggle }, session));
    if (click.isError) errors.push(`click: ${click.text.slice(0, 200)}`);
    const checked = await fullSnapshot(c, kind, session);
    const line = checked.text.split("\n").find((l) => l.includes(`[ref=${toggle}]`)) ?? "";
    if (!/checked/.test(line)) errors.push(`click: toggle not checked: ${line.trim()}`);
  }
  const linked: TodoFlow["linked"] = {};
  if (kind === "peer") {
    const f = await linkedFile(fill.text, options.workDir);
    const k = await linkedFile(click.text, options.workDir);
    if (f !== undefined) linked.fill = f;
    if (k !== undefined) linked.click = k;
  }
  return { navigate: nav, snapshot, snapshotWaitMs, fill, reread: after, click, linked, errors };
}
