/**
 * `fill` says what the field kept: a `maxlength` that cut the value is a warning naming it; a
 * value the browser refuses (letters in a number field, a date not in its format) is an
 * `invalid-argument` failure of the same shape, saying what the field accepts, and the field
 * is left as it was (fill and fill_form; said); a value kept whole says nothing.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { act, actionOf, errorOf } from "./_results.ts";

const PAGE = `<!doctype html><title>Fields</title><main><h1>Profile</h1>
<label>ZIP (max 5) <input id=zip maxlength=5></label>
<label>Age <input id=age type=number min=0 max=120></label>
<label>Birthday <input id=bd type=date></label>
<label>Volume <input id=vol type=range min=0 max=10></label>
<label>Notes <textarea id=notes maxlength=4></textarea></label>
</main>`;

Deno.test("fill: a value the field cut or refused is said", async (t) => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(PAGE, { headers: { "content-type": "text/html" } }),
  );
  const mcp = await startStdio({
    env: { BROWX_CAPABILITIES: "read,navigation,action,eval", BROWX_TOOLSETS: "core,forms,debug" },
  });
  const valueOf = async (id: string) =>
    (await mcp.ok("eval_js", {
      expression: `document.getElementById(${JSON.stringify(id)}).value`,
    }))
      .value;
  try {
    await mcp.ok("navigate", { url: `http://127.0.0.1:${server.addr.port}/`, snapshot: "none" });

    await t.step("maxlength cut the value: a warning says how much was kept", async () => {
      const r = await act(mcp, "fill", { selector: "#zip", value: "1234567" });
      assertEquals(r.element!.value, "12345");
      const w = r.warnings.find((w) => w.includes("maxlength"));
      assertEquals(w, "the field kept 5 of 7 characters (maxlength 5)", JSON.stringify(r.warnings));
      const notes = await act(mcp, "fill", { selector: "#notes", value: "abcdef" });
      assertIncludes(String(notes.warnings), "kept 4 of 6 characters (maxlength 4)");
    });

    await t.step("a value kept whole: no warning", async () => {
      const r = await act(mcp, "fill", { selector: "#zip", value: "123" });
      assertEquals(r.warnings.filter((w) => w.includes("kept")), []);
      assertEquals(await valueOf("zip"), "123");
    });

    await t.step("letters in a number field: refused, saying what it accepts", async () => {
      const r = await mcp.call("fill", { selector: "#age", value: "abc" });
      assertEquals(r.isError, true, textOf(r));
      const e = errorOf(r);
      assertEquals(e.code, "invalid-argument", textOf(r));
      assertIncludes(e.message, 'the number field rejected "abc"');
      assertIncludes(e.message, "accepts a number");
      assertEquals(actionOf(r).ok, false);
      await act(mcp, "fill", { selector: "#age", value: "42" });
      assertEquals(await valueOf("age"), "42");
    });

    await t.step("a date or range not in its format: the same shape of failure", async () => {
      const bd = await mcp.call("fill", { selector: "#bd", value: "31/12/2024" });
      assertEquals(errorOf(bd).code, "invalid-argument", textOf(bd));
      assertIncludes(errorOf(bd).message, 'the date field rejected "31/12/2024"');
      assertIncludes(errorOf(bd).message, "YYYY-MM-DD");
      // The right format for a day that does not exist: not blamed on the format (s15 #6).
      const feb = await mcp.call("fill", { selector: "#bd", value: "2026-02-30" });
      assertEquals(errorOf(feb).code, "invalid-argument", textOf(feb));
      assertIncludes(errorOf(feb).message, "its format is right, but February 2026 has 28 days");
      assertTrue(!errorOf(feb).message.includes("accepts"), errorOf(feb).message);
      const vol = await mcp.call("fill", { selector: "#vol", value: "50" });
      assertIncludes(errorOf(vol).message, 'the range field rejected "50"');
      assertIncludes(errorOf(vol).message, "from 0 to 10");
      await act(mcp, "fill", { selector: "#bd", value: "2024-12-31" });
      assertEquals(await valueOf("bd"), "2024-12-31");
    });

    await t.step("a refused value leaves the field as it was, and says so", async () => {
      // A new user's valid date was wiped by a second fill in the wrong format (session 15).
      await act(mcp, "fill", { selector: "#bd", value: "2026-12-24" });
      await mcp.ok("eval_js", {
        expression: `window.bdEvents = 0;
          for (const t of ["input", "change"]) bd.addEventListener(t, () => bdEvents++);`,
      });
      const bd = await mcp.call("fill", { selector: "#bd", value: "24/12/2026" });
      assertEquals(errorOf(bd).code, "invalid-argument", textOf(bd));
      assertIncludes(errorOf(bd).message, 'The field was left as it was: it holds "2026-12-24"');
      assertEquals(await valueOf("bd"), "2026-12-24");
      // The page saw no change: no input or change event.
      assertEquals((await mcp.ok("eval_js", { expression: "bdEvents" })).value, 0);
      // A number field typed into: what it held is put back.
      await act(mcp, "fill", { selector: "#age", value: "42" });
      const age = await mcp.call("fill", { selector: "#age", value: "abc" });
      assertIncludes(errorOf(age).message, 'left as it was: it holds "42"');
      assertEquals(await valueOf("age"), "42");
      // A range clamps what it is given: put back too.
      await act(mcp, "fill", { selector: "#vol", value: "7" });
      const vol = await mcp.call("fill", { selector: "#vol", value: "50" });
      assertIncludes(errorOf(vol).message, "left as it was");
      assertEquals(await valueOf("vol"), "7");
      // fill_form's field too.
      const form = await mcp.call("fill_form", {
        fields: [{ selector: "#bd", value: "24/12/2026" }],
      });
      assertIncludes(textOf(form), "it was left as it was");
      assertEquals(await valueOf("bd"), "2026-12-24");
    });

    await t.step("bad input: a value that is not a string is refused", async () => {
      const r = await mcp.call("fill", { selector: "#zip", value: 12345 });
      assertEquals(r.isError, true, textOf(r));
      assertIncludes(textOf(r), "value");
    });
  } finally {
    await mcp.close();
    await server.shutdown();
  }
});
