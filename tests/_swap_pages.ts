/**
 * The pages of the confirm-swap tests (red team s13 #2, s14 #2): a server of `pages` that
 * records every POST (`path?query body`), and a "person" answering the submit question who
 * lets the page swap while they read: the page polls `/should-swap` ({@link poll}), swaps,
 * reports `/swapped`, and only then the person says yes. No fixed waits.
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { eventually, refOf } from "./_util.ts";
import type { McpHarness, ToolResult } from "./_mcp.ts";

/** The page's poll: runs `swap` once the person is reading, then reports it. */
export const poll = (swap: string) =>
  `<script>const t = setInterval(async () => {
  if (await (await fetch("/should-swap")).text() !== "yes") return;
  clearInterval(t); ${swap}; fetch("/swapped");
}, 30);</script>`;

/** The server and the person; `close` stops the server. */
export interface SwapPages {
  origin: string;
  /** The questions asked, in order. */
  asked: string[];
  /** Every request's path but the swap protocol's, in order (`GET /evil.exe`). */
  hits: string[];
  /** The person: reads, lets an armed page swap, then answers yes. */
  elicit: (request: ElicitRequest["params"]) => Promise<ElicitResult>;
  /** Runs `act` (a call that asks) with the page swapping (`swapping`) while asked; the POSTs it made. */
  during<T>(swapping: boolean, act: () => Promise<T>): Promise<{ r: T; sent: () => string[] }>;
  close(): Promise<void>;
}

/** A path's own answer: a redirect, a script, a WebSocket (its request is in `hits` first). */
export type SwapHandler = (req: Request, port: number) => Response | Promise<Response>;

/**
 * Serves `pages` (path → HTML, or a function of the server's port: a page naming the same
 * server as another origin, `localhost`) on 127.0.0.1 with the swap protocol; `handlers`
 * answer their paths themselves (before `pages`; a POST to one is recorded too).
 */
export function swapPages(
  pages: Record<string, string | ((port: number) => string)>,
  handlers: Record<string, SwapHandler> = {},
): SwapPages {
  let armed = false, swap = false, swapped = false;
  const posts: string[] = [];
  const hits: string[] = [];
  const server: Deno.HttpServer<Deno.NetAddr> = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen() {},
  }, async (req) => {
    const url = new URL(req.url);
    if (!/^\/(should-swap|swapped)$/.test(url.pathname)) hits.push(`${req.method} ${url.pathname}`);
    const own = handlers[url.pathname];
    if (req.method === "POST") {
      posts.push(`${url.pathname}${url.search} ${await req.text()}`);
      if (!own) return new Response("posted");
    }
    if (own) return await own(req, server.addr.port);
    if (url.pathname === "/should-swap") return new Response(swap ? "yes" : "no");
    if (url.pathname === "/swapped") {
      swapped = true;
      return new Response("ok");
    }
    const page = pages[url.pathname];
    const html = typeof page === "function" ? page(server.addr.port) : page;
    if (html === undefined) return new Response("no", { status: 404 });
    // A path with an extension is a file to download.
    return /\.\w+$/.test(url.pathname)
      ? new Response(html, {
        headers: { "content-disposition": `attachment; filename=${url.pathname.slice(1)}` },
      })
      : new Response(html, { headers: { "content-type": "text/html" } });
  });
  const asked: string[] = [];
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    asked,
    hits,
    async elicit(req) {
      asked.push(String(req.message));
      swap = armed;
      if (swap) await eventually(() => swapped, 10_000, "the page's swap");
      return { action: "accept", content: { approve: true } };
    },
    async during(swapping, act) {
      const sent = posts.length;
      armed = swapping;
      swapped = false;
      try {
        return { r: await act(), sent: () => posts.slice(sent) };
      } finally {
        armed = swap = false;
      }
    },
    close: () => server.shutdown(),
  };
}

/**
 * Navigates `mcp`'s tab to `path` of `pages` and clicks its "Donate…" button by ref with
 * `submits: true` (the red team's way), the page swapping while the person reads (`swapping`).
 */
export async function clickDonate(
  mcp: McpHarness,
  pages: SwapPages,
  path: string,
  swapping = true,
): Promise<{ r: ToolResult; sent: () => string[] }> {
  const nav = await mcp.ok("navigate", { url: pages.origin + path, snapshot: "full" });
  const ref = refOf((nav.snapshotDelta as { tree: string }).tree, /button "Donate[^"]*"/);
  return await pages.during(swapping, () => mcp.call("click", { ref, submits: true }));
}
