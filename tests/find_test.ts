/**
 * `find` and `find_feedback` end to end over MCP on real Chromium: candidates with refs that
 * `click` takes, selector hints that `click({ selector })` takes, warnings for close and
 * hidden-only matches, a scoped search, the token budget of a simple answer (under 300 o200k
 * tokens), feedback that outlives a reload, and bad input.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { type McpHarness, startStdio, textOf } from "./_mcp.ts";
import { APP_PAGE } from "./fixtures/find_pages.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { ensureTodoMvc } from "./fixtures/todomvc.ts";
import { eventually } from "./_util.ts";
import { countTokens } from "../bench/tokens.ts";
import { parseAuditLog } from "../policy/audit.ts";
import { join } from "./_paths.ts";
import { sharedSiteCases } from "./_shared_cases.ts";

import type { FindCandidate as Candidate } from "../browser/find/find_elements.ts";

type R = Record<string, unknown>;

// One server (toolsets core, and sessions to close each case's sessions) and fixture site for
// the cases on TodoMVC and the long table.
const cases = sharedSiteCases("find on TodoMVC and a long table, one server", {
  env: { BROWX_TOOLSETS: "core,sessions" },
});

Deno.test("find: ranked candidates to act on, warnings, feedback, bad input (MCP)", async (t) => {
  let clicks = 0;
  const page = APP_PAGE.replace(
    "</body>",
    `<p id="log">none</p><script>document.addEventListener("click", (e) => {
      const b = e.target.closest("button");
      if (b) document.getElementById("log").textContent = "pressed " + b.textContent.trim() +
        " in " + (b.closest("[aria-label]")?.getAttribute("aria-label") ?? "page");
    });</script></body>`,
  );
  // Field values and editable content are never text about an element (they may be secrets).
  const valuesPage = `<!doctype html><title>Values</title><div class="composer">
    <textarea aria-label="Message">zq-draft-value</textarea>
    <div contenteditable="true" aria-label="Notes">zq-notes-value</div>
    <input aria-label="Code" value="zq-input-value"> <button type="button">Send</button></div>`;
  const own = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    clicks++;
    const html = new URL(req.url).pathname === "/values" ? valuesPage : page;
    return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
  });
  const url = `http://127.0.0.1:${own.addr.port}/app`;
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,power" } });
  const find = async (args: R) => {
    const r = await mcp.call("find", args);
    assertTrue(!r.isError, `find ${JSON.stringify(args)} failed: ${textOf(r)}`);
    return {
      text: textOf(r),
      ...(r.structuredContent as { candidates: Candidate[]; warnings?: string[] }),
    };
  };
  try {
    await mcp.ok("navigate", { url, snapshot: "none" });

    await t.step("a simple query: the element, a verified hint, under 300 tokens", async () => {
      const a = await find({ query: "Save button in the editor toolbar" });
      const top = a.candidates[0]!;
      assertEquals([top.role, top.name], ["button", "Save"]);
      assertEquals(top.selectorHint, '[data-testid="editor-save"]');
      assertEquals([top.selectorTier, top.stability], ["testid", "high"]);
      assertEquals([top.actionable, top.inViewport], [true, true]);
      assertIncludes(top.why, "Editor");
      assertTrue(a.candidates.length <= 5, "at most the default limit");
      for (const text of [a.text, (await find({ query: "email field" })).text]) {
        const tokens = countTokens(text);
        assertTrue(tokens < 300, `a simple answer is ${tokens} o200k tokens:\n${text}`);
      }
      const clicked = await mcp.ok("click", { ref: top.ref });
      assertEquals(clicked.ok, true);
      assertEquals((await mcp.ok("wait_for", { text: "pressed Save in Editor" })).ok, true);
    });

    await t.step("the same refs as the snapshot's", async () => {
      const a = await find({ query: "Sign in", limit: 1 });
      const tree = String((await mcp.ok("snapshot")).tree);
      assertIncludes(tree, `button "Sign in" [ref=${a.candidates[0]!.ref}]`);
      const again = await find({ query: "Sign in", limit: 1 });
      assertEquals(again.candidates[0]!.ref, a.candidates[0]!.ref);
    });

    await t.step("a text hint is a selector click takes", async () => {
      const a = await find({ query: "Italic", limit: 1 });
      const top = a.candidates[0]!;
      assertEquals([top.selectorHint, top.selectorTier], ['text="Italic"', "text"]);
      const r = await mcp.ok("click", { selector: top.selectorHint });
      assertEquals(r.ok, true);
      assertEquals((await mcp.ok("wait_for", { text: "pressed Italic in Editor" })).ok, true);
    });

    await t.step("near-duplicates: ordinal and row context; close ones warn", async () => {
      const second = await find({ query: "second Delete in the Orders table", limit: 3 });
      assertIncludes(second.candidates[0]!.why, "2nd of 3");
      const bob = await find({ query: "Delete button for Bob", limit: 3 });
      assertEquals(bob.candidates[0]!.ref, second.candidates[0]!.ref);
      const save = await find({ query: "Save", limit: 3 });
      assertTrue(save.candidates.length >= 2, "two Save buttons");
      assertIncludes((save.warnings ?? []).join(" "), "top two are close");
    });

    await t.step("a visible match beats a hidden one; hidden only warns", async () => {
      const exp = await find({ query: "Export", limit: 3 });
      assertEquals(exp.candidates[0]!.actionable, true);
      const hidden = exp.candidates.find((c) => c.why.includes("hidden"));
      assertTrue(
        hidden && hidden.score < exp.candidates[0]!.score,
        "the hidden Export ranks lower",
      );
      const print = await find({ query: "Print menu item", limit: 2 });
      assertEquals(print.candidates[0]!.actionable, false);
      assertIncludes((print.warnings ?? []).join(" "), "no visible match");
    });

    await t.step("contextRef scopes the search; role filters", async () => {
      const dlg = await find({ query: "Confirm delete dialog", limit: 1 });
      assertEquals(dlg.candidates[0]!.role, "dialog");
      const inside = await find({ query: "Delete", contextRef: dlg.candidates[0]!.ref });
      assertEquals(inside.candidates.length, 1, JSON.stringify(inside.candidates));
      const links = await find({ query: "Contact us", role: "link" });
      assertTrue(links.candidates.every((c) => c.role === "link"), "only links");
    });

    await t.step("find_feedback: the chosen element ranks first, across a reload", async () => {
      const before = await find({ query: "Save", limit: 3 });
      const other = before.candidates[1]!;
      const fb = await mcp.ok("find_feedback", { query: "Save", ref: other.ref });
      assertEquals((fb.remembered as R).ref, other.ref);
      const after = await find({ query: "save", limit: 3 });
      assertEquals(after.candidates[0]!.ref, other.ref);
      assertIncludes(after.candidates[0]!.why, 'you chose it for "Save"');
      await mcp.ok("reload", { snapshot: "none" });
      const reloaded = await find({ query: "the Save", limit: 3 });
      assertEquals(reloaded.candidates[0]!.name, "Save");
      assertIncludes(reloaded.candidates[0]!.why, "you chose it");
      assertTrue(reloaded.candidates[0]!.ref !== other.ref, "a new document, new refs");
      // Saying it is wrong puts it down again.
      await mcp.ok("find_feedback", {
        query: "Save",
        ref: reloaded.candidates[0]!.ref,
        correct: false,
      });
      const wrong = await find({ query: "Save", limit: 3 });
      assertTrue(wrong.candidates[0]!.ref !== reloaded.candidates[0]!.ref, "no longer first");
      // Audited like every call.
      let text = "";
      for await (const f of Deno.readDir(join(mcp.workspace, "audit"))) {
        text += await Deno.readTextFile(join(mcp.workspace, "audit", f.name));
      }
      const tools = parseAuditLog(text).entries.map((e) => e.tool);
      assertEquals(tools.filter((x) => x === "find_feedback").length, 2);
      assertTrue(tools.includes("find"), "find is audited");
    });

    await t.step("field values and editable content never show in an answer", async () => {
      await mcp.ok("navigate", { url: url.replace("/app", "/values"), snapshot: "none" });
      for (
        const query of [
          "Send next to zq draft",
          "Send button next to the message",
          "notes",
          "code field",
        ]
      ) {
        const a = await find({ query });
        assertTrue(a.candidates.length > 0, query);
        assertTrue(!/zq-\w+-value/.test(a.text), `a value shows for "${query}": ${a.text}`);
      }
      await mcp.ok("navigate", { url, snapshot: "none" });
    });

    await t.step("inside batch: find, then click its ref", async () => {
      const b = await mcp.ok("batch", {
        calls: [{ tool: "find", args: { query: "Bold button", limit: 1 } }],
      });
      const entry = (b.results as Array<{ ok: boolean; result: { candidates: Candidate[] } }>)[0]!;
      assertEquals(entry.ok, true);
      const ref = entry.result.candidates[0]!.ref;
      assertEquals((await mcp.ok("click", { ref })).ok, true);
      assertEquals((await mcp.ok("wait_for", { text: "pressed Bold in Editor" })).ok, true);
    });

    await t.step("every frame: a same-origin iframe and an out-of-process one", async () => {
      const cross = encodeURIComponent(fx.crossUrl("frame-child.html"));
      await mcp.ok("navigate", { url: fx.url(`iframes.html?cross=${cross}`), snapshot: "none" });
      const both = await eventually(
        async () => {
          const a = await find({ query: "Inner button", limit: 3 });
          return a.candidates.filter((c) => c.name === "Inner button").length === 2 && a;
        },
        5000,
        "both frames' Inner button",
      );
      const [first, second] = both.candidates;
      assertTrue(first!.ref !== second!.ref, "two elements");
      // The same selector would land in the first frame: the second one gets no hint.
      assertEquals(first!.selectorHint, "#inner-button");
      assertEquals([second!.selectorHint, second!.selectorTier], [undefined, "none"]);
      assertEquals((await mcp.ok("click", { ref: second!.ref })).ok, true);
      // The iframe's title says where its elements are: "in the cross origin frame".
      for (const [where, ref] of [["cross origin", second!.ref], ["same origin", first!.ref]]) {
        const a = await find({ query: `Inner button in the ${where} frame`, limit: 2 });
        assertEquals(a.candidates[0]!.ref, ref, `${where}: ${a.text}`);
        assertIncludes(a.candidates[0]!.why, "frame");
        assertTrue(a.candidates[0]!.score - a.candidates[1]!.score >= 0.05, a.text);
      }
      await mcp.ok("navigate", { url, snapshot: "none" });
    });

    await t.step("bad input: empty query, limit 0, unknown contextRef, a gone ref", async () => {
      const cases: Array<[string, R, string]> = [
        ["find", { query: "" }, "Empty query"],
        ["find", { query: "the a" }, "only filler words"],
        ["find", { query: "Save", limit: 0 }, "limit"],
        ["find", { query: "Save", contextRef: "e99999" }, "e99999"],
        ["find", { query: "Save", contextRef: "nonsense" }, "not a ref"],
      ];
      const a = await find({ query: "Sign in", limit: 1 });
      await mcp.ok("reload", { snapshot: "none" });
      cases.push(["find_feedback", { query: "Sign in", ref: a.candidates[0]!.ref }, "navigated"]);
      for (const [tool, args, expect] of cases) {
        const r = await mcp.call(tool, args);
        assertEquals(r.isError, true, `${tool} ${JSON.stringify(args)}: ${textOf(r)}`);
        assertIncludes(textOf(r), expect);
      }
      // Still serving.
      assertEquals((await find({ query: "Sign in" })).candidates[0]!.name, "Sign in");
    });
  } finally {
    await mcp.close();
    await own.shutdown();
    await fx.close();
  }
  assertTrue(clicks >= 1, "the page was served");
});

/** `find` with a limit of 3 over `mcp`: the answer and its text (an error fails the test). */
function findTop3(mcp: McpHarness) {
  return async (query: string) => {
    const r = await mcp.call("find", { query, limit: 3 });
    assertTrue(!r.isError, `find "${query}" failed: ${textOf(r)}`);
    type Answer = { candidates: Candidate[]; warnings?: string[] };
    return { text: textOf(r), ...(r.structuredContent as Answer) };
  };
}

cases.test("find: a todo by its row's text, plain text, and an empty answer (TodoMVC, MCP)", async ({ fx, mcp }) => {
  await ensureTodoMvc();
  const find = findTop3(mcp);
  // Role and the hint: "2" when the hint names the second todo's row, else the hint.
  const where = (c: Candidate) =>
    `${c.role} ${c.selectorHint?.includes("li:nth-of-type(2)") ? "2" : c.selectorHint}`;
  for (const app of ["vanillajs", "vue", "react"]) {
    const nav = await mcp.ok("navigate", { url: fx.todomvcUrl(app) });
    const navTree = String((nav.snapshotDelta as R).tree);
    const box = /textbox "What needs to be done\?"[^\n]*\[ref=(e\d+)\]/.exec(navTree)?.[1];
    assertTrue(box, `${app}: the new-todo box in ${navTree}`);
    for (const todo of ["Buy milk", "Walk dog", "Write report"]) {
      await mcp.ok("fill", { ref: box, value: todo, submit: true, snapshot: "none" });
    }
    await mcp.ok("wait_for", { text: "3 items left" });
    const expected: Array<[string, string]> = [
      ["Walk dog checkbox", "checkbox 2"],
      ["Walk dog", 'generic text="Walk dog"'],
      ["delete Walk dog", "button 2"],
      ["checkbox for Walk dog", "checkbox 2"],
      ["the checkbox next to Walk dog", "checkbox 2"],
      ["Write report", 'generic text="Write report"'],
    ];
    for (const [query, part] of expected) {
      const a = await find(query);
      assertTrue(a.candidates.length > 0, `${app} "${query}": ${a.text}`);
      assertEquals(where(a.candidates[0]!), part, `${app} "${query}": ${a.text}`);
    }
    // The candidate's ref acts: the checkbox found by its row's text is the row's.
    const top = (await find("Walk dog checkbox")).candidates[0]!;
    await mcp.ok("click", { ref: top.ref, snapshot: "none" });
    await mcp.ok("wait_for", { text: "2 items left" });
    const tree = String((await mcp.ok("snapshot")).tree);
    assertTrue(
      new RegExp(`checkbox \\[ref=${top.ref}\\][^\\n]*\\[checked\\][^\\n]*\\n[^\\n]*Walk dog`)
        .test(tree),
      `${app}: the Walk dog checkbox is checked:\n${tree}`,
    );
    // Nothing matches: an empty list still, and the warning.
    const none = await find("zebra quokka");
    assertEquals(none.candidates, []);
    assertIncludes(none.text, '"candidates":[]');
    assertIncludes((none.warnings ?? []).join(" "), "nothing on the page matches");
  }
});

cases.test("find: a long table's row, a control by its row's phrase, a control over its item (MCP)", async ({ fx, mcp }) => {
  const find = findTop3(mcp);
  await mcp.ok("navigate", { url: fx.url("find-table.html"), snapshot: "none" });
  // "row" names a role: the row itself is a candidate, the one whose text has "Item 270"
  // together first (row 90, "Item 90 | 270 units", has the words apart).
  for (const query of ["Item 270 row", "row Item 270"]) {
    const a = await find(query);
    const top = a.candidates[0];
    assertEquals([top?.role, top?.name], ["row", "Item 270 810 units Edit Delete"], a.text);
  }
  // Both Delete buttons carry "Delete" and their rows "Item" and "270": the row where they
  // stand together wins, clearly (no "top two are close").
  const del = await find("Delete Item 270");
  assertEquals(del.candidates[0]!.name, "Delete", del.text);
  assertIncludes(del.candidates[0]!.why, "Item 270 810 units");
  assertTrue(!(del.warnings ?? []).join(" ").includes("close"), del.text);
  // "row" asks for a row, but a row's words are its own, not its buttons': "Delete row 5" is
  // the Delete button in row 5.
  const row5 = await find("Delete row 5");
  assertEquals([row5.candidates[0]!.role, row5.candidates[0]!.name], ["button", "Delete"]);
  assertIncludes(row5.candidates[0]!.why, "Item 5 15 units");
  // The control the query names, not the item that holds all the words (its own and the
  // button's).
  const edit = await find("edit Walk dog");
  assertEquals([edit.candidates[0]!.role, edit.candidates[0]!.name], ["button", "edit"]);
  assertIncludes(edit.candidates[0]!.why, "Walk dog");
});
