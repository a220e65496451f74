/**
 * The web console end to end (issue 15): browxai with `--console` (stdio) and `--http`, the
 * console opened in a second headless Chromium: sessions, live frames, tabs, activity, tails.
 * (Access and malformed input: console_access_test.ts.)
 *
 * @module
 */
import { assertEquals, assertTrue as assert } from "./_assert.ts";
import {
  type ConsoleViewer,
  loginCookie,
  openConsole,
  openSocket,
  startConsoleHttp,
  startConsoleStdio,
} from "./_console.ts";
import { eventually } from "./_util.ts";

function assertMatch(text: string, re: RegExp): void {
  assert(re.test(text), `expected ${re} in: ${text.slice(0, 500)}`);
}

/** Two pages that look different, served on 127.0.0.1. */
function pages() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    const [title, color] = path === "/b" ? ["Page B", "#2457c5"] : ["Page A", "#c52424"];
    const body = `<!doctype html><title>${title}</title>
      <body style="margin:0;background:${color};font:40px sans-serif;color:white">
      <h1>${title}</h1><button id="go">Go</button>
      <script>console.log("hello from ${title}")</script></body>`;
    return new Response(body, { headers: { "content-type": "text/html" } });
  });
  const base = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  return { base, close: () => server.shutdown() };
}

Deno.test("console (stdio --console): sessions, live frames that follow the page, activity, tails", async () => {
  const site = pages();
  const server = await startConsoleStdio();
  let viewer: ConsoleViewer | undefined;
  try {
    await server.mcp.ok("navigate", { url: `${site.base}/a` });
    viewer = await openConsole(server.url);
    // The token URL redirected to the URL without it, and the page loaded with the cookie.
    assertEquals(await viewer.eval("location.search"), "");
    await viewer.waitFor('[data-session="stdio/default"]');
    await viewer.waitForText("Page A");
    // The first session is watched: frames arrive.
    const first = await eventually(
      async () => {
        const f = await viewer!.frame();
        return f.count > 0 && f.src.length > 100 && f;
      },
      15_000,
      "a first live frame",
    );
    // The agent navigates: the live image changes and the URL shown follows.
    await server.mcp.ok("navigate", { url: `${site.base}/b` });
    await eventually(
      async () => {
        const f = await viewer!.frame();
        return f.count > first.count && f.src !== first.src;
      },
      15_000,
      "a new frame after the navigation",
    );
    await eventually(
      async () => (await viewer!.text("[data-url]"))?.endsWith("/b"),
      10_000,
      "the URL of page B",
    );
    // The activity lists the agent's calls.
    await viewer.waitFor('[data-activity] li[data-tool="navigate"]');
    assertMatch(await viewer.text('[data-activity] li[data-tool="navigate"]') ?? "", /ok/);
    // Console tail of the watched session.
    await viewer.click('[data-bottom="console"]');
    await viewer.waitForText("hello from Page B");
    await viewer.click('[data-bottom="network"]');
    await viewer.waitFor("[data-network]");
    assertMatch(await viewer.text("[data-network]") ?? "", /\/b/);
    // Watching shows as attended, one viewer of the session.
    await eventually(
      async () => (await viewer!.text("[data-session-viewers]")) === "1",
      10_000,
      "one viewer of the session",
    );
    await eventually(
      async () => {
        const list = await viewer!.text('[data-session="stdio/default"]') ?? "";
        return /Page B/.test(list) && /navigate · ok/.test(list);
      },
      10_000,
      "the session listed with its title and last call",
    );
    // The viewer leaves: the session is no longer watched (and its cast stops).
    await viewer.close();
    viewer = undefined;
    const cookie = await loginCookie(server.url);
    await eventually(
      async () => {
        const r = await fetch(`${server.base}/console/api/state`, { headers: { cookie } });
        const state = await r.json();
        const s = state.sessions[0].sessions[0];
        return state.server.viewers === 0 && s.viewers === 0 && s.attended === false;
      },
      10_000,
      "no viewer left",
    );
  } finally {
    await viewer?.close();
    await server.close();
    await site.close();
  }
});

Deno.test("console (--http): one listener serves /mcp and the console; the live socket passes the front", async () => {
  const site = pages();
  const server = await startConsoleHttp();
  let viewer: ConsoleViewer | undefined;
  try {
    assertMatch(server.http!.url, /\/mcp$/);
    assertEquals(new URL(server.http!.url).host, new URL(server.base).host);
    await server.mcp.ok("navigate", { url: `${site.base}/a` });
    const cookie = await loginCookie(server.url);
    const s = await openSocket(server.base, { cookie, origin: server.base });
    try {
      const state = await s.next((m) =>
        m.type === "state" &&
        JSON.stringify(m.state).includes("Page A")
      );
      const clients = (state.state as { sessions: Array<{ label: string }> }).sessions;
      assertEquals(clients.map((c) => c.label), ["c1"]);
      s.send({
        type: "watch",
        session: { client: "c1", session: "default" },
        maxWidth: 640,
        maxHeight: 400,
      });
      await s.next((m) => m.type === "watching");
      const frame = await s.next((m) => m.type === "frame", { timeoutMs: 15_000 });
      assertEquals(frame.session, { client: "c1", session: "default" });
      assert(typeof frame.data === "string" && (frame.data as string).length > 100);
      assert((frame.metadata as { deviceWidth: number }).deviceWidth > 0);
    } finally {
      s.close();
    }
    // The page itself, in a browser, through the front.
    viewer = await openConsole(server.url);
    await viewer.waitFor('[data-session="c1/default"]');
    await eventually(async () => (await viewer!.frame()).count > 0, 15_000, "a live frame");
    // No cookie: 401 on the same listener; /mcp still answers MCP.
    const r = await fetch(`${server.base}/console/api/state`);
    assertEquals(r.status, 401);
    await r.body?.cancel();
    const list = await server.mcp.client.listTools();
    assert(list.tools.length > 0);
  } finally {
    await viewer?.close();
    await server.close();
    await site.close();
  }
});

Deno.test("console: the live view and the tab list follow the agent's active tab", async () => {
  const site = pages();
  const server = await startConsoleStdio();
  let viewer: ConsoleViewer | undefined;
  try {
    await server.mcp.ok("navigate", { url: `${site.base}/a` });
    viewer = await openConsole(server.url);
    const frameAfter = async (count: number) =>
      await eventually(
        async () => {
          const f = await viewer!.frame();
          return f.count > count && f;
        },
        15_000,
        "a new frame",
      );
    const first = await frameAfter(0);
    await server.mcp.ok("tabs", { action: "new" });
    await server.mcp.ok("navigate", { url: `${site.base}/b` });
    await eventually(
      async () =>
        (await viewer!.eval<number>("document.querySelectorAll('[data-tabs] li').length")) === 2,
      10_000,
      "two tabs listed",
    );
    await eventually(
      async () => (await viewer!.text("[data-tabs] li.active"))?.includes("/b"),
      10_000,
      "tab B active",
    );
    const second = await frameAfter(first.count);
    await eventually(
      async () => (await viewer!.frame()).src !== first.src,
      10_000,
      "tab B's frame",
    );
    await server.mcp.ok("tabs", { action: "switch", index: 0 });
    await eventually(
      async () => (await viewer!.text("[data-url]"))?.endsWith("/a"),
      10_000,
      "tab A shown",
    );
    await frameAfter(second.count);
  } finally {
    await viewer?.close();
    await server.close();
    await site.close();
  }
});
