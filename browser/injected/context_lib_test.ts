/**
 * A ref's context (`contextOf`, context_lib.ts) on a real page, for rows whose item is not in
 * their text: a field's value as the page set it (typing, trusted or by `noteEdit`, does not
 * change it; the page re-using the field does; filling in an empty one does not), the row's own
 * aria-label, a long row's exact hash. A data: page, the api called in the utility world.
 */
import { steady } from "../snapshot/row_identity.ts";
import { assertEquals, assertTrue } from "../../tests/_assert.ts";
import { launchTestBrowser } from "../../tests/_harness.ts";
import { callUtility } from "./mod.ts";

const PREFIX =
  "Invoice for ACME Corporation International Holdings, quarterly retainer for consulting services, ";

const PAGE = `<!doctype html>
<table>
  <tr><td><input id=f1 value="INV-1001"></td><td><button id=b1>Delete</button></td></tr>
  <tr><td><input id=f2></td><td><button id=b2>Delete</button></td></tr>
</table>
<ul>
  <li aria-label="Order 1001"><button id=b3 aria-label="Delete">x</button></li>
  <li><span id=long>${PREFIX}line 3</span> <button id=b4>Delete</button></li>
</ul>
<form><table><tr><td><input id=f3 value="Berlin"> <button id=b5>Clear</button></td></tr></table>
</form>
<ul><li><input id=up value="Note 7"> <button id=b6>Save</button></li></ul>
<script>document.getElementById("up").addEventListener("input", (e) => {
  e.target.value = e.target.value.toUpperCase();
});</script>`;

/**
 * A data: page of `html` with the utility world in: `run` evaluates `js` with `a` the api,
 * `ctx(id)` is the context of the element with that id.
 */
async function contextPage(tb: Awaited<ReturnType<typeof launchTestBrowser>>, html: string) {
  const page = await tb.newPage();
  await page.navigate("data:text/html," + encodeURIComponent(html));
  await callUtility(page, page.mainFrameId, "hasText", ["x"]);
  const run = (js: string) => page.evaluate(`(() => { const a = globalThis.__browxai; ${js} })()`);
  const ctx = async (id: string) =>
    await run(`const el = document.getElementById(${JSON.stringify(id)});
      return a.contextOf(el, a.refRole(el), a.nameOf(el));`) as [string, string];
  return { page, run, ctx };
}

Deno.test("context: fields' values as the page set them, a row's aria-label, exact hashes", async () => {
  const tb = await launchTestBrowser();
  try {
    const { page, run, ctx } = await contextPage(tb, PAGE);
    const typeInto = async (id: string, text: string) => {
      await run(`const f = document.getElementById(${JSON.stringify(id)}); f.focus(); f.select();`);
      await page.send("Input.insertText", { text });
    };

    assertEquals(await ctx("b1"), ["row", "INV-1001"]);
    // A text field's own value, in a table row outside a form.
    assertEquals(await ctx("f1"), ["row", "INV-1001 Delete"]);
    await typeInto("f1", "Gadget");
    assertEquals(await run(`return document.getElementById("f1").value`), "Gadget");
    assertEquals(await ctx("b1"), ["row", "INV-1001"]);
    assertEquals(await ctx("f1"), ["row", "INV-1001 Delete"]);
    // The page sets another item's value: the row is re-used.
    await run(`document.getElementById("f1").value = "INV-1002"`);
    assertEquals(await ctx("b1"), ["row", "INV-1002"]);
    // Set by browxai's own script (fill_form): typed, not the page's.
    await run(`const f = document.getElementById("f1"); a.noteEdit(f); f.value = "Widget";
      a.noteEdit(f, true);`);
    assertEquals(await ctx("b1"), ["row", "INV-1002"]);

    // Seen empty, then filled in by the page: still empty.
    assertEquals(await ctx("b2"), ["row", ""]);
    await run(`document.getElementById("f2").value = "Berlin"`);
    assertEquals(await ctx("b2"), ["row", ""]);

    // What the page's input handler makes of the typing is typed too.
    assertEquals(await ctx("b6"), ["list item", "Note 7"]);
    await typeInto("up", "abc");
    assertEquals(await run(`return document.getElementById("up").value`), "ABC");
    assertEquals(await ctx("b6"), ["list item", "Note 7"]);

    assertEquals(await ctx("b3"), ["list item", "Order 1001"]);

    // A form's field: its own value does not count, its row-mates see it.
    assertEquals(await ctx("f3"), ["row", "Clear"]);
    assertEquals(await ctx("b5"), ["row", "Berlin"]);

    // A long row: "… #skeleton~exact"; a count past the cut changes only the exact hash.
    const [, line3] = await ctx("b4");
    await run(`document.getElementById("long").textContent = ${JSON.stringify(PREFIX)} + "line 4"`);
    const [, line4] = await ctx("b4");
    assertTrue(/… #[0-9a-z]+~[0-9a-z]+$/.test(line3), line3);
    assertTrue(line3 !== line4, line4);
    assertEquals(
      await run(`return a.contextSkeleton(${JSON.stringify(line3)})`),
      await run(`return a.contextSkeleton(${JSON.stringify(line4)})`),
    );
    // What ticks on its own: the page's rule is the server's (row_identity.ts steady).
    for (
      const text of ["Build 42 3s ago", "Widget $10", "Msg 5/140", "Bio 9 chars left", "At 9:41pm"]
    ) assertEquals(await run(`return a.contextSteady(${JSON.stringify(text)})`), steady(text));
  } finally {
    await tb.close();
  }
});

const ROWS = `<!doctype html>
<ul>
  <li><a id=a1 href="/item/1">Open</a></li>
  <li><a id=a2 href="/item/2">Open</a> <span>Bob</span></li>
  <li><select id=s1><option value="">Choose</option><option>Alice</option><option>Bob</option>
    </select> <button id=b1>Delete</button></li>
  <li><select id=s2><option>Alice</option><option>Bob</option><option>Cy</option></select>
    <button id=b2>Delete</button></li>
  <li><input id=p1 placeholder="Carol"> <button id=b3>Delete</button></li>
</ul>`;

Deno.test("context: a select's choice, a placeholder, and hrefs of a row that reads nothing else", async () => {
  const tb = await launchTestBrowser();
  try {
    const { page, run, ctx } = await contextPage(tb, ROWS);

    // A row that reads nothing but its link: told by the href; a row with text: by its text.
    assertEquals(await ctx("a1"), ["list item", "/item/1"]);
    assertEquals(await ctx("a2"), ["list item", "Bob"]);

    // A select by its chosen option; one on its "Choose" placeholder (value "") counts as empty,
    // and stays so when the page fills it in.
    assertEquals(await ctx("b2"), ["list item", "Alice"]);
    assertEquals(await ctx("b1"), ["list item", ""]);
    await run(`document.getElementById("s1").value = "Bob"`);
    assertEquals(await ctx("b1"), ["list item", ""]);
    // Chosen by browxai (noteEdit) or by a person (a trusted focus, then a key): not the page's.
    await run(`const s = document.getElementById("s2"); a.noteEdit(s); s.value = "Bob";
      a.noteEdit(s, true);`);
    assertEquals(await ctx("b2"), ["list item", "Alice"]);
    await run(`document.getElementById("s2").value = "Alice"`);
    await run(`document.getElementById("s2").focus()`);
    await page.send("Input.dispatchKeyEvent", {
      type: "keyDown",
      key: "ArrowDown",
      code: "ArrowDown",
      windowsVirtualKeyCode: 40,
    });
    await page.send("Input.dispatchKeyEvent", {
      type: "keyUp",
      key: "ArrowDown",
      code: "ArrowDown",
      windowsVirtualKeyCode: 40,
    });
    assertEquals(await run(`return document.getElementById("s2").value`), "Bob");
    assertEquals(await ctx("b2"), ["list item", "Alice"]);
    // The page choosing another item's value: the row is re-used.
    await run(`document.getElementById("s2").value = "Cy"`);
    assertEquals(await ctx("b2"), ["list item", "Cy"]);

    // A text field's placeholder counts, for its row-mates and (in a row outside a form) itself.
    assertEquals(await ctx("b3"), ["list item", "Carol"]);
    assertEquals(await ctx("p1"), ["list item", "Carol Delete"]);
  } finally {
    await tb.close();
  }
});
