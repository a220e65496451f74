/**
 * Where browxai's static files (the web console's `ui/` folder) are, however
 * browxai runs:
 *
 * - from a clone (`deno task start`): this file is `<repo>/mcp/static_root.ts`;
 * - from the one-file bundle (`deno task bundle`, what the npm package runs):
 *   every module's `import.meta.url` is the bundle's, `<package>/dist/browxai.js`,
 *   and the package ships `ui/` beside `dist/`;
 * - from a `deno compile` binary built with `--include ui`: this file is
 *   `<virtual root>/mcp/static_root.ts` and `ui/` sits under the same root.
 *
 * All three are one level below the root that holds `ui/`, so the root is
 * `../` from `import.meta.url` (this module must stay one folder deep, as
 * `dist/browxai.js` is). `BROWX_STATIC_ROOT` (a directory holding `ui/`)
 * overrides it.
 *
 * @module
 */
import { pathToFileURL } from "node:url";

/**
 * The folder that holds `ui/`, as a `file:` URL ending in `/`.
 *
 * @param env Environment lookup (for `BROWX_STATIC_ROOT`); defaults to `Deno.env.get`.
 */
export function staticRoot(
  env: (name: string) => string | undefined = (n) => Deno.env.get(n),
): URL {
  const override = env("BROWX_STATIC_ROOT");
  if (override) return pathToFileURL(override.endsWith("/") ? override : `${override}/`);
  return new URL("../", import.meta.url);
}

/**
 * The URL of a static file, e.g. `staticUrl("ui/dist/console.js")`; read it
 * with `Deno.readFile(url)` (works inside a compiled binary too).
 */
export function staticUrl(path: string, env?: (name: string) => string | undefined): URL {
  return new URL(path.replace(/^\/+/, ""), staticRoot(env));
}

/**
 * Reads a static file.
 *
 * @returns Its bytes, or undefined when this build does not ship it.
 */
export async function readStatic(path: string): Promise<Uint8Array | undefined> {
  try {
    return await Deno.readFile(staticUrl(path));
  } catch {
    return undefined;
  }
}
