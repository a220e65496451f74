/**
 * Issue 13: a hover on an element far below the fold scrolls it into view, then moves the
 * pointer there; the page's reaction to that pointer position (a `:hover` style, a
 * `mouseenter` handler) is in the hover's delta.
 *
 * The targets are 3000 px apart and each hover centers its target, so from the second
 * hover on the scroll itself brings the new target under the pointer resting where the
 * last hover left it: Chromium hovers it on the scroll, before the pointer moves. The delta
 * must still show that change (it did not while the "before" snapshot was taken after the
 * scroll).
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio } from "./_mcp.ts";

type R = Record<string, unknown>;

Deno.test("hover far down the page: the delta shows what the hover changed", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio();
  const cases: [string, string, string][] = [
    ["a :hover style", "#css-far", "tip shown by hover"],
    ["a :hover transition", "#fade-far", "faded in by hover"],
    ["a mouseenter handler", "#js-far", "entered by pointer"],
    ["a mouseover handler's next frames", "#raf-far", "raf entered"],
    ["a :hover style in a scrolled box", "#in-box", "boxed tip shown"],
  ];
  try {
    await mcp.ok("navigate", { url: fx.url("hover-far.html") });
    for (const [what, selector, text] of cases) {
      await t.step(`${what}, after the action's own scroll`, async () => {
        const r = await mcp.ok("hover", { selector });
        const delta = r.snapshotDelta as R;
        assertEquals(delta.mode, "delta");
        assertIncludes(String(delta.tree), text);
      });
    }
  } finally {
    await mcp.close();
    await fx.close();
  }
});
