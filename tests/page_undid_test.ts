/**
 * `fill` and `select` say what the field holds once the page's handlers ran: a page that
 * empties the field (an `input` handler, at once or a moment later) or keeps what it held (a
 * contenteditable whose `beforeinput` handler prevents the edit) fails `invalid-argument`
 * saying what was asked and what the field holds; a rewritten value is a warning; a select a
 * `change` handler sets back fails, its `selected` saying the option it holds. A field emptied
 * before `submit`'s Enter is not sent. Fields that keep the value say nothing.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { act, actionOf, errorOf } from "./_results.ts";
import { servePages } from "./_util.ts";

const page = (body: string) => `<!doctype html><title>Undo</title><main>${body}</main>`;

const PAGES: Record<string, string> = {
  "/clear": page(`<label>Code <input id=f oninput="this.value=''"></label>`),
  "/later": page(
    `<label>Code <input id=f oninput="setTimeout(() => this.value = '', 30)"></label>`,
  ),
  "/keep": page(`<label>Code <input id=f value=orig oninput="this.value='orig'"></label>`),
  "/editable": page(
    `<div id=f contenteditable role=textbox aria-label=Note onbeforeinput="event.preventDefault()">old</div>`,
  ),
  "/form": page(`<form action=/sent><label>Code <input id=f name=q oninput="this.value=''">
    </label><button>Go</button></form>`),
  "/upper": page(
    `<label>Name <input id=f oninput="this.value=this.value.toUpperCase()"></label>`,
  ),
  "/plain": page(
    `<label>Name <input id=f></label><div id=e contenteditable role=textbox aria-label=Note>old</div>`,
  ),
  "/select": page(`<label>Size <select id=s onchange="this.selectedIndex=0">
    <option value=s>Small</option><option value=l>Large</option></select></label>`),
  "/select-later": page(`<label>Size <select id=s
    onchange="setTimeout(() => this.selectedIndex = 0, 50)">
    <option value=s>Small</option><option value=l>Large</option></select></label>`),
  "/select-plain": page(`<label>Size <select id=s>
    <option value=s>Small</option><option value=l>Large</option></select></label>`),
};

Deno.test("fill and select: a value the page undid is said", async (t) => {
  const pages = servePages(PAGES);
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const open = (path: string) => mcp.ok("navigate", { url: pages.base + path, snapshot: "none" });
  const pageValue = async (expression: string) => (await mcp.ok("eval_js", { expression })).value;
  try {
    await t.step("an input handler empties the field: invalid-argument", async () => {
      for (const path of ["/clear", "/later"]) {
        await open(path);
        const r = await mcp.call("fill", { selector: "#f", value: "hello" });
        assertEquals(r.isError, true, `${path}: ${textOf(r)}`);
        const e = errorOf(r);
        assertEquals(e.code, "invalid-argument", textOf(r));
        assertIncludes(e.message, 'the field is empty after "hello" went in');
        assertEquals(actionOf(r).ok, false);
        assertEquals(actionOf(r).element?.value, "");
        assertEquals(await pageValue("document.getElementById('f').value"), "");
      }
    });

    await t.step("a field emptied before its Enter: the form is not sent", async () => {
      await open("/form");
      const r = await mcp.call("fill", { selector: "#f", value: "hello", submit: true });
      assertEquals(errorOf(r).code, "invalid-argument", textOf(r));
      assertIncludes(errorOf(r).message, 'empty after "hello" went in');
      assertIncludes(errorOf(r).message, "Enter was not pressed");
      assertEquals(actionOf(r).navigation.changed, false);
      assertEquals((await mcp.ok("get_url")).url, pages.base + "/form");
    });

    await t.step("the page puts back what the field held: invalid-argument", async () => {
      await open("/keep");
      const r = await mcp.call("fill", { selector: "#f", value: "hello" });
      assertIncludes(errorOf(r).message, 'the field holds what it held before ("orig")');
      assertIncludes(errorOf(r).message, 'not "hello"');
      assertEquals(errorOf(r).code, "invalid-argument");
    });

    await t.step("a contenteditable whose beforeinput is prevented: not ok", async () => {
      await open("/editable");
      const r = await mcp.call("fill", { selector: "#f", value: "hello" });
      assertEquals(r.isError, true, textOf(r));
      assertIncludes(errorOf(r).message, 'held before ("old"), not "hello"');
      assertEquals(await pageValue("document.getElementById('f').textContent"), "old");
    });

    await t.step("a value the page rewrote: a warning says what the field holds", async () => {
      await open("/upper");
      const r = await act(mcp, "fill", { selector: "#f", value: "hello" });
      assertEquals(r.element?.value, "HELLO");
      assertIncludes(String(r.warnings), 'the field holds "HELLO", not the "hello" filled');
    });

    await t.step("fields that keep the value: nothing said", async () => {
      await open("/plain");
      const r = await act(mcp, "fill", { selector: "#f", value: "hello" });
      assertEquals(r.warnings, []);
      const ce = await act(mcp, "fill", { selector: "#e", value: "new  text" });
      assertEquals(ce.warnings, []);
      const cleared = await act(mcp, "fill", { selector: "#f", value: "" });
      assertEquals(cleared.warnings, []);
    });

    await t.step("a select its change handler sets back: invalid-argument", async () => {
      for (const path of ["/select", "/select-later"]) {
        await open(path);
        const r = await mcp.call("select", { selector: "#s", label: "Large" });
        assertEquals(r.isError, true, `${path}: ${textOf(r)}`);
        assertEquals(errorOf(r).code, "invalid-argument");
        assertIncludes(
          errorOf(r).message,
          '"Large" was chosen, then the page set it back to "Small"',
        );
        assertEquals(actionOf(r).selected, { value: "s", label: "Small" });
        assertEquals(await pageValue("document.getElementById('s').value"), "s");
      }
    });

    await t.step("a select that keeps the option: ok", async () => {
      await open("/select-plain");
      const r = await act(mcp, "select", { selector: "#s", label: "Large" });
      assertEquals(r.selected, { value: "l", label: "Large" });
      assertEquals(r.warnings, []);
    });

    await t.step("bad input: no value, two ways to choose", async () => {
      const fill = await mcp.call("fill", { selector: "#s" });
      assertEquals(fill.isError, true, textOf(fill));
      assertIncludes(textOf(fill), "value");
      const select = await mcp.call("select", { selector: "#s", label: "Large", index: 1 });
      assertEquals(errorOf(select).code, "invalid-argument");
      assertIncludes(errorOf(select).message, "exactly one of value, label, index");
    });
  } finally {
    await mcp.close();
    await pages.close();
  }
});
