/**
 * Refs against real Chromium: stable across snapshots while their nodes live; stale ones
 * (a re-rendered list, a node renamed in place, a navigation, a recycled row showing another
 * item; unknown and malformed refs) fail loudly with `RefGoneError` and never act on another
 * element; the delta of a re-render. The snapshot's content is `snapshot_test.ts`'s.
 */
import { assertEquals, assertIncludes, assertRejects, assertTrue } from "./_assert.ts";
import { launchTestBrowser } from "./_harness.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { releaseHandle } from "../browser/injected/mod.ts";
import { diffSnapshots } from "../browser/snapshot/delta.ts";
import { RefRegistry } from "../browser/snapshot/refs.ts";
import { RefGoneError, resolveRef } from "../browser/snapshot/resolve.ts";
import { refOf } from "./_util.ts";
import { inPage, onElement, shownSnapshot, textOfRef } from "./_page_refs.ts";

Deno.test("stale refs fail loudly against real Chromium", async (t) => {
  const fx = await startFixtureServer();
  const tb = await launchTestBrowser();
  try {
    const page = await tb.newPage();
    const refs = new RefRegistry();
    const snap = shownSnapshot(page, refs);

    await t.step("refs are stable across snapshots while their nodes live", async () => {
      await page.navigate(fx.url("rerender.html"));
      const a = await snap();
      const b = await snap();
      assertEquals(a, b);
      assertTrue(/\[ref=e\d+\]/.test(a));
    });

    await t.step("a re-rendered list: old refs fail loudly, never hit the new nodes", async () => {
      const before = await snap();
      const oldAlpha = refOf(before, /Delete Alpha/);
      await inPage(page, `document.getElementById("shuffle").click()`);
      const e = await assertRejects(() => resolveRef(page, refs, oldAlpha), RefGoneError);
      assertEquals([e.code, e.reason], ["ref-gone", "detached"]);
      assertIncludes(e.message, "take a new snapshot");
      const after = await snap();
      const newAlpha = refOf(after, /Delete Alpha/);
      assertTrue(newAlpha !== oldAlpha, "the new node has a new ref");
      await assertRejects(() => resolveRef(page, refs, oldAlpha), RefGoneError);
      assertEquals(await textOfRef(page, refs, newAlpha), "Delete Alpha");
      const d = diffSnapshots(before, after);
      assertEquals(d.unchanged, false);
      assertTrue(d.appeared.some((n) => n.ref === newAlpha), JSON.stringify(d.appeared));
      assertTrue(d.removedNodes.some((n) => n.ref === oldAlpha));
    });

    await t.step(
      "a node that changed its name in place is not the thing the ref named",
      async () => {
        const text = await snap();
        const shuffle = refOf(text, /Shuffle/);
        await inPage(page, `document.getElementById("shuffle").textContent = "Reset all"`);
        const e = await assertRejects(() => resolveRef(page, refs, shuffle), RefGoneError);
        assertEquals(e.reason, "changed");
        assertIncludes(e.message, `"Reset all"`);
        // A text field may change its name (placeholder, label) and stay itself.
        await page.navigate(fx.url("basic.html"));
        const basic = await snap();
        const name = refOf(basic, /Full name/);
        await inPage(page, `document.querySelector("label[for=name]").textContent = "Your name"`);
        releaseHandle(await resolveRef(page, refs, name));
      },
    );

    await t.step("navigation, unknown and malformed refs: RefGoneError", async () => {
      const text = await snap();
      const click = refOf(text, /Click me/);
      await page.navigate(fx.url("form.html"));
      const nav = await assertRejects(() => resolveRef(page, refs, click), RefGoneError);
      assertTrue(nav.reason === "navigated" || nav.reason === "unknown", nav.reason);
      await snap(); // drops the old document's refs
      const dropped = await assertRejects(() => resolveRef(page, refs, click), RefGoneError);
      assertIncludes(dropped.message, "replaced");
      const unknown = await assertRejects(() => resolveRef(page, refs, "e99999"), RefGoneError);
      assertEquals(unknown.reason, "unknown");
      const bad = await assertRejects(() => resolveRef(page, refs, "button 3"), RefGoneError);
      assertEquals(bad.reason, "malformed");
      await assertRejects(() => snap("e99999"), RefGoneError);
    });

    await t.step("a recycled row: the old ref fails, never acts on the new item", async () => {
      await page.navigate(fx.url("recycle.html"));
      const rowRef = (tree: string, item: string, role: RegExp) => {
        const lines = tree.split("\n");
        const at = lines.indexOf(`  ${item}`);
        assertTrue(at > 0, `no row "${item}" in:\n${tree}`);
        return refOf(lines.slice(at - 1, at + 3).join("\n"), role);
      };
      const text = await snap();
      assertEquals(await snap(), text, "refs stable across snapshots of an unchanged page");
      const del = rowRef(text, "Buy milk", /button "Delete"/);
      const toggle = rowRef(text, "Buy milk", /checkbox "Done"/);
      const note = rowRef(text, "Buy milk", /textbox "Note"/);
      const card = refOf(text, /- generic \[ref=e\d+\]: Buy milk/);
      const confirm = refOf(text, /button "Confirm"/);
      // States that leave the row's text alone keep its refs: checked, a class, focus, typing.
      const h = await resolveRef(page, refs, toggle);
      await onElement(h, "function() { this.click(); this.focus(); }");
      releaseHandle(h);
      assertEquals(
        await inPage(page, `document.getElementById("log").textContent`),
        "Toggled Buy milk",
      );
      await inPage(page, `document.querySelector(".note").value = "from the store"`);
      for (const ref of [del, toggle, note, card, confirm]) {
        releaseHandle(await resolveRef(page, refs, ref));
      }
      const expected = text
        .replace(`"Done" [ref=${toggle}]`, `"Done" [ref=${toggle}] [checked]`)
        .replace(`"Note" [ref=${note}]`, `"Note" [ref=${note}]: from the store`)
        .replace("No action yet", "Toggled Buy milk");
      assertEquals(await snap(), expected);
      // Another client drops "Buy milk": row 1's nodes now show "Walk dog".
      await inPage(page, `dropFirst()`);
      const e = await assertRejects(() => resolveRef(page, refs, del), RefGoneError);
      assertEquals([e.code, e.reason], ["ref-gone", "changed"]);
      assertIncludes(e.message, `(button "Delete") now sits in a different list item`);
      assertIncludes(e.message, `("Walk dog" instead of "Buy milk")`);
      assertIncludes(e.message, "take a new snapshot");
      await assertRejects(() => resolveRef(page, refs, toggle), RefGoneError);
      await assertRejects(() => resolveRef(page, refs, note), RefGoneError);
      // A clickable without a name is told by its own text; a button by its dialog's name.
      const c = await assertRejects(() => resolveRef(page, refs, card), RefGoneError);
      assertIncludes(c.message, `now shows different content ("Walk dog" instead of "Buy milk")`);
      const d = await assertRejects(() => resolveRef(page, refs, confirm), RefGoneError);
      assertIncludes(d.message, `now sits in a different dialog ("Delete “Walk dog”?" instead of`);
      assertEquals(await inPage(page, `itemTexts().join()`), "Walk dog,Pay rent");
      assertEquals(
        await inPage(page, `document.getElementById("log").textContent`),
        "Toggled Buy milk",
      );
      // A new snapshot shows the node in its new row: the ref is the node's, now next to "Walk dog".
      const now = await snap();
      assertEquals(rowRef(now, "Walk dog", /button "Delete"/), del);
      const h2 = await resolveRef(page, refs, del);
      await onElement(h2, "function() { this.click(); }");
      releaseHandle(h2);
      assertEquals(await inPage(page, `itemTexts().join()`), "Pay rent");
    });

    await t.step("a todo's hidden edit box repeating its label is not said twice", async () => {
      // TodoMVC's rows: a label, and a hidden edit box holding the same text.
      const row = (t: string) =>
        `<li><div><input type=checkbox aria-label=Done><label>${t}</label>` +
        `<button>Delete</button></div><input class=edit value="${t}" hidden></li>`;
      await page.navigate(
        "data:text/html," + encodeURIComponent(
          `<ul>${row("Buy milk")}${row("Walk dog")}</ul><script>
          // The framework re-uses the nodes: row 1 now shows row 2's item.
          window.shift = () => {
            const [a, b] = document.querySelectorAll("li");
            a.querySelector("label").textContent = b.querySelector("label").textContent;
            a.querySelector(".edit").value = b.querySelector(".edit").value;
            b.remove();
          };</script>`,
        ),
      );
      const text = await snap();
      const del = refOf(text.split("Walk dog")[0]!, /button "Delete"/);
      await inPage(page, `shift()`);
      const e = await assertRejects(() => resolveRef(page, refs, del), RefGoneError);
      assertIncludes(e.message, `("Walk dog" instead of "Buy milk")`);
    });
  } finally {
    await tb.close();
    await fx.close();
  }
});
