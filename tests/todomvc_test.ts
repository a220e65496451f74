/**
 * A real app written by others: add, toggle and filter todos in the React,
 * Vue and vanilla JS TodoMVC apps from the npm `todomvc` package, checking
 * the page state after each step — through MCP, the way an agent drives it.
 * Then the bench's TodoMVC flow (`bench/todomvc_flow.ts`, run on every app of
 * the package by `bench/todomvc_all.ts`) on six apps of other kinds, checked
 * on what the results themselves say.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { ensureTodoMvc, TODOMVC_APPS } from "./fixtures/todomvc.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { refOf } from "./_util.ts";
import { type FlowClient, runTodoFlow } from "../bench/todomvc_flow.ts";

type R = Record<string, unknown>;

Deno.test("todomvc: add, toggle and filter in React, Vue and vanilla JS", async (t) => {
  await ensureTodoMvc();
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const state = async (session: string) =>
    (await mcp.ok("eval_js", {
      session,
      expression: `({
        items: [...document.querySelectorAll("#todo-list li")].map((li) => ({
          text: li.querySelector("label").textContent.trim(),
          done: li.classList.contains("completed"),
          shown: li.offsetParent !== null,
        })),
        count: document.querySelector("#todo-count")?.textContent.replace(/\\s+/g, " ").trim(),
      })`,
    })).value as { items: Array<{ text: string; done: boolean; shown: boolean }>; count: string };
  try {
    for (const [name, app] of Object.entries(TODOMVC_APPS)) {
      await t.step(name, async () => {
        const session = `todo-${name}`;
        await mcp.ok("open_session", { session, url: fx.todomvcUrl(app.folder) });
        await mcp.ok("wait_for", { session, selector: "#new-todo" });
        let tree = String((await mcp.ok("snapshot", { session })).tree);
        const input = refOf(tree, /textbox "What needs to be done\?"/);

        // Add two todos with fill + Enter, as a user would.
        for (const text of ["Buy milk", "Walk the dog"]) {
          const r = await mcp.ok("fill", { session, ref: input, value: text, submit: true });
          assertEquals(r.ok, true);
          // The app answered Enter (a new item): nothing to warn of.
          assertEquals(r.warnings, [], `${name}: ${JSON.stringify(r.warnings)}`);
        }
        let s = await state(session);
        assertEquals(s.items.map((i) => i.text), ["Buy milk", "Walk the dog"]);
        assertIncludes(s.count, "2 items left");

        // Toggle the first one through its checkbox ref from a fresh snapshot.
        tree = String((await mcp.ok("snapshot", { session })).tree);
        const toggles = tree.split("\n").filter((l) =>
          /checkbox/.test(l) && /\[ref=e\d+\]/.test(l) && !/toggle all|Mark all/i.test(l)
        );
        assertTrue(toggles.length >= 2, tree);
        const first = /\[ref=(e\d+)\]/.exec(toggles[toggles.length - 2]!)![1]!;
        const toggled = await mcp.ok("click", { session, ref: first });
        assertEquals(toggled.ok, true);
        s = await state(session);
        assertEquals(s.items.map((i) => i.done), [true, false]);
        assertIncludes(s.count, "1 item left");
        assertTrue(
          String((toggled.snapshotDelta as R).tree ?? "").length > 0,
          "the delta shows the change",
        );

        // Filter: Active shows only the open todo, Completed only the done one.
        const active = await mcp.ok("click", { session, selector: "#filters a[href$='active']" });
        assertEquals((active.navigation as R).kind, "hash");
        s = await state(session);
        assertEquals(s.items.filter((i) => i.shown).map((i) => i.text), ["Walk the dog"]);
        await mcp.ok("click", { session, selector: "#filters a[href$='completed']" });
        s = await state(session);
        assertEquals(s.items.filter((i) => i.shown).map((i) => i.text), ["Buy milk"]);
        tree = String((await mcp.ok("snapshot", { session })).tree);
        assertIncludes(tree, "Buy milk");
        // (Vue 0.11 may leave the last text in the new-todo box: look at the list, not the input.)
        const listLines = tree.split("\n").filter((l) => !/textbox/.test(l));
        assertTrue(
          !listLines.some((l) => l.includes("Walk the dog")),
          `hidden todo shown:\n${tree}`,
        );
        await mcp.ok("close_session", { session });
      });
    }
  } finally {
    await mcp.close();
    await fx.close();
  }
});

/**
 * Apps of six kinds: plain JS, a virtual DOM, two-way binding, a view/model library, a
 * framework with its own run loop, and an AMD app that fetches its templates after the load.
 */
const FLOW_APPS = ["vanillajs", "react", "angularjs", "backbone", "emberjs", "flight"];

Deno.test("todomvc: each result shows what the step did, in six kinds of app", async (t) => {
  await ensureTodoMvc();
  const fx = await startFixtureServer();
  const mcp = await startStdio();
  const client: FlowClient = {
    async call(tool, args = {}) {
      const t0 = performance.now();
      const r = await mcp.call(tool, args);
      return {
        ms: performance.now() - t0,
        text: textOf(r),
        isError: r.isError === true,
        structured: r.structuredContent,
      };
    },
  };
  try {
    for (const app of FLOW_APPS) {
      await t.step(app, async () => {
        const r = await runTodoFlow(client, "browxai", fx.todomvcUrl(app), {
          session: `flow-${app}`,
          // flight wires its handlers only once its templates came (after the load): opened
          // with its URL, the session answers when the app is ready, as navigate does.
          openWithUrl: app === "flight",
        });
        // The open's answer says whether the page had settled (its warnings): shown on failure.
        assertTrue(
          r.ok,
          `${app}: ${r.failed?.step}: ${r.failed?.why}\nopened: ${r.navigateText.slice(0, 600)}`,
        );
        // All five steps were taken and checked (none skipped as not applicable).
        assertEquals(r.steps.map((s) => s.notApplicable === undefined), [
          true,
          true,
          true,
          true,
          true,
        ]);
      });
    }
  } finally {
    await mcp.close();
    await fx.close();
  }
});
