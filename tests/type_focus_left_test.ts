/**
 * `type` says where its text went when the page moved the focus mid-way: a field that blurs
 * itself after 2 characters fails `not-actionable` saying how many characters the field took
 * and where the focus went; code fields that advance the focus as each digit goes in get a
 * warning naming where the characters went; a field that keeps the focus says nothing.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { act, actionOf, errorOf } from "./_results.ts";
import { servePages } from "./_util.ts";

const page = (body: string) => `<!doctype html><title>Typing</title><main>${body}</main>`;

const next = (id: string) => `oninput="if (this.value) document.getElementById('${id}').focus()"`;

const PAGES: Record<string, string> = {
  "/blur": page(`<label>Code <input id=s oninput="if (this.value.length == 2) this.blur()">
    </label><label>Other <input id=t></label>`),
  "/digits": page(`<label>Digit 1 <input id=d1 maxlength=1 ${next("d2")}></label>
    <label>Digit 2 <input id=d2 maxlength=1 ${next("d3")}></label>
    <label>Digit 3 <input id=d3 maxlength=1></label>`),
  "/plain": page(`<label>Name <input id=s></label>`),
};

Deno.test("type: text the page sent the focus away from is said", async (t) => {
  const pages = servePages(PAGES);
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const open = (path: string) => mcp.ok("navigate", { url: pages.base + path, snapshot: "none" });
  const pageValue = async (expression: string) => (await mcp.ok("eval_js", { expression })).value;
  try {
    await t.step("the field blurs itself after 2 characters: not-actionable", async () => {
      await open("/blur");
      await act(mcp, "click", { selector: "#s", snapshot: "none" });
      const r = await mcp.call("type", { text: "hello" });
      assertEquals(r.isError, true, textOf(r));
      const e = errorOf(r);
      assertEquals(e.code, "not-actionable", textOf(r));
      assertIncludes(e.message, "Typed 2 of 5 characters into");
      assertIncludes(e.message, "the focus left it (now on nothing (the page body))");
      assertIncludes(e.message, "3 characters reached no field");
      assertEquals(actionOf(r).typed, 2);
      assertEquals(actionOf(r).focusMovedTo, "nothing (the page body)");
      assertEquals(await pageValue("s.value + '|' + t.value"), "he|");
    });

    await t.step("code fields advancing the focus: a warning says where it went", async () => {
      await open("/digits");
      await act(mcp, "click", { selector: "#d1", snapshot: "none" });
      const r = await act(mcp, "type", { text: "123" });
      const w = r.warnings.find((w) => w.includes("moved the focus"));
      assertIncludes(String(w), "1 character went to textbox input#d1", String(r.warnings));
      assertIncludes(String(w), "then 1 character to textbox input#d2");
      assertIncludes(String(w), "1 character to textbox input#d3");
      assertEquals(await pageValue("d1.value + d2.value + d3.value"), "123");
    });

    await t.step("a field that keeps the focus: nothing said", async () => {
      await open("/plain");
      await act(mcp, "click", { selector: "#s", snapshot: "none" });
      const r = await act(mcp, "type", { text: "hello" });
      assertEquals(r.warnings, []);
      assertEquals(await pageValue("s.value"), "hello");
    });

    await t.step("bad input: empty text is refused", async () => {
      const r = await mcp.call("type", { text: "" });
      assertEquals(r.isError, true, textOf(r));
      assertIncludes(textOf(r), "text");
    });
  } finally {
    await mcp.close();
    await pages.close();
  }
});
