/**
 * A session that has not shown a page yet (each MCP session starts on a blank tab of its own; a
 * client that connects once per call, the Inspector's CLI, starts every call there): `snapshot`
 * and `find` say the tab is blank and to navigate; a ref used before any page was shown says
 * the session has not shown one yet. Once a page is shown, neither is said.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";

type R = Record<string, unknown>;

Deno.test("blank tab: snapshot, find and a ref say to navigate first (MCP)", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core" } });
  const errorOf = (r: { structuredContent?: R }) => r.structuredContent?.error as R;
  try {
    await t.step("before any navigate", async () => {
      const snap = await mcp.ok("snapshot");
      assertIncludes(String((snap.warnings as string[])?.[0]), "the tab is blank (about:blank)");
      assertIncludes(String((snap.warnings as string[])[0]), "navigate first");
      const found = await mcp.ok("find", { query: "Submit button" });
      assertEquals(found.candidates, []);
      assertIncludes(String((found.warnings as string[])[0]), "the tab is blank");
      for (const [tool, args] of [["click", { ref: "e4" }], ["snapshot", { ref: "e4" }]] as const) {
        const r = await mcp.call(tool, args);
        assertEquals(r.isError, true, `${tool}: ${textOf(r)}`);
        assertEquals(errorOf(r).code, "ref-gone");
        assertIncludes(String(errorOf(r).message), "this session has not shown any page yet");
        assertIncludes(String(errorOf(r).message), "(its tab is blank)");
        assertIncludes(String(errorOf(r).hint), "call navigate");
      }
    });

    await t.step("after a page was shown: the usual answers", async () => {
      await mcp.ok("navigate", { url: fx.url("form.html") });
      const snap = await mcp.ok("snapshot");
      assertEquals(snap.warnings, undefined);
      assertTrue(String(snap.tree).includes("[ref=e"), "the page's refs");
      const r = await mcp.call("click", { ref: "e99999" });
      assertEquals(errorOf(r).code, "ref-gone");
      assertIncludes(String(errorOf(r).message), "was never issued in this session");
      assertTrue(!textOf(r).includes("not shown any page"), textOf(r));
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
