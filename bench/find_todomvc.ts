/**
 * `find`'s top-1 on every TodoMVC app of the npm `todomvc` package that runs offline: each app
 * gets two todos ("Buy milk", "Walk dog") typed as a user does, then the queries "delete <todo>"
 * and "toggle <todo>" for both go through the ranker the tool uses
 * (`browser/find/find_elements.ts`). The expected element is the `.destroy` button or the
 * `.toggle` checkbox (or an element inside it) of the row holding the todo's text (the TodoMVC markup every app shares).
 * Prints one line per app and the totals; apps that do not render a new-todo field or list the
 * todos in 8 s are listed as skipped.
 *
 * Run: `deno run -A bench/find_todomvc.ts [--only dojo,react,…]`
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { ensureTodoMvc } from "../tests/fixtures/todomvc.ts";
import { launchTestBrowser } from "../tests/_harness.ts";
import { startPageServer } from "./page_server.ts";
import { staticSkip } from "./todomvc_all.ts";
import type { Page } from "../cdp/page.ts";
import { findElements } from "../browser/find/find_elements.ts";
import { FindMemory } from "../browser/find/memory.ts";
import { RefRegistry } from "../browser/snapshot/refs.ts";
import { resolveRef } from "../browser/snapshot/resolve.ts";
import { releaseHandle } from "../browser/injected/mod.ts";
import { poll } from "../browser/poll.ts";

const TODOS = ["Buy milk", "Walk dog"];
const INPUT = "#new-todo, .new-todo, input[placeholder='What needs to be done?']";

/** The expected element's test: `.destroy`/`.toggle` inside the row whose text has the todo. */
const EXPECT = `function(kind, todo) {
  let row = this.closest("li, tr, [role=listitem], [role=row]");
  // A widget kit's checkbox may be an input inside the classed box (dijit's CheckBox).
  let own = this.closest(kind);
  return !!row && !!own && row.contains(own) && row.textContent.includes(todo);
}`;

async function isExpected(page: Page, refs: RefRegistry, ref: string, kind: string, todo: string) {
  const handle = await resolveRef(page, refs, ref);
  try {
    const r = await handle.session.send("Runtime.callFunctionOn", {
      functionDeclaration: EXPECT,
      objectId: handle.objectId,
      arguments: [{ value: kind }, { value: todo }],
      returnByValue: true,
    });
    return r.result.value === true;
  } finally {
    releaseHandle(handle);
  }
}

async function addTodo(page: Page, text: string) {
  await page.evaluate(
    `(e => { e.focus(); e.select(); })(document.querySelector(${JSON.stringify(INPUT)}))`,
  );
  await page.session.send("Input.insertText", { text });
  for (const type of ["keyDown", "keyUp"] as const) {
    await page.session.send("Input.dispatchKeyEvent", {
      type,
      key: "Enter",
      code: "Enter",
      windowsVirtualKeyCode: 13,
      ...(type === "keyDown" ? { text: "\r" } : {}),
    });
  }
}

function until(page: Page, expr: string): Promise<boolean> {
  return poll(async () => await page.evaluate(expr).catch(() => false) === true, {
    timeoutMs: 8000,
    intervalMs: 100,
  });
}

if (import.meta.main) {
  const { values } = parseArgs({ args: Deno.args, options: { only: { type: "string" } } });
  const root = await ensureTodoMvc();
  const examples = join(root, "examples");
  const only = values.only ? new Set(values.only.split(",")) : undefined;
  const apps = [...Deno.readDirSync(examples)].filter((e) => e.isDirectory).map((e) => e.name)
    .filter((a) => !only || only.has(a)).sort();
  const pages = startPageServer({ todomvcDir: root });
  const tb = await launchTestBrowser();
  const total: Record<string, [number, number]> = { delete: [0, 0], toggle: [0, 0] };
  const skipped: string[] = [];
  try {
    for (const app of apps) {
      if (await staticSkip(examples, app)) continue;
      // A context per app: each app's localStorage starts empty.
      const context = await tb.browser.createContext();
      const page = await tb.newPage(context);
      try {
        await page.navigate(pages.url(`/todomvc/examples/${app}/`));
        if (!await until(page, `!!document.querySelector(${JSON.stringify(INPUT)})`)) {
          skipped.push(`${app} (no new-todo field)`);
          continue;
        }
        for (const t of TODOS) await addTodo(page, t);
        const listed = `[...document.querySelectorAll(".toggle")].filter(e =>
          /Buy milk|Walk dog/.test(e.closest("li, tr, [role=listitem]")?.textContent ?? "")).length >= 2`;
        if (!await until(page, listed)) {
          skipped.push(`${app} (todos not listed)`);
          continue;
        }
        const refs = new RefRegistry();
        const cells: string[] = [];
        for (const [verb, kind] of [["delete", ".destroy"], ["toggle", ".toggle"]] as const) {
          for (const todo of TODOS) {
            const answer = await findElements(page, { query: `${verb} ${todo}`, limit: 3 }, {
              refs,
              memory: new FindMemory(),
            });
            // Shown to the agent (as the pipeline marks a result's refs): resolvable.
            refs.markShown(answer.candidates.map((c) => c.ref));
            const top = answer.candidates[0];
            const ok = !!top && await isExpected(page, refs, top.ref, kind, todo);
            total[verb]![1]++;
            if (ok) total[verb]![0]++;
            cells.push(
              ok ? "ok" : `MISS ${verb} ${todo} → ${top?.role} "${top?.name}" ${top?.score}`,
            );
          }
        }
        console.log(`${app.padEnd(24)} ${cells.filter((c) => c !== "ok").join(" | ") || "ok"}`);
      } catch (e) {
        // An app that reloads itself while typed into (ariatemplates, at times): not measured.
        skipped.push(`${app} (${String(e).slice(0, 60)})`);
      } finally {
        await tb.browser.disposeContext(context).catch(() => {});
      }
    }
  } finally {
    await tb.close();
    await pages.close();
  }
  for (const [verb, [ok, n]] of Object.entries(total)) {
    console.log(`${verb} <todo>: top-1 ${ok}/${n} (${(100 * ok / Math.max(1, n)).toFixed(1)}%)`);
  }
  if (skipped.length) console.log(`skipped: ${skipped.join(", ")}`);
}
