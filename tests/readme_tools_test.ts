/**
 * The README's tools table names every tool browxai serves (`tools/mod.ts`), with the
 * toolset that lists it and the capability it declares: a tool missing from it (flake_check
 * was) is a tool users cannot find, a wrong toolset sends them to the wrong `BROWX_TOOLSETS`,
 * and a wrong capability to the wrong switch.
 *
 * A row is `| tools | toolset | capability | what it does |`: the first cell names its tools
 * in backticks (`` `a`, `b` `` or a `` `prefix_*` `` pattern), the toolset cell is one toolset
 * name (every tool of the row is in it), the capability cell is the capability or
 * `cap/cap` when the row's tools differ. Cells are found by the header's names, so the
 * columns may be reordered; a row with fewer cells than the header fails, naming the row.
 *
 * The counts its prose states (every tool, the default list's) are `tools/list`'s: they drifted
 * (101 and 24 said while 110 and 25 were listed).
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { ALL_TOOLS, listedTools } from "../tools/mod.ts";
import { DEFAULT_TOOLSETS } from "../policy/toolsets.ts";
import { DEFAULT_CAPABILITIES } from "../policy/capabilities.ts";
import { ROOT } from "./_mcp.ts";
import { join } from "./_paths.ts";

/** One row of the table: its tool names (or `prefix_*` patterns), toolset and capability cells. */
interface Row {
  line: string;
  names: string[];
  toolset: string | undefined;
  capability: string | undefined;
}

/** The cells of a markdown table line, trimmed. */
function cells(line: string): string[] {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
}

/** The table's rows, cells found by the header's column names (`tool`, `toolset`, `capability`). */
function readmeRows(readme: string): Row[] {
  const section = readme.split("\n## Tools\n")[1]!.trimStart().split("\n\n")[0]!;
  const [header = "", , ...lines] = section.split("\n");
  const columns = cells(header);
  const at = (name: string) => columns.indexOf(name);
  assertEquals(
    ["tool", "toolset", "capability"].filter((c) => at(c) < 0),
    [],
    "the table's header lacks columns",
  );
  return lines.map((line) => {
    const row = cells(line);
    return {
      line,
      names: [...(row[at("tool")] ?? "").matchAll(/`([a-z_*]+)`/g)].map((m) => m[1]!),
      toolset: row.length === columns.length ? row[at("toolset")] : undefined,
      capability: row.length === columns.length ? row[at("capability")] : undefined,
    };
  });
}

/** The capability cell's spelling of a tool's capability (the column is narrow). */
const SHORT: Record<string, string> = { "self-approval": "self-appr." };

Deno.test("README: the tools table names every tool with its toolset and capability", async () => {
  const rows = readmeRows(await Deno.readTextFile(join(ROOT, "README.md")));
  assertEquals(
    rows.filter((r) => r.toolset === undefined).map((r) => r.line.slice(0, 80)),
    [],
    "rows whose cells do not match the header (| tool | toolset | capability | what it does |)",
  );
  const missing: string[] = [];
  const wrong: string[] = [];
  const wrongSet: string[] = [];
  for (const tool of ALL_TOOLS) {
    const row = rows.find((r) =>
      r.names.some((n) => n.endsWith("*") ? tool.name.startsWith(n.slice(0, -1)) : n === tool.name)
    );
    if (!row) {
      missing.push(tool.name);
      continue;
    }
    const shown = SHORT[tool.capability] ?? tool.capability;
    if (!row.capability!.split("/").includes(shown)) {
      wrong.push(`${tool.name}: ${row.capability} (declares ${tool.capability})`);
    }
    if (row.toolset !== tool.toolset) {
      wrongSet.push(`${tool.name}: ${row.toolset} (is in ${tool.toolset})`);
    }
  }
  assertEquals(missing, [], "tools missing from the README's table");
  assertEquals(wrong, [], "tools whose capability the table gets wrong");
  assertEquals(wrongSet, [], "tools whose toolset the table gets wrong");
});

Deno.test("README: the tool counts its prose states are tools/list's", async () => {
  // Whitespace collapsed: a count and its words may be wrapped onto two lines.
  const readme = (await Deno.readTextFile(join(ROOT, "README.md"))).replace(/\s+/g, " ");
  // Every toolset and every capability (BROWX_TOOLSETS=all BROWX_CAPABILITIES=all).
  const every = ALL_TOOLS.length;
  const lean = listedTools(new Set(DEFAULT_TOOLSETS), {
    capabilities: new Set(DEFAULT_CAPABILITIES),
  }).length;
  assertTrue(
    readme.includes(`0 warnings on all ${every} with every toolset`),
    `every toolset has ${every} tools: README's "0 warnings on all N with every toolset" differs`,
  );
  assertTrue(
    new RegExp(`default [\\d,]+ \\(${lean} tools;`).test(readme),
    `the default tools/list has ${lean} tools: README's "default N (M tools; …)" says otherwise`,
  );
  assertTrue(
    new RegExp(`every toolset and capability [\\d,]+ \\(${every} tools;`).test(readme),
    `every toolset has ${every} tools: README's "every toolset and capability N (M tools" differs`,
  );
  // Any other "N tools" is one of the two; the bench table's "(21 vs 25 tools)" are one run's
  // measures beside the peer's, and stay as measured.
  const stray = [...readme.matchAll(/(?<!vs )\b(\d+) tools\b/g)].map((m) => Number(m[1]))
    .filter((n) => n !== every && n !== lean);
  assertEquals(stray, [], `tool counts neither every tool (${every}) nor the default (${lean})`);
});
