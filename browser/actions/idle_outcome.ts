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
