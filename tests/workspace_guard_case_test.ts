/**
 * The red team's case attack on the path guard (session 16), over MCP stdio against real
 * Chromium: reserved names were compared byte for byte, so on a case-insensitive file system
 * (macOS, Windows) `screenshot({ path: "AUDIT/<today>.jsonl" })` would rename a PNG over the
 * audit log, `AUDIT/<tomorrow>.jsonl/x.png` would make tomorrow's log a folder (every audit
 * write then fails, silently), and `upload_file(["SECRETS.ENV"])` would give every secret to a
 * page. This machine's file system tells case apart, so the test shows the guard refusing each
 * such name (the part that decides), and that nothing was written.
 */
import { join } from "node:path";
import { assertEquals, assertTrue } from "./_assert.ts";
import { startStdio, textOf, type ToolResult } from "./_mcp.ts";

type R = Record<string, unknown>;

/** Asserts `r` is the path guard's refusal of a reserved name. */
function assertReserved(r: ToolResult, what: string): void {
  assertEquals(r.isError, true, `${what}: ${textOf(r)}`);
  assertEquals(String((r.structuredContent?.error as R).code), "refused", `${what}: ${textOf(r)}`);
  assertTrue(/browxai keeps|refused/i.test(textOf(r)), `${what}: ${textOf(r)}`);
}

Deno.test("path guard: reserved names in other case, NFD, with trailing dots or a stream are refused", async () => {
  const ws = await Deno.makeTempDir({ prefix: "browxai-rt-case-" });
  const secrets = join(ws, "secrets.env");
  await Deno.writeTextFile(secrets, "PW=Hunter2SecretXyz\n", { mode: 0o600 });
  const page = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () =>
      new Response("<title>up</title><input type=file id=f>", {
        headers: { "content-type": "text/html" },
      }),
  );
  const mcp = await startStdio({
    workspace: ws,
    env: {
      BROWX_TOOLSETS: "all",
      BROWX_SECRETS: secrets,
      BROWX_CAPABILITIES: "read,navigation,action,file-io,secrets",
    },
  });
  const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
  try {
    await mcp.ok("navigate", { url: `http://127.0.0.1:${page.addr.port}/`, snapshot: "none" });
    const before = (await Array.fromAsync(Deno.readDir(ws))).map((e) => e.name).sort();
    for (
      const path of [
        `AUDIT/${day(0)}.jsonl`,
        `Audit/${day(1)}.jsonl/x.png`,
        `audit./${day(0)}.jsonl`,
        "HTTP-TOKEN",
        "http-token::$DATA",
        "Profiles/p/Default/Cookies.png",
        ".Downloads/.Incoming/x.png",
      ]
    ) {
      assertReserved(await mcp.call("screenshot", { path }), `screenshot ${path}`);
    }
    for (
      const path of [
        "SECRETS.ENV",
        "secrets.env. ",
        "Secrets.Env".normalize("NFD"),
        ".Auth-States/bank.json",
        `AUDIT/${day(0)}.jsonl`,
      ]
    ) {
      assertReserved(
        await mcp.call("upload_file", { selector: "#f", paths: [path] }),
        `upload ${path}`,
      );
    }
    assertReserved(
      await mcp.call("inject_storage_state", { state: ".Auth-States/bank.json" }),
      "inject .Auth-States",
    );
    assertReserved(
      await mcp.call("dump_storage_state", { path: ".AUTH-STATES/bank.json" }),
      "dump .AUTH-STATES",
    );
    assertReserved(
      await mcp.call("dump_storage_state", { path: "SECRETS.ENV" }),
      "dump over SECRETS.ENV",
    );
    // Nothing was made: no AUDIT folder, no HTTP-TOKEN, no SECRETS.ENV beside the real ones.
    assertEquals((await Array.fromAsync(Deno.readDir(ws))).map((e) => e.name).sort(), before);
    // A name that only looks alike is an ordinary file.
    const own = await mcp.ok("screenshot", { path: "auditor.png" });
    assertTrue(String(own.path ?? own.savedTo ?? JSON.stringify(own)).includes("auditor.png"));
    assertEquals(await Deno.readTextFile(secrets), "PW=Hunter2SecretXyz\n");
  } finally {
    await mcp.close();
    await page.shutdown();
    await Deno.remove(ws, { recursive: true });
  }
});
