/**
 * `fill_form`'s `name` falls back to the field's label (what read_form shows) when no control
 * has that name attribute: a name attribute still wins, a label fills its one field, a label
 * two fields share is refused with both listed. MCP stdio, real Chromium, a page served here.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";

type R = Record<string, unknown>;

const PAGE = `<!doctype html><title>Search</title>
<form id="f">
  <label>Query <input id="q" name="q"></label>
  <label>Work address <input id="email" name="email"></label>
  <input id="contact" name="contact" aria-label="email">
  <input id="p1" name="p1" aria-label="Phone">
  <label> phone <input id="p2" name="p2"></label>
  <fieldset><legend>Size</legend>
    <label><input type="radio" name="size" value="s">Small</label>
    <label><input type="radio" name="size" value="l">Large</label>
  </fieldset>
</form>`;

Deno.test("fill_form: name falls back to an exact label; a name attribute wins; a shared label is refused", async (t) => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(PAGE, { headers: { "content-type": "text/html" } }),
  );
  const mcp = await startStdio({
    env: { BROWX_TOOLSETS: "all", BROWX_CAPABILITIES: "read,navigation,action,eval" },
  });
  const value = async (id: string) =>
    (await mcp.ok("eval_js", {
      expression: `document.getElementById(${JSON.stringify(id)}).value`,
    }))
      .value;
  try {
    await mcp.ok("navigate", { url: `http://127.0.0.1:${server.addr.port}/`, snapshot: "none" });
    const form = await mcp.ok("read_form", {});
    assertTrue(
      (form.fields as R[]).some((f) => f.name === "q" && f.label === "Query"),
      JSON.stringify(form),
    );

    await t.step(
      "a label (trimmed, any case) fills its field; a legend names its radio group",
      async () => {
        const s = await mcp.ok("fill_form", {
          fields: [{ name: "Query", value: "deno cdp" }, { name: " size ", value: "l" }],
        });
        assertEquals((s.fields as R[]).map((f) => f.ok), [true, true]);
        assertEquals(await value("q"), "deno cdp");
        assertEquals(
          (await mcp.ok("eval_js", {
            expression: "document.querySelector('[name=size]:checked')?.value",
          }))
            .value,
          "l",
        );
      },
    );

    await t.step("a name attribute wins over another field's label", async () => {
      await mcp.ok("fill_form", { fields: [{ name: "email", value: "a@example.test" }] });
      assertEquals(await value("email"), "a@example.test");
      assertEquals(await value("contact"), "");
    });

    await t.step(
      "a label two fields share is refused, listing both; nothing is filled",
      async () => {
        const r = await mcp.call("fill_form", { fields: [{ name: "Phone", value: "555" }] });
        assertEquals(r.isError, true, textOf(r));
        const f = (r.structuredContent!.fields as R[])[0]!;
        const error = f.error as R;
        assertEquals(error.code, "invalid-argument");
        assertIncludes(String(error.message), '2 fields are labelled "Phone"');
        assertIncludes(String(error.message), '"p1"');
        assertIncludes(String(error.message), '"p2"');
        assertEquals([await value("p1"), await value("p2")], ["", ""]);
        // Neither a name nor a label: not found, as before.
        const none = await mcp.call("fill_form", { fields: [{ name: "Nope", value: "x" }] });
        assertIncludes(textOf(none), 'no field named or labelled "Nope"');
      },
    );
  } finally {
    await mcp.close();
    await server.shutdown();
  }
});
