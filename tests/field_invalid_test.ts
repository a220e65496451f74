/**
 * Which field is invalid, and why, as the page or the browser says it (NU s16, pages from its
 * `invalid.html` and `native.html`): `aria-invalid` fields read `[invalid]` with the error text
 * a person sees (`aria-errormessage`, `aria-describedby`; a `hidden` description is not seen),
 * read_form says `invalid` and `error`; after a submit attempt the browser's validation stopped,
 * native fields read `[invalid="its message"]`, and a declared submit answers `form-invalid`
 * (not `not-actionable`, which invites scroll or cover retries). MCP stdio, real Chromium.
 */
import { assertEquals, assertIncludes, assertNotIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { servePages } from "./_util.ts";
import { actionOf } from "./_results.ts";

type R = Record<string, unknown>;

const INVALID = `<!doctype html><meta charset="utf-8"><title>Invalid</title><h1>Billing</h1>
<div role="alert">2 fields need attention.</div>
<form><label for="a">Card number</label><input id="a" aria-invalid="true" aria-describedby="ae" value="4111"><small id="ae" hidden>Card number is too short</small>
<label for="b">ZIP</label><input id="b" aria-invalid="true" aria-errormessage="be" value="ABC"><span id="be" style="position:absolute;left:-9999px">ZIP must be 5 digits</span>
<label for="c">Name</label><input id="c" value="Bob" aria-invalid="false">
<label for="d">City</label><input id="d" aria-invalid="true" aria-describedby="de" value="X"><p id="de">City is unknown</p></form>`;

const NATIVE = `<!doctype html><meta charset="utf-8"><title>Native form</title><h1>Contact</h1>
<form action="/thanks.html" method="get"><label>Email <input name="email" type="email" required></label>
<label>Age <input name="age" type="number" min="18" required></label>
<button>Send</button></form>`;

Deno.test("invalid fields: marked on their lines and in read_form, with the error a person sees", async (t) => {
  const site = servePages({
    "/invalid.html": INVALID,
    "/native.html": NATIVE,
    "/thanks.html": "<h1>Thanks</h1>",
  });
  const mcp = await startStdio({
    env: { BROWX_TOOLSETS: "all", BROWX_CAPABILITIES: "read,navigation,action,eval" },
  });
  try {
    await t.step("aria-invalid: [invalid], the shown message only", async () => {
      await mcp.ok("navigate", { url: `${site.base}/invalid.html`, snapshot: "none" });
      const tree = String((await mcp.ok("snapshot")).tree);
      // The hidden description is no error anyone reads: not said.
      assertIncludes(tree, 'textbox "Card number" [ref=e1] [invalid]: 4111');
      assertNotIncludes(tree, "too short");
      assertIncludes(tree, 'textbox "ZIP" [ref=e2] [invalid="ZIP must be 5 digits"]: ABC');
      assertIncludes(tree, 'textbox "City" [ref=e4] [invalid="City is unknown"]: X');
      // aria-invalid="false" is a valid field: nothing said.
      assertIncludes(tree, 'textbox "Name" [ref=e3]: Bob');
      const fields = (await mcp.ok("read_form")).fields as R[];
      const byLabel = Object.fromEntries(fields.map((f) => [f.label, f]));
      assertEquals([byLabel["Card number"]!.invalid, byLabel["Card number"]!.error], [
        true,
        undefined,
      ]);
      assertEquals(byLabel["ZIP"]!.error, "ZIP must be 5 digits");
      assertEquals(byLabel["City"]!.error, "City is unknown");
      assertEquals(byLabel["Name"]!.invalid, undefined);
    });

    await t.step("a page that clears the mark: the field's line says nothing more", async () => {
      await mcp.ok("eval_js", {
        expression: `document.getElementById("b").setAttribute("aria-invalid", "false")`,
      });
      const tree = String((await mcp.ok("snapshot")).tree);
      assertIncludes(tree, 'textbox "ZIP" [ref=e2]: ABC');
    });

    await t.step(
      "native validation: a declared submit answers form-invalid, fields marked",
      async () => {
        await mcp.ok("navigate", { url: `${site.base}/native.html`, snapshot: "none" });
        const before = String((await mcp.ok("snapshot")).tree);
        // Not tried yet: the browser marks nothing (:user-invalid), neither does the snapshot.
        assertNotIncludes(before, "[invalid");
        const r = await mcp.call("click", { selector: "text=Send", submits: true });
        assertEquals(r.isError, true, textOf(r));
        const s = actionOf(r);
        assertEquals([s.ok, s.submitted, s.error!.code], [false, false, "form-invalid"]);
        assertEquals((s.invalid as string[]).map((f) => f.split(":")[0]), ["email", "age"]);
        // The fix is a value: no scroll or cover retry is suggested.
        assertNotIncludes(s.error!.hint, "scroll");
        assertIncludes(s.error!.hint, "fill");
        const tree = String((await mcp.ok("snapshot")).tree);
        assertTrue(
          /textbox "Email" \[ref=e\d+\] \[required\] \[invalid="[^"]+"\]/.test(tree),
          tree,
        );
        assertTrue(
          /spinbutton "Age" \[ref=e\d+\] \[required\] \[invalid="[^"]+"\]/.test(tree),
          tree,
        );
        const fields = (await mcp.ok("read_form")).fields as R[];
        assertEquals(fields.map((f) => [f.name, f.invalid, typeof f.error]), [
          ["email", true, "string"],
          ["age", true, "string"],
        ]);
      },
    );

    await t.step("fixed and sent: no field marked invalid any more", async () => {
      await mcp.ok("fill_form", {
        fields: [{ name: "email", value: "a@example.test" }, { name: "age", value: "30" }],
      });
      const tree = String((await mcp.ok("snapshot")).tree);
      assertNotIncludes(tree, "[invalid");
      const r = await mcp.call("click", { selector: "text=Send", submits: true });
      assertEquals(r.isError, undefined, textOf(r));
      assertIncludes(textOf(r), "thanks.html");
    });

    await t.step("bad input: read_form with a root that matches nothing is refused", async () => {
      const r = await mcp.call("read_form", { root: "#no-such-form" });
      assertEquals(r.isError, true, textOf(r));
      const r2 = await mcp.call("read_form", { root: 42 });
      assertEquals(r2.isError, true, textOf(r2));
      assertIncludes(textOf(r2), "root");
    });
  } finally {
    await mcp.close();
    await site.close();
  }
});
