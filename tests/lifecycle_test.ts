/**
 * Process lifecycle: Chromium starts lazily, dies with the server (stdin
 * close, SIGTERM, SIGINT), and a crashed browser is reported then replaced.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { ROOT, startStdio, textOf } from "./_mcp.ts";
import { join } from "./_paths.ts";
import { alive, cmdline, descendants, eventually } from "./_util.ts";

function chromiumsUnder(pid: number): number[] {
  return descendants(pid).filter((p) =>
    /chrom/i.test(cmdline(p)) && cmdline(p).includes("--remote-debugging-pipe")
  );
}

Deno.test("lifecycle: no Chromium before the first call, none left after stdin closes", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio();
  try {
    const pid = mcp.pid!;
    assertTrue(pid > 0);
    await mcp.client.listTools();
    assertEquals(chromiumsUnder(pid).length, 0, "Chromium must start lazily");
    await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    const browsers = chromiumsUnder(pid);
    assertTrue(browsers.length >= 1, "a browser runs");
    const all = descendants(pid);
    await mcp.close(); // closes stdin
    await eventually(() => all.every((p) => !alive(p)), 10_000, "every child process to exit");
  } finally {
    await mcp.close();
    await fx.close();
  }
});

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  Deno.test(`lifecycle: ${signal} closes Chromium`, async () => {
    const fx = await startFixtureServer();
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", join(ROOT, "main.ts")],
      env: { BROWX_WORKSPACE: await Deno.makeTempDir() },
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const writer = child.stdin.getWriter();
    const enc = new TextEncoder();
    const send = (m: unknown) => writer.write(enc.encode(JSON.stringify(m) + "\n"));
    await send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "t", version: "0" },
      },
    });
    await send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "navigate", arguments: { url: fx.url("basic.html"), snapshot: "none" } },
    });
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let out = "";
    while (!out.includes('"id":2')) {
      const { value, done } = await reader.read();
      if (done) break;
      out += value;
    }
    const all = descendants(child.pid);
    assertTrue(chromiumsUnder(child.pid).length >= 1, out);
    child.kill(signal);
    const status = await child.status;
    assertTrue(!status.success || status.code === 0);
    await eventually(() => all.every((p) => !alive(p)), 10_000, "Chromium to exit");
    await reader.cancel().catch(() => {});
    await writer.close().catch(() => {});
    await fx.close();
  });
}

Deno.test("lifecycle: a crashed browser is reported, then the default session relaunches it", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio();
  try {
    await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    const [browserPid] = chromiumsUnder(mcp.pid!).filter((p) => !cmdline(p).includes("--type="));
    assertTrue(browserPid !== undefined);
    Deno.kill(browserPid!, "SIGKILL");
    await eventually(() => !alive(browserPid!), 5000, "the browser to die");
    // The server learns of the crash asynchronously (its pipe closes); list_sessions shows
    // it without reporting it (it looks up no session).
    await eventually(
      async () =>
        ((await mcp.ok("list_sessions")).sessions as Array<{ crashed?: boolean }>)[0]?.crashed,
      10_000,
      "the server to see the crash",
    );
    const crashed = await mcp.call("snapshot");
    assertEquals(crashed.isError, true);
    assertIncludes(textOf(crashed), "Browser crashed");
    const again = await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    assertEquals(again.httpStatus, 200);
    const listed = await mcp.ok("list_sessions");
    assertEquals(listed.count, 1);
  } finally {
    await mcp.close();
    await fx.close();
  }
});
