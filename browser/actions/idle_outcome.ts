/**
 * Whether an action changed anything but its own element, read from what the window saw and
 * the delta: for warnings that only hold when nothing happened (Enter in a field outside any
 * form that no key handler answered).
 *
 * @module
 */

/**
 * True when every changed line of a delta's tree (`+ `, `- `, `~ `) is the acted-on element's
 * own line (`[ref=<ref>]`), or nothing changed. Context lines (two spaces) are not changes; any
 * other line (a note: refs re-created, rows that changed) is.
 *
 * @param tree The rendered delta (`snapshotDelta.tree` of a `delta`).
 * @param ref The acted-on element's ref.
 */
export function onlyOwnLineChanged(tree: string, ref: string): boolean {
  const own = `[ref=${ref}]`;
  for (const line of tree.split("\n")) {
    if (line === "" || line.startsWith("  ")) continue;
    if (/^[-+~] /.test(line) && line.includes(own)) continue;
    return false;
  }
  return true;
}

/**
 * The first button or link after the acted-on element's line in a snapshot (within the next
 * 12 lines), as `button "Search" [ref=e2]`: what usually sends a field no form sends.
 *
 * @param tree A full snapshot text (the page as the agent saw it before the action).
 * @param ref The field's ref.
 * @returns The line's role, name and ref, or undefined when none follows the field closely.
 */
export function nextButtonAfter(tree: string, ref: string): string | undefined {
  const lines = tree.split("\n");
  const at = lines.findIndex((l) => l.includes(`[ref=${ref}]`));
  if (at < 0) return undefined;
  for (const line of lines.slice(at + 1, at + 13)) {
    const m = /\b(button|link) ("(?:[^"\\]|\\.)*") \[ref=([a-z]?\w+)\]/.exec(line);
    if (m) return `${m[1]} ${m[2]} [ref=${m[3]}]`;
  }
  return undefined;
}
