/**
 * Per-session artifacts over MCP: text and binary round trips, listing,
 * overwrite, names refused, sessions kept apart, and wiped on close_session.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, type ToolResult } from "./_mcp.ts";

const textOf = (r: ToolResult) => r.content.map((c) => c.text ?? "").join("\n");
type R = Record<string, unknown>;

Deno.test("artifacts: save, get, list, per session, wiped on close", async () => {
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,sessions,storage" } });
  try {
    const text = "line one\nline two — ünïcode";
    const s = await mcp.ok("artifact_save", { name: "notes.txt", content: text });
    assertEquals(s.size, new TextEncoder().encode(text).length);
    // Artifacts of a stdio server live in its own instance folder.
    assertTrue(
      /\/\.artifacts\/i\d+-[0-9a-f]{8}\/default\/notes\.txt$/.test(String(s.path)),
      String(s.path),
    );
    const g = await mcp.ok("artifact_get", { name: "notes.txt" });
    assertEquals(g.content, text);
    // Binary, every byte value, through base64 both ways.
    const bytes = new Uint8Array(256).map((_, i) => i);
    const b64 = btoa(String.fromCharCode(...bytes));
    await mcp.ok("artifact_save", { name: "all.bin", content: b64, encoding: "base64" });
    const back = await mcp.ok("artifact_get", { name: "all.bin", encoding: "base64" });
    assertEquals([back.content, back.size], [b64, 256]);
    await mcp.ok("artifact_save", { name: "notes.txt", content: "replaced" });
    const list = await mcp.ok("artifact_list");
    assertEquals((list.artifacts as R[]).map((a) => [a.name, a.size]), [["all.bin", 256], [
      "notes.txt",
      8,
    ]]);
    // Another session has its own.
    await mcp.ok("open_session", { session: "other" });
    assertEquals((await mcp.ok("artifact_list", { session: "other" })).count, 0);
    const x = await mcp.ok("artifact_save", { name: "x", content: "1", session: "other" });
    const dir = String(x.path).replace(/\/x$/, "");
    assertTrue(dir.endsWith("/other"), dir);
    assertTrue((await Deno.stat(dir)).isDirectory);
    await mcp.ok("close_session", { session: "other" });
    const gone = await Deno.stat(dir).then(() => false, () => true);
    assertTrue(gone, "close_session wipes the session's artifacts");
    // Bad names and unknown artifacts say what to do.
    for (const name of ["../escape", ".hidden", "a/b", "a..b", ""]) {
      const r = await mcp.call("artifact_save", { name, content: "x" });
      assertEquals((r.structuredContent!.error as R).code, "invalid-argument", name);
    }
    const missing = await mcp.call("artifact_get", { name: "nope.txt" });
    assertIncludes(textOf(missing), "all.bin");
    const notB64 = await mcp.call("artifact_save", {
      name: "y",
      content: "%%%",
      encoding: "base64",
    });
    assertIncludes(textOf(notB64), "not base64");
  } finally {
    await mcp.close();
  }
});

Deno.test("artifacts: no ghost artifacts for sessions never opened; close_session wipes a session's artifacts even when not running", async () => {
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,sessions,storage" } });
  try {
    const artifactsDir = async () => {
      const out: string[] = [];
      const walk = async (dir: string) => {
        for await (const e of Deno.readDir(dir)) {
          if (e.isDirectory) await walk(`${dir}/${e.name}`);
          else out.push(`${dir}/${e.name}`);
        }
      };
      await walk(`${mcp.workspace}/.artifacts`).catch(() => {});
      return out;
    };
    // The attack: saves under names no session was ever opened with.
    for (let i = 0; i < 4; i++) {
      const r = await mcp.call("artifact_save", {
        session: `g${i}`,
        name: "a",
        content: "x".repeat(1024 * 1024),
      });
      assertTrue(r.isError === true, textOf(r));
      assertEquals((r.structuredContent?.error as R).code, "unknown-session");
      assertIncludes(textOf(r), `open_session({ session: "g${i}" }) first`);
    }
    assertEquals(await artifactsDir(), []);
    // The default session needs no open (it starts on first use); close wipes its artifacts
    // although it never ran.
    await mcp.ok("artifact_save", { name: "d", content: "1" });
    assertEquals((await artifactsDir()).length, 1);
    const closed = await mcp.ok("close_session", { session: "default" });
    assertEquals(closed.wasRunning, false);
    assertEquals(await artifactsDir(), []);
  } finally {
    await mcp.close();
  }
});
