/**
 * Actions and their ActionResult on hostile-ish pages: covered and hidden
 * elements, a re-rendering list (stale refs), iframes (same- and
 * cross-origin), shadow DOM, popups, dialogs, console errors, network writes,
 * scrolling.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { refOf } from "./_util.ts";
import { act, errorOf } from "./_results.ts";

type R = Record<string, unknown>;

Deno.test("actions and what they report", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const text = async (selector: string) =>
    (await mcp.ok("eval_js", {
      expression: `document.querySelector(${JSON.stringify(selector)})?.textContent`,
    })).value;
  try {
    await t.step(
      "a covered button fails fast naming the cover; after revealing it, the click lands",
      async () => {
        await mcp.ok("navigate", { url: fx.url("covered.html"), snapshot: "none" });
        const started = Date.now();
        const r = await mcp.call("click", { selector: "#covered" });
        assertEquals(r.isError, true);
        assertTrue(Date.now() - started < 6000, "fails fast");
        assertIncludes(textOf(r), "modal-backdrop");
        assertEquals(r.structuredContent!.coveredBy !== undefined, true);
        const hidden = await mcp.call("click", { selector: "#hidden" });
        assertEquals(hidden.isError, true);
        assertIncludes(textOf(hidden), "not visible");
        const missing = await mcp.call("click", { selector: "#does-not-exist" });
        assertEquals(missing.isError, true);
        assertIncludes(textOf(missing), "No element matches");
        await mcp.ok("click", { selector: "#reveal" });
        const ok = await mcp.ok("click", { selector: "#covered" });
        assertEquals(ok.ok, true);
        assertEquals(await text("#status"), "Covered clicked");
        // Enabled after 500 ms and inserted after 800 ms: actionability waits for both.
        await mcp.ok("click", { selector: "#later" });
        await mcp.ok("click", { selector: "text=Late button" });
      },
    );

    await t.step(
      "a re-rendered list: the old ref acts on its re-created element only, never another",
      async () => {
        await mcp.ok("navigate", { url: fx.url("rerender.html"), snapshot: "none" });
        const tree = String((await mcp.ok("snapshot")).tree);
        const del = refOf(tree, /Delete Alpha/);
        const shuffle = refOf(tree, /Shuffle/);
        await mcp.ok("click", { ref: shuffle });
        // Its node is gone, the one "Delete Alpha" in the Alpha row now is the same element.
        const again = await mcp.call("click", { ref: del });
        assertEquals(again.isError, undefined, textOf(again));
        assertIncludes(textOf(again), `${del}'s element was re-rendered by the page`);
        assertEquals(await text("#last"), "Deleted Alpha");
        // Alpha is gone: nothing matches the ref any more.
        const stale = await mcp.call("click", { ref: del });
        assertEquals(stale.isError, true);
        assertEquals(errorOf(stale).code, "ref-gone");
        assertIncludes(textOf(stale), "snapshot");
        assertEquals(await text("#last"), "Deleted Alpha");
        const fresh = String((await mcp.ok("snapshot")).tree);
        await mcp.ok("click", { ref: refOf(fresh, /Delete Beta/) });
        assertEquals(await text("#last"), "Deleted Beta");
        assertEquals((await mcp.call("click", { ref: "e99999" })).isError, true);
        assertEquals((await mcp.call("click", { ref: "bogus" })).isError, true);
      },
    );

    await t.step(
      "iframes: same-origin and cross-origin (OOPIF) content is in the snapshot and clickable",
      async () => {
        const url = fx.url(
          `iframes.html?cross=${encodeURIComponent(fx.crossUrl("frame-child.html"))}`,
        );
        await mcp.ok("navigate", { url, snapshot: "none" });
        const tree = String((await mcp.ok("snapshot")).tree);
        const inner = tree.split("\n").filter((l) => l.includes("Inner button"));
        assertEquals(inner.length, 2, tree);
        for (const line of inner) {
          const ref = /\[ref=(e\d+)\]/.exec(line)![1]!;
          const r = await act(mcp, "click", { ref });
          assertEquals(r.ok, true);
          assertEquals(r.element?.stillAttached, true);
        }
        const box = refOf(
          tree.split("\n").filter((l) => /textbox/.test(l)).slice(-1)[0]!,
          /textbox/,
        );
        const filled = await act(mcp, "fill", { ref: box, value: "cross-origin typing" });
        assertEquals(filled.element?.value, "cross-origin typing");
      },
    );

    await t.step(
      "shadow DOM: open and closed roots are in the snapshot and clickable",
      async () => {
        await mcp.ok("navigate", { url: fx.url("shadow.html"), snapshot: "none" });
        const tree = String((await mcp.ok("snapshot")).tree);
        assertIncludes(tree, "Nested link");
        // Closed roots are read through CDP (browser/snapshot/closed_hosts.ts).
        assertIncludes(tree, "Closed secret");
        const r = await mcp.ok("click", { ref: refOf(tree, /Shadow button/) });
        assertEquals(r.ok, true);
        const closed = await mcp.ok("click", { ref: refOf(tree, /Closed button/) });
        assertEquals(closed.ok, true);
        const sel = await mcp.ok("click", { selector: "text=Shadow button" });
        assertEquals(sel.ok, true);
      },
    );

    await t.step("a popup is followed and listed in structure.newTabs", async () => {
      await mcp.ok("navigate", { url: fx.url("popup.html"), snapshot: "none" });
      const r = await act(mcp, "click", { selector: "#popup-button" });
      const tabs = r.structure.newTabs;
      assertEquals(tabs.length, 1);
      assertIncludes(tabs[0]!.url, "popup=1");
      const listed = await mcp.ok("tabs", { action: "list" });
      assertEquals((listed.tabs as R[]).length, 2);
      assertEquals(listed.activeIndex, 1);
      await mcp.ok("tabs", { action: "close", index: 1 });
      const after = await mcp.ok("tabs", { action: "list" });
      assertEquals((after.tabs as R[]).length, 1);
      assertIncludes(String((after.tabs as R[])[0]!.url), "popup.html");
      const link = await act(mcp, "click", { selector: "#new-tab-link" });
      assertEquals(link.structure.newTabs.length, 1);
      // Close without an index: the active tab (the one the link opened).
      const closedActive = await mcp.ok("tabs", { action: "close" });
      assertEquals((closedActive.tabs as R[]).length, 1);
      assertIncludes(String((closedActive.tabs as R[])[0]!.url), "popup.html");
      await mcp.ok("tabs", { action: "switch", index: 0 });
      const bad = await mcp.call("tabs", { action: "switch", index: 9 });
      assertEquals(bad.isError, true);
      // Closes sent at once run one at a time: each closes a tab, or says there is none left.
      for (let i = 0; i < 3; i++) await mcp.ok("tabs", { action: "new" });
      const closes = await Promise.all(
        [0, 1, 2, 3].map(() => mcp.call("tabs", { action: "close", index: 1 })),
      );
      assertEquals(closes.map((c) => c.isError === true), [false, false, false, true]);
      assertEquals(((await mcp.ok("tabs", { action: "list" })).tabs as R[]).length, 1);
    });

    await t.step(
      "dialogs are answered and listed: alert accepted, confirm dismissed, prompt dismissed",
      async () => {
        await mcp.ok("navigate", { url: fx.url("dialogs.html"), snapshot: "none" });
        const a = await act(mcp, "click", { selector: "#alert" });
        assertEquals(a.dialogs?.[0], {
          kind: "alert",
          message: "Hello",
          handledAs: "accepted",
        });
        const c = await act(mcp, "click", { selector: "#confirm" });
        assertEquals(c.dialogs?.[0]?.handledAs, "dismissed");
        assertEquals(await text("#result"), "confirm: false");
        await mcp.ok("click", { selector: "#prompt" });
        assertEquals(await text("#result"), "prompt: null");
      },
    );

    await t.step(
      "console errors, page errors and network writes (keys only) are reported",
      async () => {
        await mcp.ok("navigate", { url: fx.url("console.html"), snapshot: "none" });
        const thrown = await act(mcp, "click", { selector: "#throw" });
        assertIncludes(String(thrown.pageErrors[0]), "boom");
        const posted = await act(mcp, "click", { selector: "#post" });
        const m = posted.network.mutations[0]!;
        assertEquals(m.method, "POST");
        assertEquals(m.status, 200);
        assertIncludes(m.urlPattern, "/api/echo");
        assertTrue(!JSON.stringify(posted.network).includes('"x"'), "no values");
        const failed = await act(mcp, "click", { selector: "#fetch-500" });
        assertEquals(failed.network.summary.failed, 1);
      },
    );

    await t.step("SPA and hash navigations are told apart", async () => {
      await mcp.ok("navigate", { url: fx.url("spa.html"), snapshot: "none" });
      const spa = await act(mcp, "click", { selector: "#go-page2" });
      assertEquals(spa.navigation.kind, "spa");
      assertIncludes(spa.navigation.to, "/spa/page2");
      await mcp.ok("go_back", { snapshot: "none" });
      const hash = await act(mcp, "click", { selector: "#hash-link" });
      assertEquals(hash.navigation.kind, "hash");
    });

    await t.step("scroll: window, into view, inside a container, and wheel", async () => {
      await mcp.ok("navigate", { url: fx.url("scroll.html"), snapshot: "none" });
      const down = await mcp.ok("scroll", { by: { y: 800 }, snapshot: "none" });
      assertEquals(((down.element as R).scroll as R).y, 800);
      // The page's feed appends rows when scrolled to its end: the geometry is read after
      // they came (the new height, no longer at the bottom), as the delta shows them.
      const bottom = await mcp.ok("scroll", { to: "bottom", snapshot: "none" });
      const atEnd = (bottom.element as R).scroll as R;
      assertEquals(atEnd.atBottom, false, JSON.stringify(atEnd));
      const before = ((down.element as R).scroll as R).scrollHeight as number;
      assertTrue((atEnd.scrollHeight as number) > before, JSON.stringify(atEnd));
      const panel = await mcp.ok("scroll", {
        selector: "#panel",
        by: { y: 500 },
        snapshot: "none",
      });
      assertEquals(((panel.element as R).scroll as R).y, 500);
      await mcp.ok("scroll", { to: "top", snapshot: "none" });
      const wheel = await mcp.ok("scroll", {
        coords: { x: 200, y: 200 },
        by: { y: 300 },
        snapshot: "none",
      });
      assertTrue((((wheel.element as R).scroll as R).y as number) > 0);
      const none = await mcp.call("scroll", {});
      assertEquals(none.isError, true);
    });

    await t.step(
      "paged snapshot: pages continue one another; a change shows on the next read",
      async () => {
        await mcp.ok("navigate", { url: fx.url("scroll.html"), snapshot: "none" });
        // Enough text for several pages of the smallest size.
        await mcp.ok("eval_js", {
          expression: "for (let i = 0; i < 80; i++) document.body.append(" +
            "Object.assign(document.createElement('p'), { textContent: 'Filler paragraph ' + i }))",
        });
        const first = await mcp.ok("snapshot", { maxTokens: 200 });
        assertEquals(first.truncated, true);
        const second = await mcp.ok("snapshot", { maxTokens: 200, offset: first.nextOffset });
        assertTrue(String(second.tree).length > 0);
        assertTrue(!String(second.tree).includes(String(first.tree).split("\n")[1]!), "no overlap");
        await mcp.ok("eval_js", {
          expression: "document.querySelector('h1').textContent = 'Changed heading'",
        });
        const fresh = await mcp.ok("snapshot", { maxTokens: 200 });
        assertIncludes(String(fresh.tree), "Changed heading");
      },
    );

    await t.step("wait_for: text, selector, hidden, url, timeout", async () => {
      await mcp.ok("navigate", { url: fx.url("covered.html"), snapshot: "none" });
      const late = await mcp.ok("wait_for", { selector: "text=Late button" });
      assertEquals([late.ok, late.status], [true, "ok"]);
      const txt = await mcp.ok("wait_for", { text: "covered ELEMENTS" });
      assertEquals(txt.status, "ok");
      const to = await mcp.ok("wait_for", { text: "never there", timeoutMs: 300 });
      assertEquals([to.ok, to.status], [false, "timeout"]);
      assertTrue(String(to.lastSeen).length > 0);
      const hidden = await mcp.ok("wait_for", {
        selector: "#hidden",
        state: "hidden",
        timeoutMs: 500,
      });
      assertEquals(hidden.status, "ok");
      const url = await mcp.ok("wait_for", { url: "**/covered.html" });
      assertEquals(url.status, "ok");
      const two = await mcp.call("wait_for", { text: "a", url: "b" });
      assertEquals(two.isError, true);
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
