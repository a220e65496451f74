/**
 * A click on a control under a cover the cover's description would hide: the card's own
 * stretched link (Bootstrap's `::after`, or an empty link laid over the card) and a
 * transparent layer that takes the pointer. The covered error says what the cover is, names
 * the link's ref when it has one, and the way out (the link's ref, or press on the control's
 * ref, which reaches it by focus); a control raised above the link is clicked as usual.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { refOf } from "./_util.ts";
import { act } from "./_results.ts";

type R = Record<string, unknown>;

Deno.test("covered by a stretched link or a transparent layer: said plainly", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const status = async () =>
    (await mcp.ok("eval_js", { expression: "document.getElementById('status').textContent" }))
      .value;
  /** The covered error of a click, its details at the top of the structured content. */
  const covered = async (args: R) => {
    const r = await mcp.call("click", { timeoutMs: 5000, ...args });
    assertEquals(r.isError, true, textOf(r));
    const s = r.structuredContent!;
    const error = s.error as R;
    assertEquals(error.code, "covered", textOf(r));
    return { message: String(error.message), hint: String(error.hint), details: s };
  };
  try {
    await mcp.ok("navigate", { url: fx.url("stretched.html"), snapshot: "none" });

    await t.step("by selector: the kind, and the link's ref (a carried ref works)", async () => {
      const e = await covered({ selector: "#fav" });
      assertIncludes(e.message, "stretched link");
      assertIncludes(e.message, "::after");
      assertIncludes(e.message, "div#widget.card");
      assertIncludes(e.hint, "press Enter");
      assertEquals(e.details.cover, "stretched-link");
      const ref = String(e.details.coverRef);
      assertIncludes(e.hint, `click ${ref}`);
      assertEquals(await status(), "Nothing clicked");
      // The ref the error carried is usable as it is (no snapshot taken meanwhile).
      const followed = await act(mcp, "click", { ref });
      assertIncludes(followed.navigation.to, "#widget-page");
      await mcp.ok("navigate", { url: fx.url("stretched.html"), snapshot: "none" });
    });

    const tree = String((await mcp.ok("snapshot")).tree);
    const link = refOf(tree, /\[View Widget Pro\]/);
    const fav = refOf(tree, /button "Add to favourites"/);

    await t.step("by ref: the stretched link's ref is named, and works", async () => {
      const e = await covered({ ref: fav });
      assertIncludes(e.message, `[ref=${link}]`);
      assertIncludes(e.hint, `click ${link}`);
      assertEquals(e.details.coverRef, link);
      assertEquals(await status(), "Nothing clicked");
      // The way out the hint gives: press on the control's ref reaches it by focus.
      await act(mcp, "press", { ref: fav, key: "Enter" });
      assertEquals(await status(), "Add to favourites clicked");
      const followed = await act(mcp, "click", { ref: link });
      assertIncludes(followed.navigation.to, "#widget-page");
    });

    await t.step("a control raised above the stretched link: clicked as usual", async () => {
      await act(mcp, "click", { ref: refOf(tree, /button "Compare"/) });
      assertEquals(await status(), "Compare clicked");
    });

    await t.step("an empty link laid over its card: the link's box, named", async () => {
      const cover = refOf(tree, /\[Open Gadget\]/);
      const e = await covered({ ref: refOf(tree, /button "Buy gadget"/) });
      assertIncludes(e.message, "stretched link");
      assertIncludes(e.message, "the link's box spans the card");
      assertEquals(e.details.coverRef, cover);
      assertEquals(e.details.cover, "stretched-link");
    });

    await t.step("a transparent layer: said to show nothing, no stretched link", async () => {
      const e = await covered({ ref: refOf(tree, /button "Save settings"/) });
      assertIncludes(e.message, "transparent layer");
      assertIncludes(e.message, "div.shim");
      assertTrue(!e.message.includes("stretched"), e.message);
      assertIncludes(e.hint, "press Enter");
      assertEquals(e.details.cover, "transparent-layer");
      assertEquals(await status(), "Compare clicked");
    });

    await t.step(
      "a button laid over the element on hover is no stretched link to click",
      async () => {
        const e = await covered({ selector: "#keep" });
        assertTrue(!e.message.includes("stretched"), e.message);
        assertIncludes(e.message, "Delete account");
        assertTrue(!/click e\d+/.test(e.hint), e.hint);
        assertTrue(!String(await status()).includes("Delete"), String(await status()));
      },
    );

    await t.step("a visible overlay (a modal backdrop): the plain covered error", async () => {
      await mcp.ok("navigate", { url: fx.url("covered.html"), snapshot: "none" });
      const e = await covered({ selector: "#covered" });
      assertIncludes(e.message, "modal-backdrop");
      assertEquals(e.details.cover, undefined);
      assertIncludes(e.hint, "close or dismiss");
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
