/**
 * The one renderer of the ActionResult: its text form (what the agent reads
 * and pays tokens for) and the structured content sent beside it.
 *
 * The text is compact JSON of the result with the news only, then the
 * snapshot raw, unescaped, under a label that says what it is
 * (`delta (changes since the call began):` or `snapshot (full page):`,
 * `snapshot/labels.ts`). Left out of
 * the text, kept in structuredContent ({@link textOmissions}): the call's own
 * echo (`action`, `element.ref`), `tokensEstimate`, an unchanged navigation,
 * a still-attached or focused element, the delta's `scope` and `mode: "delta"`,
 * an untruncated delta's `truncated`, zero console warnings, a window without
 * traffic; then every `null`, empty array and empty object. A failed action
 * leads with its error's message and `Next:` its hint (not repeated in the JSON).
 *
 * @module
 */
import { estimateTokens } from "../snapshot/paging.ts";
import {
  capRawText,
  capStrings,
  deletePath,
  pruneEmpty,
  type RenderedOutput,
  type ToolOutput,
} from "../output.ts";
import type { ActionResult } from "./action_result.ts";
import { deltaLabel } from "../snapshot/labels.ts";

/** The ToolOutput of an ActionResult: the result, typed, and its renderer. */
export interface ActionOutput extends ToolOutput {
  structured: ActionResult;
  render: (structured: Record<string, unknown>) => RenderedOutput;
}

/** Where the raw snapshot text sits in the result. */
const TREE_PATH = "snapshotDelta.tree";

/**
 * Dotted paths of `result` the text leaves out: they say nothing the agent
 * does not know (its own call, an unchanged URL, focus an action gives) or
 * nothing at all (zero counts). structuredContent keeps them.
 */
export function textOmissions(result: ActionResult): string[] {
  const omit = ["action", "element.ref", "snapshotDelta.scope", "tokensEstimate"];
  if (!result.navigation?.changed) omit.push("navigation");
  if (result.element?.stillAttached === true) omit.push("element.stillAttached");
  if (result.element?.focused === true) omit.push("element.focused");
  if (result.snapshotDelta?.mode === "delta") omit.push("snapshotDelta.mode");
  if (result.console?.warnings === 0) omit.push("console.warnings");
  if (result.network?.summary.total === 0) omit.push("network");
  if (!result.snapshotDelta?.truncated) omit.push("snapshotDelta.truncated");
  return omit;
}

/**
 * Renders `result` (as the call pipeline holds it when rendering: masked,
 * page cuts resolved): strings over `MAX_FIELD_CHARS` cut, the tree over
 * `MAX_RAW_CHARS` cut, the text as the module doc says, and `tokensEstimate`
 * (chars / 4 of that text) filled into the structured content returned.
 * `result` itself is not changed.
 */
export function renderActionResult(result: ActionResult): RenderedOutput & {
  structured: ActionResult;
} {
  const tree = result.snapshotDelta?.tree;
  const raw = typeof tree === "string" ? capRawText(tree) : undefined;
  const structured = capStrings(result) as ActionResult;
  if (raw !== undefined && structured.snapshotDelta) structured.snapshotDelta.tree = raw;
  const view = structuredClone(structured) as Record<string, unknown>;
  for (const path of textOmissions(structured)) deletePath(view, path);
  deletePath(view, TREE_PATH);
  const error = structured.error;
  // A failed action still carries its full result; lead with what went wrong and what to do
  // (said once: the JSON keeps the error's code and details).
  const lead = !structured.ok && error?.message
    ? [`${error.message}\nNext: ${error.hint ?? ""}`]
    : [];
  if (lead.length) {
    deletePath(view, "error.message");
    deletePath(view, "error.hint");
  }
  const head = pruneEmpty(view);
  const tails = raw ? [`${deltaLabel(structured.snapshotDelta!)}:\n${raw}`] : [];
  const text = [...lead, JSON.stringify(head), ...tails].join("\n");
  structured.tokensEstimate = estimateTokens(text);
  return { text, structured };
}

/** The ToolOutput of `result`: `isError` when it failed, and its renderer. */
export function actionOutput(result: ActionResult): ActionOutput {
  return {
    structured: result,
    ...(!result.ok ? { isError: true } : {}),
    render: (structured) => renderActionResult(structured as ActionResult),
  };
}
