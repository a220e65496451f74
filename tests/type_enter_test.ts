/**
 * Enter after typed text reaches the page after what the text's input events deferred, as it
 * would between a person's keys. The Vue TodoMVC app (Vue 0.10, npm `todomvc`) locks its
 * model→view sync on each `input` event and unlocks it with a zero-delay timer; an Enter sent
 * before that timer ran added the todo but left its text in the field, so the next todo read
 * "AlphaBravo" (a new user's report). Both ways an agent adds todos: `type` with "\n" in one
 * call, and `fill` with `submit` several times.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { ensureTodoMvc } from "./fixtures/todomvc.ts";
import { textOf } from "./_mcp.ts";
import { refOf } from "./_util.ts";
import { sharedServerCases } from "./_shared_cases.ts";

// One server for these cases; each case ends with its sessions closed.
const cases = sharedServerCases("type and fill+Enter, one server", {
  env: { BROWX_CAPABILITIES: "read,navigation,action,eval" },
});

cases.test(
  "type and fill+Enter: the page's deferred input work runs before Enter (Vue TodoMVC)",
  async (mcp, t) => {
    await ensureTodoMvc();
    const fx = await startFixtureServer();
    /** The new-todo field's value and the todos' texts. */
    const state = async () =>
      (await mcp.ok("eval_js", {
        expression: "[document.querySelector('#new-todo').value, " +
          "[...document.querySelectorAll('#todo-list li label')].map((l) => l.textContent)]",
      })).value as [string, string[]];
    try {
      await t.step("type: two todos in one call, each with \\n", async () => {
        await mcp.ok("navigate", { url: fx.todomvcUrl("vue"), snapshot: "none" });
        await mcp.ok("click", { selector: "#new-todo", snapshot: "none" });
        await mcp.ok("type", { text: "Alpha\nBravo\n", snapshot: "none" });
        assertEquals(await state(), ["", ["Alpha", "Bravo"]]);
      });

      await t.step("fill with submit, three times: the field is empty after each", async () => {
        await mcp.ok("navigate", { url: fx.todomvcUrl("vue"), snapshot: "none" });
        await mcp.ok("eval_js", { expression: "localStorage.clear(); location.reload()" });
        await mcp.ok("wait_for", { selector: "#new-todo" });
        const ref = refOf(textOf(await mcp.call("snapshot")), /textbox "What needs to be done\?"/);
        const added: string[] = [];
        for (const todo of ["Charlie", "Delta", "Echo"]) {
          const r = await mcp.ok("fill", { ref, value: todo, submit: true, snapshot: "none" });
          assertEquals((r.element as { value: string }).value, "", `after ${todo}`);
          added.push(todo);
          assertEquals(await state(), ["", added]);
        }
      });
    } finally {
      await fx.close();
    }
  },
);

cases.test(
  "type and fill+Enter: a page that moves the focus during that turn gets no Enter",
  async (mcp, t) => {
    const fx = await startFixtureServer();
    const hits = (what: string) => fx.requests.filter((r) => r.path.includes(what)).length;
    try {
      await t.step(
        "type 'shoes\\n': Enter not pressed, the result says where the focus went",
        async () => {
          await mcp.ok("navigate", { url: fx.url("focus-thief.html"), snapshot: "none" });
          await mcp.ok("click", { selector: "#q", snapshot: "none" });
          const r = await mcp.call("type", { text: "shoes\n", snapshot: "none" });
          assertEquals(r.isError, true, textOf(r));
          assertIncludes(textOf(r), "Enter was not pressed");
          assertIncludes(textOf(r), '"Buy now"');
          assertEquals(hits("bought"), 0);
        },
      );

      await t.step("fill with submit: the same", async () => {
        await mcp.ok("navigate", { url: fx.url("focus-thief.html"), snapshot: "none" });
        const r = await mcp.call("fill", { selector: "#q", value: "shoes", submit: true });
        assertEquals(r.isError, true, textOf(r));
        assertIncludes(textOf(r), "Enter was not pressed");
        assertEquals(hits("bought"), 0);
      });

      await t.step("focus moved at once by the input handler (code boxes): typed on", async () => {
        await mcp.ok("navigate", { url: fx.url("focus-thief.html"), snapshot: "none" });
        await mcp.ok("click", { selector: "#otp1", snapshot: "none" });
        await mcp.ok("type", { text: "47\n", snapshot: "none" });
        const out = await mcp.ok("eval_js", {
          expression: "document.getElementById('out').textContent",
        });
        assertEquals(out.value, "code: 47");
      });
    } finally {
      await fx.close();
    }
  },
);
