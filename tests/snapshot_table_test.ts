/**
 * A table row is one line (`| a | b | button "Edit" [ref=e3]`), against Chromium's own
 * accessibility tree: the tables' roles (table, grid, treegrid), which rows are column headers
 * (`|---|` under them) and which cells row headers (`**bold**`), every inline ref's role and
 * name; a 3000-row table is 3000 lines; over MCP, a click in a row changes that row's one line,
 * and `text_search` scopes to a row.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { launchTestBrowser } from "./_harness.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio } from "./_mcp.ts";
import type { Page } from "../cdp/page.ts";
import { captureSnapshot } from "../browser/snapshot/capture.ts";
import { refsShownIn } from "../browser/snapshot/shown_refs.ts";
import { RefRegistry } from "../browser/snapshot/refs.ts";
import { axOfRef } from "./_ax.ts";
import { tablePage } from "../bench/stress_pages.ts";

const EXPECTED = `# Tables
- table "People"
  |  | Name | Age | Role | Actions
  |---|---|---|---|---|
  | checkbox "Select Alice" [ref=e1] | **Alice** | 34 | combobox "Role of Alice" [ref=e2]: admin (options: "admin", "editor") | button "Edit" [ref=e3] [Profile][ref=e4]
  | checkbox "Select Bob" [ref=e5] | **Bob** | 41 | editor | button "Edit" [ref=e6]
- table "Headers"
  | A | B
  |---|---|
  | **r1** | x
  | y | **r2**
  | p | **q** | **r**
  | **s** | **t** | u
- table "Odd cells"
  | What | Value
  |---|---|
  | a \\| b | textbox "Qty" [ref=e7]: 3
  - row
    Tags
    - cell
      * red
      * blue
- grid "Mail"
  | From | Subject
  |---|---|
  - row [ref=e8] [selected]: | Ann | Hello
  | Ben | Plans
- treegrid "Files"
  - row [ref=e9] [level=1] [expanded]: | src | folder
  - row [level=2]: | main.ts | file
After the tables.`;

interface AxNode {
  nodeId: string;
  role?: { value?: unknown };
  name?: { value?: unknown };
  ignored: boolean;
  childIds?: string[];
}

/**
 * Chromium's tables as ours should show them: per table `role "name"`, then per row `H` (every
 * cell a column header) or its cells' kinds, `R` a row header with a name, `c` any other cell.
 */
async function chromiumTables(page: Page): Promise<string[]> {
  const { nodes } = await page.session.send("Accessibility.getFullAXTree", {}) as {
    nodes: AxNode[];
  };
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const role = (n: AxNode) => String(n.role?.value ?? "");
  const out: string[] = [];
  const rowsOf = (n: AxNode): AxNode[] =>
    (n.childIds ?? []).flatMap((id) => {
      const c = byId.get(id);
      if (!c) return [];
      return role(c) === "row" ? [c] : rowsOf(c);
    });
  for (const t of nodes) {
    if (t.ignored || !["table", "grid", "treegrid"].includes(role(t))) continue;
    out.push(`${role(t)} "${t.name?.value ?? ""}"`);
    for (const row of rowsOf(t)) {
      const cells = (row.childIds ?? []).map((id) => byId.get(id)!).filter((c) =>
        c && /cell|header/.test(role(c))
      );
      if (cells.length && cells.every((c) => role(c) === "columnheader")) out.push("H");
      else {
        out.push(cells.map((c) => role(c) === "rowheader" && c.name?.value ? "R" : "c").join(""));
      }
    }
  }
  return out;
}

/** The same read from our text. */
function ourTables(text: string): string[] {
  const lines = text.split("\n").map((l) => l.trim());
  const out: string[] = [];
  lines.forEach((l, i) => {
    const table = /^- (table|grid|treegrid)(?: "(.*)")?$/.exec(l);
    if (table) return out.push(`${table[1]} "${table[2] ?? ""}"`);
    if (/^\|(?:---\|)+$/.test(l)) return;
    if (l === "- row") return out.push("*"); // a row in node form: its cells are lines
    const row = /^(?:- row[^:]*: )?(\|.*)$/.exec(l)?.[1];
    if (!row) return;
    if (/^\|(?:---\|)+$/.test(lines[i + 1] ?? "")) return out.push("H");
    const cells = row.slice(2).split(/(?<!\\) \| /);
    out.push(cells.map((c) => /^\*\*.+\*\*$/.test(c) ? "R" : "c").join(""));
  });
  return out;
}

/** Each ref in `text` against Chromium's role and name of its node. */
async function refProblems(page: Page, refs: RefRegistry, text: string): Promise<string[]> {
  // Shown to the agent (as the pipeline marks a result's refs): they may be resolved.
  refs.markShown(refsShownIn(text));
  const problems: string[] = [];
  for (const [, ref] of text.matchAll(/\[ref=(e\d+)\]/g)) {
    const entry = refs.get(ref!)!;
    const ax = await axOfRef(page, refs, ref!);
    if (ax.role !== entry.role || ax.name !== entry.name) {
      problems.push(`${ref}: ours ${entry.role} "${entry.name}", Chromium ${ax.role} "${ax.name}"`);
    }
  }
  return problems;
}

Deno.test("snapshot tables: a row a line, roles and refs as Chromium's tree has them", async (t) => {
  const fx = await startFixtureServer();
  const big = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(tablePage(3000).html, { headers: { "content-type": "text/html" } }),
  );
  const tb = await launchTestBrowser();
  try {
    const page = await tb.newPage();
    await t.step("tables.html: rows, headers, target rows, a row in node form", async () => {
      await page.navigate(fx.url("tables.html"));
      const refs = new RefRegistry();
      const { text } = await captureSnapshot(page, refs);
      assertEquals(text, EXPECTED);
      // Chromium's tree, with the row in node form ("*") and its cells left to its lines.
      const theirs = await chromiumTables(page);
      const ours = ourTables(text);
      assertEquals(ours.length, theirs.length, `${ours} / ${theirs}`);
      assertEquals(ours.map((o, i) => o === "*" ? theirs[i] : o), theirs);
      assertEquals(await refProblems(page, refs, text), []);
    });
    await t.step("3000 rows: one line each, the header once, every Buy button's ref", async () => {
      await page.navigate(`http://127.0.0.1:${big.addr.port}/`);
      const refs = new RefRegistry();
      const snap = await captureSnapshot(page, refs);
      const lines = snap.text.split("\n");
      assertEquals(lines.length, 1 + 1 + 2 + 3000 + 1);
      assertEquals(lines.slice(1, 5), [
        "- table",
        "  | Item | Price | Action",
        "  |---|---|---|",
        '  | Item 0 | 10 EUR | button "Buy 0" [ref=e1]',
      ]);
      assertEquals(lines[3003], '  | Item 2999 | 39 EUR | button "Buy 2999" [ref=e3000]');
      assertEquals(snap.refCount, 3000);
    });
  } finally {
    await tb.close();
    await big.shutdown();
    await fx.close();
  }
});

Deno.test("snapshot tables over MCP: a click in a row is that row's line; text_search's row", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,power" } });
  try {
    const nav = await mcp.ok("navigate", { url: fx.url("tables.html") });
    const tree = String((nav.snapshotDelta as Record<string, unknown>).tree);
    const bob = /checkbox "Select Bob" \[ref=(e\d+)\]/.exec(tree)![1]!;
    const r = await mcp.ok("click", { ref: bob });
    const delta = r.snapshotDelta as Record<string, unknown>;
    const edit = /checkbox "Select Bob".* button "Edit" \[ref=(e\d+)\]/.exec(tree)![1]!;
    // The row's one line, in its new form: not a row node and its cells' lines.
    assertEquals(
      delta.tree,
      `  - table "People"\n+   | checkbox "Select Bob" [ref=${bob}] [checked] | **Bob** | 41 | ` +
        `editor | button "Edit" [ref=${edit}]`,
    );
    const found = await mcp.ok("text_search", { query: "main.ts" });
    const [m] = found.matches as Array<{ sectionRef: string }>;
    assertEquals(
      String((await mcp.ok("snapshot", { ref: m!.sectionRef })).tree),
      "- row [level=2]: | main.ts | file",
    );
    // A row of a table with a header row: the header comes first, so its numbers keep their
    // meaning.
    const alice = await mcp.ok("text_search", { query: "Alice" });
    const row = (alice.matches as Array<{ sectionRef: string }>)[0]!.sectionRef;
    const scoped = String((await mcp.ok("snapshot", { ref: row })).tree).split("\n");
    assertEquals(scoped[0], "|  | Name | Age | Role | Actions", scoped.join("\n"));
    assertIncludes(scoped.slice(1).join("\n"), "**Alice** | 34");
    // Bad input: a ref that is no row's, nor anything's.
    const bad = await mcp.call("snapshot", { ref: "e99999" });
    assertTrue(bad.isError === true, JSON.stringify(bad));
    assertIncludes(JSON.stringify(bad.content), "e99999");
  } finally {
    await mcp.close();
    await fx.close();
  }
});
