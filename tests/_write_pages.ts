/**
 * A page server for tests of what a page writes: `/` is the page, `/done?…` a small page to
 * land on, `/quick` answers "ok" at once; a POST anywhere is answered with JSON and logged.
 *
 * @module
 */

/** The server, with the POSTs it received (path and query, in order). */
export interface WritePages {
  /** `http://127.0.0.1:<port>`. */
  base: string;
  posts: string[];
  close(): Promise<void>;
}

/** Serves `page` at `/` with `headers` (see the module doc) on 127.0.0.1. */
export function serveWritePages(page: string, headers: Record<string, string> = {}): WritePages {
  const posts: string[] = [];
  const html = { "content-type": "text/html" };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "POST") {
      await req.text();
      posts.push(url.pathname + url.search);
      return Response.json({ saved: true });
    }
    if (url.pathname === "/done") {
      return new Response(`<!doctype html><title>Done</title><p>Done ${url.search}`, {
        headers: html,
      });
    }
    if (url.pathname === "/quick") return new Response("ok");
    if (url.pathname !== "/") return new Response("no", { status: 404 });
    return new Response(page, { headers: { ...html, ...headers } });
  });
  return { base: `http://127.0.0.1:${server.addr.port}`, posts, close: () => server.shutdown() };
}
