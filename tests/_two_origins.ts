/**
 * Two tiny origins for the guard's attack tests: `a` = `http://127.0.0.1:<p1>`
 * (on an allowlist of "127.0.0.1"), `b` = `http://localhost:<p2>` (off it).
 * Each request is recorded (server, method, path with query, body).
 */

/** One request a server received. */
export interface Hit {
  srv: "A" | "B";
  method: string;
  path: string;
  body: string;
}

/** A page: HTML text (served no-store; `.js` paths as JavaScript), or a handler. */
export type PageSource = string | ((req: Request) => Response);

/** The running pair. */
export interface TwoOrigins {
  a: string;
  b: string;
  hits: Hit[];
  /** Paths `srv` received (method and path, in order). */
  seen(srv: "A" | "B"): string[];
  close(): Promise<void>;
}

/** Starts both servers; `pages(a, b)` maps a path to what either server answers there. */
export function startTwoOrigins(
  pages: (a: string, b: string) => Record<string, PageSource>,
): TwoOrigins {
  const hits: Hit[] = [];
  const base = { a: "", b: "" };
  let table: Record<string, PageSource> | undefined;
  const serve = (srv: "A" | "B") =>
    Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
      const u = new URL(req.url);
      const body = req.method === "GET" || req.method === "HEAD" ? "" : await req.text();
      hits.push({ srv, method: req.method, path: u.pathname + u.search, body });
      table ??= pages(base.a, base.b);
      const p = table[u.pathname];
      if (typeof p === "function") return p(req);
      const type = u.pathname.endsWith(".js") ? "text/javascript" : "text/html";
      return new Response(p ?? `<title>${srv} ${u.pathname}</title><p>${srv} ${u.pathname}</p>`, {
        headers: { "content-type": type, "cache-control": "no-store" },
      });
    });
  const sa = serve("A"), sb = serve("B");
  base.a = `http://127.0.0.1:${sa.addr.port}`;
  base.b = `http://localhost:${sb.addr.port}`;
  return {
    ...base,
    hits,
    seen: (srv) => hits.filter((h) => h.srv === srv).map((h) => `${h.method} ${h.path}`),
    close: async () => {
      await sa.shutdown();
      await sb.shutdown();
    },
  };
}
