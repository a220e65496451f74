/**
 * The pointer sequence end to end (browser/actions/pointer.ts): a click on an
 * element under a cover that goes away by itself lands once it is gone, a
 * cover raised by the pointer's own arrival is waited out, and a cover that
 * stays fails `covered` naming it, with nothing pressed.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio, textOf } from "./_mcp.ts";

type R = Record<string, unknown>;

Deno.test("pointer actions wait out covers that go, and name the ones that stay", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const value = async (expression: string) => (await mcp.ok("eval_js", { expression })).value;
  try {
    await mcp.ok("navigate", { url: fx.url("covered-later.html"), snapshot: "none" });

    await t.step(
      "a cover removed by the page a moment later: the click lands after it",
      async () => {
        assertEquals(await value("armVeil(600)"), true);
        const r = await mcp.ok("click", { selector: "#target" });
        assertEquals(r.ok, true);
        assertEquals(
          await value("document.getElementById('status').textContent"),
          "target clicked",
        );
        assertEquals(await value("document.getElementById('veil')"), null);
        assertEquals(await value("coverClicks"), 0);
      },
    );

    await t.step("a cover the pointer's arrival raises (hover effect) is waited out", async () => {
      const r = await mcp.ok("click", { selector: "#hovered" });
      assertEquals(r.ok, true);
      assertEquals(await value("document.getElementById('status').textContent"), "hovered clicked");
      assertEquals(await value("coverClicks"), 0);
    });

    await t.step("a cover that stays: covered, naming it, and nothing pressed", async () => {
      const status = await value("document.getElementById('status').textContent");
      const r = await mcp.call("click", { selector: "#stuck" });
      assertEquals(r.isError, true);
      const error = r.structuredContent!.error as R;
      assertEquals(error.code, "covered");
      assertIncludes(String(r.structuredContent!.coveredBy), "div#slab.veil");
      assertIncludes(textOf(r), "div#slab.veil");
      assertEquals(await value("document.getElementById('status').textContent"), status);
      assertEquals(await value("coverClicks"), 0);
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
