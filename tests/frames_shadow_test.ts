/**
 * Frames, clips and closed shadow roots end to end (issue 13): a selector
 * with no match in the main frame acts on its match inside an iframe
 * (same-origin and out-of-process) and says which; a button in a scroll
 * container's scrolled-away part is clicked after the container scrolls; a
 * button an ancestor clips for good fails `not-actionable` "clipped by", not
 * "covered by"; the content of closed shadow roots shows in the snapshot and
 * its refs act.
 */
import { assertEquals, assertIncludes, assertNotIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { refOf } from "./_util.ts";

type R = Record<string, unknown>;

Deno.test("clipped elements: scroll containers are scrolled, lasting clips say so", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const value = async (expression: string) => (await mcp.ok("eval_js", { expression })).value;
  const status = "document.getElementById('status').textContent";
  try {
    await mcp.ok("navigate", { url: fx.url("clipped.html"), snapshot: "none" });

    await t.step(
      "a button in a scroll container's hidden part: the container scrolls",
      async () => {
        assertEquals(await value("document.getElementById('scroller').scrollTop"), 0);
        const tree = String((await mcp.ok("snapshot")).tree);
        const r = await mcp.call("click", { ref: refOf(tree, 'button "Far button"') });
        assertTrue(!r.isError, textOf(r));
        assertEquals(await value(status), "far clicked");
        assertTrue(
          Number(await value("document.getElementById('scroller').scrollTop")) > 0,
          "the container scrolled",
        );
      },
    );

    await t.step(
      "pushed out of an overflow:hidden box: clipped by it, nothing pressed",
      async () => {
        const r = await mcp.call("click", { selector: "#clipped", timeoutMs: 5000 });
        assertEquals(r.isError, true);
        const error = r.structuredContent!.error as R;
        assertEquals(error.code, "not-actionable");
        assertIncludes(String(error.message), "clipped by div#clipbox");
        assertIncludes(String(error.message), "overflow: hidden");
        assertNotIncludes(textOf(r), "covered by");
        assertIncludes(String(r.structuredContent!.clippedBy), "div#clipbox");
        assertEquals(await value(status), "far clicked");
      },
    );

    await t.step("hidden by a clip-path: clipped, naming the clip-path", async () => {
      const r = await mcp.call("click", { selector: "#pathed", timeoutMs: 5000 });
      assertEquals(r.isError, true);
      const error = r.structuredContent!.error as R;
      assertEquals(error.code, "not-actionable");
      assertIncludes(String(error.message), "clip-path");
      assertEquals(await value(status), "far clicked");
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
