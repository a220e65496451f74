/**
 * Numbers and booleans sent as strings, as CLI clients send every `key=value` (the MCP
 * Inspector's `--tool-arg width=1024`), over a real stdio pipe: taken where the schema says
 * number or boolean when the whole string is one (`"1024"`, `"true"`), and an error naming the
 * field and what was sent otherwise (`"12abc"`), with nothing done.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio, textOf } from "./_mcp.ts";

Deno.test('string numbers: width "1024" and maxTokens "500" are numbers; "12abc" is refused', async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,emulation" } });
  try {
    await mcp.ok("navigate", { url: fx.url("read-page.html"), snapshot: "none" });
    await t.step("set_viewport with string numbers and a string boolean", async () => {
      const r = await mcp.ok("set_viewport", { width: "1024", height: "700", mobile: "false" });
      const applied = r.applied as { viewport: { width: number; height: number } };
      assertEquals(applied.viewport.width, 1024);
      assertEquals(applied.viewport.height, 700);
      // The page sees it: the viewport after the resize.
      assertEquals((r.geometry as { innerWidth: number }).innerWidth, 1024);
    });
    await t.step('snapshot maxTokens "500" pages as 500 does', async () => {
      const asString = await mcp.ok("snapshot", { maxTokens: "500" });
      const asNumber = await mcp.ok("snapshot", { maxTokens: 500 });
      assertEquals(asString.tree, asNumber.tree);
      assertEquals(asString.truncated, asNumber.truncated);
    });
    await t.step('"12abc" is an invalid-argument error naming field and value', async () => {
      const r = await mcp.call("set_viewport", { width: "12abc" });
      assertEquals(r.isError, true);
      const error = r.structuredContent!.error as { code: string; message: string };
      assertEquals(error.code, "invalid-argument");
      assertIncludes(error.message, '"width": expected a number, got the string "12abc"');
      assertIncludes(textOf(r), "set_viewport");
      const s = await mcp.call("snapshot", { maxTokens: "5e2x" });
      assertEquals(s.isError, true);
      assertIncludes(textOf(s), '"maxTokens": expected a number');
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
