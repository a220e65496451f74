/**
 * `find("edit Walk dog")` on a todo edited in place (NU finding 7): the todo's text, the thing a
 * person double-clicks, ranks first and says how (`how`: double-click it); the hidden edit field
 * ranks below it. A row with an Edit button keeps its button. Then the `how` is followed: the
 * double-click opens the field. A query of nothing but "double-click" is refused.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { eventually, servePages } from "./_util.ts";

type R = Record<string, unknown>;

// TodoMVC's markup (backbone's): the edit field is hidden until the label is double-clicked.
const PAGE = `<!doctype html><title>Todos</title>
<style>
  li .edit { display: none }
  li.editing .edit { display: block }
  li.editing .view { display: none }
  li .destroy { display: none }
  li:hover .destroy { display: inline-block }
</style>
<ul id="todo-list">
  <li><div class="view"><input class="toggle" type="checkbox"><label>Buy milk</label><button class="destroy"></button></div><input class="edit" value="Buy milk"></li>
  <li><div class="view"><input class="toggle" type="checkbox"><label>Walk dog</label><button class="destroy"></button></div><input class="edit" value="Walk dog"></li>
</ul>
<table><tr><td>Order 7</td><td><button onclick="document.title = 'editing 7'">Edit</button></td></tr></table>
<script>
  document.getElementById("todo-list").addEventListener("dblclick", (e) => {
    const li = e.target.closest("li");
    if (!li || e.target.localName !== "label") return;
    li.classList.add("editing");
    li.querySelector(".edit").focus();
  });
</script>`;

Deno.test("find: a todo edited in place is its text, double-clicked", async (t) => {
  const pages = servePages({ "/": PAGE });
  const mcp = await startStdio({
    env: { BROWX_TOOLSETS: "core,power,debug", BROWX_CAPABILITIES: "read,navigation,action,eval" },
  });
  const evalJs = async (expression: string) => (await mcp.ok("eval_js", { expression })).value;
  try {
    await mcp.ok("navigate", { url: `${pages.base}/`, snapshot: "none" });

    let label = "";
    for (const query of ["edit Walk dog", "double-click to edit Walk dog", "rename Walk dog"]) {
      await t.step(`"${query}": the text first, with how to edit it`, async () => {
        const r = await mcp.ok("find", { query });
        const [first, ...rest] = r.candidates as R[];
        assertEquals(first?.name, "Walk dog", JSON.stringify(r));
        assertEquals(first?.actionable, true);
        assertIncludes(String(first?.how), `click({ ref: "${first?.ref}", clickCount: 2 })`);
        const field = rest.find((c) => c.role === "textbox");
        assertTrue(field !== undefined, "the hidden field is still a candidate");
        assertEquals(field!.actionable, false);
        assertTrue((field!.score as number) < (first!.score as number), "ranked below the text");
        assertEquals(field!.how, undefined);
        label = String(first!.ref);
      });
    }

    await t.step("a row with an Edit button: the button, no how", async () => {
      const r = await mcp.ok("find", { query: "edit Order 7" });
      const first = (r.candidates as R[])[0]!;
      assertEquals([first.role, first.name], ["button", "Edit"]);
      assertEquals(first.how, undefined);
    });

    await t.step("the how followed: the double-click opens the field", async () => {
      await mcp.ok("click", { ref: label, clickCount: 2 });
      await eventually(
        async () =>
          await evalJs(
            `document.activeElement.className === "edit" && document.activeElement.checkVisibility()`,
          ) === true,
        3000,
        "the edit field shown and focused",
      );
    });

    await t.step("bad input: a query of nothing but how to press", async () => {
      const r = await mcp.call("find", { query: "double-click" });
      assertTrue(r.isError, textOf(r));
      assertEquals(((r.structuredContent as R).error as R).code, "invalid-argument");
    });
  } finally {
    await mcp.close();
    await pages.close();
  }
});
