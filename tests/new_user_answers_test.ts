/**
 * What a new user (who knew nothing of the design) was told, through MCP, and should have been:
 * - `fill_form { submits: true }` sends nothing, says so, and its schema says it only allows;
 * - one re-created ref "is gone" and is re-created as "it".
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { errorOf } from "./_results.ts";
import { refOf } from "./_util.ts";
import { startFixtureServer } from "./fixtures/server.ts";

type R = Record<string, unknown>;

Deno.test("new user: what the answers say (blank tab, refs, failed loads, fill_form, notes)", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,forms" } });
  const warningsOf = (r: R) => (r.warnings ?? []) as string[];
  try {
    await t.step("fill_form submits: true sends nothing, and says so and how to send", async () => {
      const { tools } = await mcp.client.listTools();
      const schema = tools.find((x) => x.name === "fill_form")!.inputSchema as {
        properties: Record<string, { description?: string }>;
      };
      const said = String(schema.properties.submits?.description);
      assertIncludes(said, "Only allows a form send");
      assertIncludes(said, "click submit with submits: true");
      await mcp.ok("navigate", { url: fx.url("form.html"), snapshot: "none" });
      fx.requests.length = 0;
      const r = await mcp.ok("fill_form", {
        fields: [{ name: "name", value: "Ada" }],
        submits: true,
      });
      assertEquals((r.navigation as R).changed, false);
      assertEquals(fx.requests.filter((q) => q.path.startsWith("/api/echo")), []);
      assertIncludes(warningsOf(r).join("\n"), "fill_form sends no form");
      assertIncludes(warningsOf(r).join("\n"), "click its submit button with submits: true");
      // Without submits, nothing is said.
      const plain = await mcp.ok("fill_form", { fields: [{ name: "name", value: "Bo" }] });
      assertEquals(warningsOf(plain), []);
    });

    await t.step('one ref the page re-created "is gone", re-created as "it"', async () => {
      await mcp.ok("navigate", { url: fx.url("rerender.html"), snapshot: "none" });
      let tree = String((await mcp.ok("snapshot")).tree);
      // Down to two items; deleting one re-renders the other: one ref renewed.
      for (const name of ["Gamma", "Delta", "Epsilon"]) {
        await mcp.ok("click", { ref: refOf(tree, `Delete ${name}`), snapshot: "none" });
        tree = String((await mcp.ok("snapshot")).tree);
      }
      const r = await mcp.ok("click", { ref: refOf(tree, "Delete Alpha") });
      const delta = String((r.snapshotDelta as R).tree);
      assertTrue(
        /~ e\d+ is gone: the page re-created it as e\d+ \(same content\)/.test(delta),
        delta,
      );
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
