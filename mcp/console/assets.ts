/**
 * The console's static files: `ui/index.html`, `ui/console.css` and the bundle
 * `ui/dist/console.js` (built by `deno task ui`, committed). They are read from the `ui/` folder
 * `static_root.ts` finds (a clone, the one-file bundle of the npm package, a `deno compile`
 * binary built with `--include ui`). Nothing is fetched at run time.
 *
 * @module
 */

import { readStatic } from "../static_root.ts";

/** A static file of the console. */
export interface Asset {
  body: Uint8Array;
  contentType: string;
}

/** URL path under `/console/` → file under `ui/` and its type. */
export const ASSETS: Record<string, { file: string; contentType: string }> = {
  "console.css": { file: "console.css", contentType: "text/css; charset=utf-8" },
  "console.js": { file: "dist/console.js", contentType: "text/javascript; charset=utf-8" },
};

/** The page itself. */
export const INDEX = { file: "index.html", contentType: "text/html; charset=utf-8" };

const cache = new Map<string, Promise<Asset | undefined>>();

/**
 * Reads `file` (a path under `ui/`) once and keeps it.
 *
 * @returns The file, or undefined when no `ui/` folder holds it (a build without the UI).
 */
export function readAsset(file: string, contentType: string): Promise<Asset | undefined> {
  let p = cache.get(file);
  if (!p) {
    p = readStatic(`ui/${file}`).then((body) => body && { body, contentType });
    cache.set(file, p);
  }
  return p;
}
