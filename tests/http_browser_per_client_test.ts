/**
 * Over --http each MCP client gets a Chromium of its own (BROWX_HTTP_BROWSERS=per-client, the
 * default): when one client's browser dies, only that client's sessions hear
 * `browser-crashed` (once, with what to do); the other client's session and page live on.
 *
 * The crash is played by SIGKILL of that client's browser process: the dialog pages that
 * crashed Chromium 156 through browxai's own steps no longer do (dialog_crash_test.ts), and
 * what is left (a page reloading itself over a dialog Chromium lost) does not crash on every
 * run.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startHttp, textOf, type ToolResult } from "./_mcp.ts";
import { chromiumsUnder } from "./_procs.ts";
import { alive, cmdline, eventually } from "./_util.ts";

const code = (r: ToolResult) => (r.structuredContent?.error as { code?: string } | undefined)?.code;
/** The browser processes (not their renderers and helpers) under the server. */
const browsers = (pid: number) =>
  chromiumsUnder(pid).filter((p) => !cmdline(p).includes("--type="));

Deno.test("http: a browser per client; one client's browser crash leaves the other's session and page", async () => {
  const fx = await startFixtureServer();
  const server = await startHttp();
  try {
    const a = await server.connect();
    const b = await server.connect();
    await a.ok("navigate", { url: fx.url("form.html?client=a"), snapshot: "none" });
    await a.ok("fill", { selector: "input", value: "kept by a" });
    const aBrowsers = browsers(server.child.pid);
    assertEquals(aBrowsers.length, 1, "a's first session launches one browser");
    await b.ok("navigate", { url: fx.url("basic.html?client=b"), snapshot: "none" });
    const bBrowser = await eventually(
      () => browsers(server.child.pid).find((p) => !aBrowsers.includes(p)),
      10_000,
      "b's own browser",
    );

    Deno.kill(bBrowser, "SIGKILL");
    await eventually(() => !alive(bBrowser), 5000, "b's browser to die");
    const told = await b.call("snapshot");
    assertEquals(code(told), "browser-crashed", textOf(told));
    assertIncludes(textOf(told), "call the tool again");
    // Told once: the next call starts a fresh browser of b's own.
    const again = await b.call("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    assertEquals(again.isError, undefined, textOf(again));

    // a never noticed: same browser, same page, the typed value still there.
    assertTrue(alive(aBrowsers[0]!), "a's browser died with b's");
    const page = await a.call("snapshot");
    assertEquals(page.isError, undefined, textOf(page));
    assertIncludes(textOf(page), "kept by a");

    // b going away closes its browser; a's runs on.
    const bNow = browsers(server.child.pid).filter((p) => p !== aBrowsers[0]);
    await b.close();
    await eventually(() => bNow.every((p) => !alive(p)), 10_000, "b's browser to close with b");
    assertTrue(alive(aBrowsers[0]!), "a's browser closed with b");
  } finally {
    await server.close();
    await fx.close();
  }
});

Deno.test("http: BROWX_HTTP_BROWSERS=shared puts every client in one Chromium", async () => {
  const fx = await startFixtureServer();
  const server = await startHttp({ env: { BROWX_HTTP_BROWSERS: "shared" } });
  try {
    const a = await server.connect();
    const b = await server.connect();
    await a.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    await b.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    assertEquals(browsers(server.child.pid).length, 1);
  } finally {
    await server.close();
    await fx.close();
  }
});
