/**
 * The bench's page server: two loopback HTTP servers with the same routes.
 *
 * - `origin`: `http://127.0.0.1:<port>`
 * - `crossOrigin`: `http://localhost:<port2>` (also bound on 127.0.0.1): another site, so its
 *   iframes in an `origin` page run out of process in Chromium.
 *
 * | route | response |
 * | --- | --- |
 * | `/node/<file>` | the Node.js API docs (`fs.html`, `all.html`, `assets/…`) from `nodeDocsDir` |
 * | `/todomvc/<path>` | the unpacked `todomvc` npm package from `todomvcDir` (folders serve `index.html`) |
 * | `/gen/<name>.html` | a generated page (see `stress_pages.ts`): `small`, `many` (`?n=`), `shadow`, `frames`, `frame` (`?i=`), `table` (`?n=`), `datatable` |
 *
 * Every response has `Cache-Control: no-store`, so each navigation loads the page afresh for
 * both servers under test.
 *
 * @module
 */
import { normalize, resolve, sep } from "node:path";
import { contentTypeFor } from "../tests/fixtures/server.ts";
import { type GeneratedPage, generatedPage } from "./stress_pages.ts";

/** Options of {@link startPageServer}. */
export interface PageServerOptions {
  /** Folder holding the Node.js API docs (`fs.html`, `all.html`, `assets/`). */
  nodeDocsDir?: string | undefined;
  /** Folder of the unpacked `todomvc` package (holding `examples/`). */
  todomvcDir?: string | undefined;
}

/** A running pair of page servers. */
export interface PageServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly origin: string;
  /** `http://localhost:<port2>`: cross-site to `origin`. */
  readonly crossOrigin: string;
  /** Absolute URL on `origin` for a path such as `/gen/small.html`. */
  url(path: string): string;
  /** The generated page behind a `/gen/…` URL of this server (its probes), if any. */
  generated(url: string): GeneratedPage | undefined;
  /** Number of requests served so far (both servers). */
  readonly requestCount: number;
  /** Stops both servers. Idempotent. */
  close(): Promise<void>;
}

const NO_STORE = { "cache-control": "no-store" };

function text(body: string, status: number, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", ...NO_STORE, ...headers },
  });
}

async function serveFile(root: string, rel: string, urlPath: string): Promise<Response> {
  const full = resolve(root, normalize("." + sep + rel));
  if (full !== root && !full.startsWith(root + sep)) return text("forbidden", 403);
  try {
    let file = full;
    const info = await Deno.stat(full);
    if (info.isDirectory) {
      if (!urlPath.endsWith("/")) return text("", 301, { location: urlPath + "/" });
      file = resolve(full, "index.html");
    }
    return new Response(await Deno.readFile(file), {
      headers: { "content-type": contentTypeFor(file), ...NO_STORE },
    });
  } catch (e) {
    if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) {
      return text(`not found: ${urlPath}`, 404);
    }
    throw e;
  }
}

/**
 * Starts the two servers on free loopback ports.
 *
 * @returns A {@link PageServer}; call `close()` when done.
 */
export function startPageServer(options: PageServerOptions = {}): PageServer {
  let requests = 0;
  let origins = { origin: "", crossOrigin: "" };
  const genFor = (url: URL) => {
    const m = /^\/gen\/([a-z]+)\.html$/.exec(url.pathname);
    return m ? generatedPage(m[1]!, origins, url.searchParams) : undefined;
  };
  const handle = async (req: Request): Promise<Response> => {
    requests++;
    const url = new URL(req.url);
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return text("bad path", 400);
    }
    if (path.startsWith("/gen/")) {
      const page = genFor(url);
      if (!page) return text(`not found: ${path}`, 404);
      return new Response(page.html, {
        headers: { "content-type": "text/html; charset=utf-8", ...NO_STORE },
      });
    }
    if (path.startsWith("/node/") && options.nodeDocsDir) {
      return await serveFile(options.nodeDocsDir, path.slice("/node".length), url.pathname);
    }
    if ((path === "/todomvc" || path.startsWith("/todomvc/")) && options.todomvcDir) {
      return await serveFile(options.todomvcDir, path.slice("/todomvc".length), url.pathname);
    }
    return text(`not found: ${path}`, 404);
  };
  const onError = (e: unknown) => text(`page server error: ${e}`, 500);
  const serve = () =>
    Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {}, onError }, handle);
  const main = serve();
  const cross = serve();
  origins = {
    origin: `http://127.0.0.1:${main.addr.port}`,
    crossOrigin: `http://localhost:${cross.addr.port}`,
  };
  let closing: Promise<void> | undefined;
  return {
    origin: origins.origin,
    crossOrigin: origins.crossOrigin,
    url: (p) => origins.origin + (p.startsWith("/") ? p : "/" + p),
    generated(raw) {
      const url = new URL(raw);
      return url.origin === origins.origin || url.origin === origins.crossOrigin
        ? genFor(url)
        : undefined;
    },
    get requestCount() {
      return requests;
    },
    close() {
      closing ??= Promise.all([main.shutdown(), cross.shutdown()]).then(() => {});
      return closing;
    },
  };
}
