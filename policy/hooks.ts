/**
 * Confirm hooks: actions the operator wants a human to say yes to
 * (`BROWX_CONFIRM_REQUIRED`). Pure functions over data.
 *
 * @module
 */

/** Every confirm hook (seed 004 / seed 000 vocabulary). */
export const CONFIRM_HOOKS = [
  "navigate_off_allowlist",
  "byob_action",
  "file_download",
  "file_upload",
  "submit",
  "publish",
] as const;

/** One confirm hook name; also the scope of a pre-approval (`approve_actions`). */
export type ConfirmHook = typeof CONFIRM_HOOKS[number];

/** True when `name` is a known hook. */
export function isConfirmHook(name: string): name is ConfirmHook {
  return (CONFIRM_HOOKS as readonly string[]).includes(name);
}

/**
 * Parses `BROWX_CONFIRM_REQUIRED` (a comma list; empty or undefined: none).
 *
 * @throws RangeError naming the unknown entries and the valid names.
 */
export function parseConfirmHooks(list: string | undefined): Set<ConfirmHook> {
  const names = (list ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !isConfirmHook(n));
  if (unknown.length) {
    throw new RangeError(
      `Unknown confirm hook ${unknown.map((u) => `"${u}"`).join(", ")}: valid names are ${
        CONFIRM_HOOKS.join(", ")
      }`,
    );
  }
  return new Set(names as ConfirmHook[]);
}
