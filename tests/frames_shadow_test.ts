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
import { textOf } from "./_mcp.ts";
import { sharedSiteCases } from "./_shared_cases.ts";
import { eventually, refOf } from "./_util.ts";

type R = Record<string, unknown>;

// One server and fixture site for every case; each case ends with its sessions closed.
const cases = sharedSiteCases("frames, clips and closed shadow roots, one server", {
  env: { BROWX_CAPABILITIES: "read,navigation,action,eval" },
});

cases.test(
  "selectors search child frames when the main frame has no match",
  async ({ fx, mcp }, t) => {
    const value = async (expression: string) => (await mcp.ok("eval_js", { expression })).value;
    await t.step("same-origin iframe: CSS and text= find the button and click it", async () => {
      await mcp.ok("navigate", { url: fx.url("iframes.html"), snapshot: "none" });
      const innerStatus =
        "document.getElementById('same').contentDocument.getElementById('inner-status').textContent";
      await eventually(async () => await value(innerStatus) === "Not clicked");
      const tree = String((await mcp.ok("snapshot")).tree);
      const frameRef = refOf(tree, 'iframe "Same origin frame"');
      const r = await mcp.call("click", { selector: "#inner-button" });
      assertTrue(!r.isError, textOf(r));
      const result = r.structuredContent!;
      assertEquals(result.ok, true);
      const action = result.action as R;
      assertEquals((action.frame as R).ref, frameRef);
      assertIncludes(String((action.frame as R).url), "/frame-child.html");
      assertIncludes(textOf(r), `inside the iframe [ref=${frameRef}]`);
      assertEquals(await value(innerStatus), "Inner clicked");

      await value(
        "document.getElementById('same').contentDocument.getElementById('inner-status')" +
          ".textContent = 'Not clicked'",
      );
      const t2 = await mcp.ok("click", { selector: "text=Inner button" });
      assertEquals(t2.ok, true);
      assertIncludes(String(((t2.action as R).frame as R).url), "/frame-child.html");
      assertEquals(await value(innerStatus), "Inner clicked");
    });

    await t.step(
      "out-of-process iframe, after a frame without a match: found and clicked",
      async () => {
        const deep = fx.crossUrl("/frame-deep.html");
        await mcp.ok("navigate", {
          url: fx.url(`frames-only.html?deep=${encodeURIComponent(deep)}`),
          snapshot: "none",
        });
        const tree = await eventually(async () => {
          const t = String((await mcp.ok("snapshot")).tree);
          return t.includes("Deep waiting") && t;
        });
        assertIncludes(tree, 'iframe "Deep frame"');
        const r = await mcp.ok("click", { selector: "#deep-button" });
        assertEquals(r.ok, true);
        assertEquals(((r.action as R).frame as R).url, deep);
        assertIncludes(String((await mcp.ok("snapshot")).tree), "Deep clicked 1");
        const t2 = await mcp.ok("click", { selector: "text=Deep button" });
        assertEquals(t2.ok, true);
        assertEquals(((t2.action as R).frame as R).url, deep);
        assertIncludes(String((await mcp.ok("snapshot")).tree), "Deep clicked 2");
      },
    );

    await t.step("a selector matching nowhere still fails not-found", async () => {
      const r = await mcp.call("click", { selector: "#nowhere", timeoutMs: 3000 });
      assertEquals(r.isError, true);
      assertEquals((r.structuredContent!.error as R).code, "not-found");
    });
  },
);

cases.test(
  "clipped elements: scroll containers are scrolled, lasting clips say so",
  async ({ fx, mcp }, t) => {
    const value = async (expression: string) => (await mcp.ok("eval_js", { expression })).value;
    const status = "document.getElementById('status').textContent";
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
  },
);

cases.test("closed shadow roots: their content shows in the snapshot and refs act", async ({ fx, mcp }) => {
  await mcp.ok("navigate", { url: fx.url("shadow-closed.html"), snapshot: "none" });
  // The page itself cannot see in: the root is closed.
  assertEquals(
    (await mcp.ok("eval_js", { expression: "document.querySelector('x-vault').shadowRoot" }))
      .value,
    null,
  );
  const tree = String((await mcp.ok("snapshot")).tree);
  assertIncludes(tree, "Text inside the closed root");
  assertIncludes(tree, "Nested closed text");
  assertIncludes(tree, "Light text of a plain custom element");
  const r = await mcp.call("click", { ref: refOf(tree, 'button "Vault button"') });
  assertTrue(!r.isError, textOf(r));
  // The click reached the button inside the closed root (its event path names only the host).
  assertTrue(!textOf(r).includes("landed on"), textOf(r));
  assertEquals(
    (await mcp.ok("eval_js", { expression: "document.getElementById('status').textContent" }))
      .value,
    "Vault opened",
  );
  // Selectors read it too once the snapshot found it.
  const t2 = await mcp.ok("click", { selector: "text=Vault button" });
  assertEquals(t2.ok, true);
});

cases.test("closed roots a script attached to an undefined custom element or a div: listed, and act", async ({ fx, mcp }) => {
  await mcp.ok("navigate", { url: fx.url("shadow-closed-attached.html"), snapshot: "none" });
  const value = async (expression: string) => (await mcp.ok("eval_js", { expression })).value;
  assertEquals(await value("document.getElementById('search').shadowRoot"), null);
  const tree = String((await mcp.ok("snapshot")).tree);
  assertIncludes(tree, "Light card text");
  // A person sees a Query box: the snapshot lists it with a ref, and the ref fills it.
  await mcp.ok("fill", { ref: refOf(tree, 'textbox "Query"'), value: "kittens" });
  assertEquals(await value("document.getElementById('echo').textContent"), "kittens");
  await mcp.ok("click", { ref: refOf(tree, 'button "Box button"') });
  assertEquals(await value("document.getElementById('status').textContent"), "Box opened");
});
