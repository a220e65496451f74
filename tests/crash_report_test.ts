/**
 * A browser crash is reported once: by the call that was running when it
 * happened, or else by the next call; the calls after that work on a fresh
 * default session.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio, textOf, type ToolResult } from "./_mcp.ts";
import { chromiumsUnder } from "./_procs.ts";
import { alive, cmdline, eventually } from "./_util.ts";

const code = (r: ToolResult) => (r.structuredContent?.error as { code?: string } | undefined)?.code;

Deno.test("crash report: a browser killed under a running call is reported once on default", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio();
  try {
    await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    const [browser] = chromiumsUnder(mcp.pid!).filter((p) => !cmdline(p).includes("--type="));
    assertTrue(browser !== undefined);
    const waiting = mcp.call("wait_for", { text: "never shown", timeoutMs: 30_000 });
    // Whether the kill lands before or while the call runs, that call is the one to report it.
    Deno.kill(browser!, "SIGKILL");
    const during = await waiting;
    assertEquals(code(during), "browser-crashed", textOf(during));
    await eventually(() => !alive(browser!), 5000, "the browser to die");
    const next = await mcp.call("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    assertEquals(next.isError, undefined, `reported again: ${textOf(next)}`);
    const after = await mcp.call("snapshot");
    assertEquals(after.isError, undefined, textOf(after));
    assertIncludes(textOf(after), "Basic");
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("crash report: a crash between calls is reported by the next call only", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio();
  try {
    await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    const [browser] = chromiumsUnder(mcp.pid!).filter((p) => !cmdline(p).includes("--type="));
    Deno.kill(browser!, "SIGKILL");
    await eventually(() => !alive(browser!), 5000, "the browser to die");
    const first = await mcp.call("snapshot");
    assertEquals(code(first), "browser-crashed", textOf(first));
    const second = await mcp.call("snapshot");
    assertEquals(second.isError, undefined, `reported again: ${textOf(second)}`);
    const third = await mcp.call("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    assertEquals(third.isError, undefined, textOf(third));
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("crash report: a tab whose renderer dies while an action waits on it is reported crashed, and navigate recovers it at once", async () => {
  let started = false;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/started") {
      started = true;
      return new Response("");
    }
    const body = path === "/busy"
      // The click's handler says it began, then holds the main thread for good.
      ? `<button onclick="navigator.sendBeacon('/started'); for (;;) {}">Spin</button>`
      : "<title>fine</title><p>fine</p>";
    return new Response(`<!doctype html>${body}`, { headers: { "content-type": "text/html" } });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const mcp = await startStdio();
  try {
    await mcp.ok("navigate", { url: `${origin}/busy`, snapshot: "none" });
    const click = mcp.call("click", { selector: "text=Spin", timeoutMs: 6000, snapshot: "none" });
    await eventually(() => started, 10_000, "the click's handler to run");
    // The renderer dies before the click's deadline: the stop that follows has nothing to stop.
    for (
      const p of chromiumsUnder(mcp.pid!).filter((p) => cmdline(p).includes("--type=renderer"))
    ) {
      Deno.kill(p, "SIGKILL");
    }
    const during = await click;
    assertEquals(code(during), "page-crashed", textOf(during));
    // Was: every navigate waited out a termination sent to the dead renderer, then failed
    // "crashed" (for 60 s).
    const after = await mcp.call("navigate", { url: `${origin}/ok`, timeoutMs: 8000 });
    assertEquals(after.isError, undefined, textOf(after));
    assertIncludes(textOf(after), "fine");
  } finally {
    await mcp.close();
    await server.shutdown();
  }
});
