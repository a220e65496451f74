/**
 * Toolsets: the groups tools are listed in (`BROWX_TOOLSETS` picks which `tools/list` shows).
 * The names are data here so that the type and the list cannot drift apart.
 *
 * @module
 */

/** Every toolset name, in the order `get_config` and errors list them. */
export const TOOLSETS = [
  "core",
  "sessions",
  "debug",
  "forms",
  "files",
  "policy",
  "power",
  "storage",
  "emulation",
  "human",
  "testing",
] as const;

/** A toolset name (one of {@link TOOLSETS}). */
export type Toolset = typeof TOOLSETS[number];

/** Toolsets listed when `BROWX_TOOLSETS` is not set. */
export const DEFAULT_TOOLSETS: readonly Toolset[] = ["core", "sessions", "debug"];

/** Whether `name` is a toolset name. */
export function isToolset(name: string): name is Toolset {
  return (TOOLSETS as readonly string[]).includes(name);
}
