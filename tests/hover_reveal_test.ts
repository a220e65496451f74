/**
 * A control shown only while its row is hovered (a `:hover` style rule) is clicked as a person
 * does: the pointer goes over the row first, and the result says so. Controls hidden for other
 * reasons (a closed menu, a closed `<details>`, a `hidden` one) still fail `not-visible`, with
 * the pointer not moved for them. Then TodoMVC (vanilla JS): find "delete Walk dog", click.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { ensureTodoMvc } from "./fixtures/todomvc.ts";

type R = Record<string, unknown>;

const PAGE = `<!doctype html><title>Rows</title>
<style>
  li .del { display: none }
  li:hover .del { display: inline-block }
  tr .tools { display: none }
  tr:hover .tools { display: flex }
  .menu { display: none }
  .gone { visibility: hidden }
</style>
<ul id="todos">
  <li><span>Buy milk</span> <button class="del" onclick="this.closest('li').remove()">Delete</button></li>
  <li><span>Walk dog</span> <button class="del" onclick="this.closest('li').remove()">Delete</button></li>
</ul>
<table><tr id="r1"><td>Order 1001</td>
  <td><div class="tools"><button onclick="document.title = 'archived 1001'">Archive</button></div></td></tr></table>
<button onclick="document.querySelector('.menu').style.display = 'block'">Menu</button>
<div class="menu"><button onclick="document.title = 'menu clicked'">Export</button></div>
<details><summary>More</summary><button onclick="document.title = 'details clicked'">Reset</button></details>
<button class="gone" onclick="document.title = 'gone clicked'">Hidden action</button>
<p id="log"></p>
<script>
  addEventListener("mousemove", (e) => { document.getElementById("log").textContent = "moved"; });
</script>`;

Deno.test("click on a control shown on its row's hover hovers the row first", async (t) => {
  const own = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }),
  );
  await ensureTodoMvc();
  const fx = await startFixtureServer();
  const mcp = await startStdio({
    env: { BROWX_TOOLSETS: "core,power,debug", BROWX_CAPABILITIES: "read,navigation,action,eval" },
  });
  const find = async (query: string) => {
    const r = await mcp.ok("find", { query, limit: 1 });
    return (r.candidates as R[])[0]!;
  };
  const evalJs = async (expression: string) => (await mcp.ok("eval_js", { expression })).value;
  try {
    await mcp.ok("navigate", { url: `http://127.0.0.1:${own.addr.port}/`, snapshot: "none" });

    await t.step("a row's hover-shown button: hovered, then clicked, and said", async () => {
      const del = await find("delete Walk dog");
      // Hidden until its row is hovered: find says so, and counts it actionable (s17).
      assertEquals(del.actionable, true, "actionable on hover");
      assertIncludes(String(del.why), "shown on hover");
      const r = await mcp.ok("click", { ref: del.ref });
      assertEquals(r.ok, true);
      const warnings = (r.warnings as string[]).join("\n");
      assertIncludes(warnings, "moved the pointer over");
      assertIncludes(warnings, "Walk dog");
      assertEquals(
        await evalJs(`document.querySelector("#todos").textContent.trim()`),
        "Buy milk Delete",
      );
    });

    await t.step("a wrapper shown on the table row's hover: the hover tool too", async () => {
      const archive = await find("Archive");
      const h = await mcp.ok("hover", { ref: archive.ref });
      assertIncludes((h.warnings as string[]).join("\n"), "Order 1001");
      const c = await mcp.ok("click", { ref: archive.ref });
      assertEquals(c.ok, true);
      assertEquals(await evalJs("document.title"), "archived 1001");
    });

    await t.step("hidden for other reasons: not-visible, the pointer left alone", async () => {
      for (const query of ["Export", "Reset", "Hidden action"]) {
        await evalJs(`document.getElementById("log").textContent = ""`);
        const ref = (await find(query)).ref;
        const r = await mcp.call("click", { ref });
        assertTrue(r.isError, `${query}: ${textOf(r)}`);
        assertEquals(((r.structuredContent as R).error as R).code, "not-visible", query);
        assertIncludes(textOf(r), "hover its row");
        assertEquals(await evalJs(`document.getElementById("log").textContent`), "", query);
      }
      assertEquals(await evalJs("document.title"), "archived 1001", "nothing was clicked");
    });

    await t.step("TodoMVC: find 'delete Walk dog', click it", async () => {
      await mcp.ok("navigate", { url: fx.todomvcUrl("vanillajs"), snapshot: "none" });
      await mcp.ok("wait_for", { selector: "#new-todo" });
      for (const value of ["Buy milk", "Walk dog"]) {
        await mcp.ok("fill", { selector: "#new-todo", value, submit: true });
      }
      const del = await find("delete Walk dog");
      const r = await mcp.ok("click", { ref: del.ref });
      assertIncludes((r.warnings as string[]).join("\n"), "moved the pointer over");
      const left = await evalJs(
        `[...document.querySelectorAll("#todo-list li label")].map((l) => l.textContent)`,
      );
      assertEquals(left, ["Buy milk"]);
    });
  } finally {
    await mcp.close();
    await fx.close();
    await own.shutdown();
  }
});
