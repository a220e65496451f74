/**
 * The labels a snapshot's raw text goes under in a result's text form: a whole outline and a
 * delta read differently, so an agent never takes a delta (a few changed lines) for the page.
 * The structured content keeps its keys (`tree`, `snapshotDelta.tree`); only the text's label
 * line changes.
 *
 * @module
 */

/** Over the whole page's outline (the `snapshot` tool, an action's `mode: "full"`). */
export const FULL_LABEL = "snapshot (full page)";

/** Over a delta: the lines that changed since the call began (an action, `wait_for`). */
export const DELTA_LABEL = "delta (changes since the call began)";

/** Over one element's subtree (`snapshot({ ref })`). */
export function subtreeLabel(ref: string): string {
  return `snapshot (subtree of ${ref})`;
}

/** The label of a `snapshotDelta`'s tree: {@link DELTA_LABEL} or {@link FULL_LABEL}. */
export function deltaLabel(delta: { mode: string }): string {
  return delta.mode === "delta" ? DELTA_LABEL : FULL_LABEL;
}
