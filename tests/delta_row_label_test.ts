/**
 * A changed line inside a bare row whose first control is unnamed (TodoMVC's `(.toggle)`
 * checkbox) is shown under the row's text, so the delta says which todo changed (NU s16: a
 * vanillajs delta read `  - listitem` / `+   - checkbox [ref=e16] [checked] (.toggle)`).
 * MCP stdio, real Chromium, the npm `todomvc` apps.
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { ensureTodoMvc } from "./fixtures/todomvc.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { refOf } from "./_util.ts";

for (const app of ["vanillajs", "react"] as const) {
  Deno.test(`todomvc ${app}: a ticked todo's delta names the todo`, async () => {
    await ensureTodoMvc();
    const fx = await startFixtureServer();
    const mcp = await startStdio();
    try {
      await mcp.ok("navigate", { url: fx.todomvcUrl(app), snapshot: "none" });
      const input = refOf(String((await mcp.ok("snapshot")).tree), /textbox "What needs/);
      for (const value of ["Buy milk", "Walk dog", "Pay rent"]) {
        await mcp.ok("fill", { ref: input, value, submit: true });
      }
      const tree = String((await mcp.ok("snapshot")).tree);
      // A row's checkbox comes before its text: the first one after "Buy milk" is "Walk dog"'s.
      const toggle = refOf(tree.slice(tree.indexOf("Buy milk")), /checkbox/);
      const r = await mcp.call("click", { ref: toggle });
      assertEquals(r.isError, undefined, textOf(r));
      const delta = textOf(r).slice(textOf(r).indexOf("delta"));
      const lines = delta.split("\n");
      const ticked = lines.findIndex((l) => l.includes(`[ref=${toggle}] [checked]`));
      assertTrue(ticked > 0, delta);
      // The row's text stands between the row and the changed line; no other todo is named.
      const context = lines.slice(0, ticked).join("\n");
      assertTrue(/- listitem\n\s+Walk dog$/.test(context), delta);
      assertEquals(/Buy milk|Pay rent/.test(delta), false, delta);
    } finally {
      await mcp.close();
      await fx.close();
    }
  });
}
