/**
 * The console's static files: `ui/index.html`, `ui/console.css` and the bundle
 * `ui/dist/console.js` (built by `deno task ui`, committed). They are read from the `ui/` folder
 * next to the code, found from `import.meta.url`: `../../ui/` from this file in a clone or a
 * `deno compile` binary (built with `--include ui/`), `../ui/` from a one-file bundle in
 * `dist/`. Nothing is fetched at run time.
 *
 * @module
 */

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

const ROOTS = [new URL("../../ui/", import.meta.url), new URL("../ui/", import.meta.url)];
const cache = new Map<string, Promise<Asset | undefined>>();

/**
 * Reads `file` (a path under `ui/`) once and keeps it.
 *
 * @returns The file, or undefined when no `ui/` folder holds it (a build without the UI).
 */
export function readAsset(file: string, contentType: string): Promise<Asset | undefined> {
  let p = cache.get(file);
  if (!p) {
    p = (async () => {
      for (const root of ROOTS) {
        try {
          return { body: await Deno.readFile(new URL(file, root)), contentType };
        } catch { /* try the next root */ }
      }
      return undefined;
    })();
    cache.set(file, p);
  }
  return p;
}
