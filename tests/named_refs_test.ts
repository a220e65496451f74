/**
 * Named refs: `name_ref` gives a ref a name, `named` stands for it on every tool that takes a
 * target, and it fails exactly as its ref fails once the element is gone.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { errorOf } from "./_results.ts";
import { refOf } from "./_util.ts";
import { startFixtureServer } from "./fixtures/server.ts";

Deno.test("named refs: an alias of a ref on every target, failing as the ref fails", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,power" } });
  try {
    await t.step(
      "name a field, then act and wait by name; naming again moves the name",
      async () => {
        await mcp.ok("navigate", { url: fx.url("form.html"), snapshot: "none" });
        const tree = String((await mcp.ok("snapshot")).tree);
        const field = refOf(tree, /textbox "Name"/);
        const named = await mcp.ok("name_ref", { name: "name_field", ref: `[ref=${field}]` });
        // The element's role and name are echoed, so a wrong ref shows at once.
        assertEquals(named, { name: "name_field", ref: field, role: "textbox", label: "Name" });
        await mcp.ok("fill", { named: "name_field", value: "Ada" });
        const value = await mcp.ok("wait_for", { named: "name_field" });
        assertEquals(value.ok, true);
        const list = await mcp.ok("list_named_refs");
        assertEquals(list.count, 1);
        assertEquals(list.named, [{
          name: "name_field",
          ref: field,
          role: "textbox",
          label: "Name",
          known: true,
        }]);
        // Naming again moves the name and says from where.
        const other = refOf(tree, /textbox "Email"/);
        const moved = await mcp.ok("name_ref", { name: "name_field", ref: other });
        assertEquals([moved.replaced, moved.role, moved.label], [field, "textbox", "Email"]);
        await mcp.ok("fill", { named: "name_field", value: "a@b.example" });
        const after = String((await mcp.ok("snapshot")).tree);
        assertIncludes(
          after.split("\n").find((l) => l.includes(`[ref=${other}]`)) ?? "",
          "a@b.example",
        );
        assertIncludes(after.split("\n").find((l) => l.includes(`[ref=${field}]`)) ?? "", "Ada");
      },
    );

    await t.step("a name fails as its ref fails when the element is gone", async () => {
      await mcp.ok("navigate", { url: fx.url("rerender.html"), snapshot: "none" });
      const tree = String((await mcp.ok("snapshot")).tree);
      const del = refOf(tree, /Delete Alpha/);
      await mcp.ok("name_ref", { name: "delete_alpha", ref: del });
      // Alpha deleted (the list re-rendered without it): no element is its ref's any more.
      await mcp.ok("click", { ref: del });
      const byName = await mcp.call("click", { named: "delete_alpha" });
      const byRef = await mcp.call("click", { ref: del });
      assertEquals(byName.isError, true);
      assertEquals(errorOf(byName).code, "ref-gone");
      assertEquals(errorOf(byName).code, errorOf(byRef).code);
      assertEquals(errorOf(byName).message, errorOf(byRef).message);
      // After a navigation the registry forgets the document's refs: the list says so.
      await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
      // Known no more at once, before any capture prunes the registry.
      const early = await mcp.ok("list_named_refs");
      assertEquals(
        (early.named as Array<{ name: string; known: boolean }>)
          .find((n) => n.name === "delete_alpha")?.known,
        false,
      );
      await mcp.ok("snapshot");
      const list = await mcp.ok("list_named_refs");
      const entry = (list.named as Array<{ name: string; known: boolean }>)
        .find((n) => n.name === "delete_alpha");
      assertEquals(entry?.known, false);
      const gone = await mcp.call("hover", { named: "delete_alpha" });
      assertEquals(errorOf(gone).code, "ref-gone");
    });

    await t.step("bad input: each a clear error, nothing changed", async () => {
      const badName = await mcp.call("name_ref", { name: "1 bad name", ref: "e1" });
      assertEquals(errorOf(badName).code, "invalid-argument");
      assertIncludes(textOf(badName), "Invalid name");
      const badRef = await mcp.call("name_ref", { name: "x", ref: "button" });
      assertEquals(errorOf(badRef).code, "invalid-argument");
      const unknown = await mcp.call("name_ref", { name: "x", ref: "e999999" });
      assertEquals(errorOf(unknown).code, "invalid-argument");
      assertIncludes(textOf(unknown), "Unknown ref");
      const noName = await mcp.call("click", { named: "nope" });
      assertEquals(errorOf(noName).code, "invalid-argument");
      assertIncludes(textOf(noName), "name_field");
      const both = await mcp.call("click", { named: "name_field", ref: "e1" });
      assertEquals(errorOf(both).code, "invalid-argument");
      assertIncludes(textOf(both), "Too many targets");
      const list = await mcp.ok("list_named_refs");
      assertTrue((list.named as Array<{ name: string }>).every((n) => n.name !== "x"));
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
