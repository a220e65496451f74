/**
 * How a call hears that its session went away under it: a persistent
 * session's browser killed (browser-crashed, like the shared browser), and a
 * session closed while eval_js waits in it (unknown-session).
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio, textOf, type ToolResult } from "./_mcp.ts";
import { processesMentioning } from "./_procs.ts";
import { cmdline, eventually } from "./_util.ts";

const code = (r: ToolResult) => (r.structuredContent?.error as { code?: string } | undefined)?.code;

Deno.test("session gone: a persistent session's killed browser is browser-crashed, not a client close", async () => {
  const mcp = await startStdio();
  try {
    const opened = await mcp.ok("open_session", { session: "p", mode: "persistent" });
    const profile = String(opened.profileDir);
    // Its main process (the one on the debugging pipe, not a helper): as a crash or the OOM
    // killer would end it.
    const main = processesMentioning(`--user-data-dir=${profile}`)
      .filter((pid) =>
        /--remote-debugging-pipe/.test(cmdline(pid)) && !/--type=/.test(cmdline(pid))
      );
    assertEquals(main.length, 1, "the persistent browser runs");
    Deno.kill(main[0]!, "SIGKILL");
    await eventually(() => processesMentioning(`--user-data-dir=${profile}`).length === 0);
    const r = await mcp.call("snapshot", { session: "p" });
    assertEquals(code(r), "browser-crashed", textOf(r));
    assertTrue(!/closed by client/i.test(textOf(r)), textOf(r));
    assertTrue(/killed|exited|pipe closed/.test(textOf(r)), textOf(r));
  } finally {
    await mcp.close();
  }
});

Deno.test("session gone: eval_js in a session closed mid-call says unknown-session", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  try {
    await mcp.ok("open_session", { session: "r", url: fx.url("basic.html") });
    const evaluating = mcp.call("eval_js", {
      session: "r",
      expression: "window.__started = true, new Promise(r => setTimeout(r, 20000))",
      timeoutMs: 25000,
    });
    // Close once the evaluation runs in the page.
    await eventually(
      async () => {
        const probe = await mcp.call("eval_js", { session: "r", expression: "window.__started" });
        return textOf(probe).includes("true");
      },
      10_000,
      "the evaluation to start",
    );
    await mcp.ok("close_session", { session: "r" });
    const r = await evaluating;
    assertEquals(code(r), "unknown-session", textOf(r));
  } finally {
    await mcp.close();
    await fx.close();
  }
});
