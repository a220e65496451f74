/**
 * The README's tools table names every tool browxai serves (`tools/mod.ts`), with the
 * capability the tool declares: a tool missing from it (flake_check was) is a tool users
 * cannot find, and a wrong capability sends the operator to the wrong switch.
 */
import { assertEquals } from "./_assert.ts";
import { ALL_TOOLS } from "../tools/mod.ts";
import { ROOT } from "./_mcp.ts";
import { join } from "./_paths.ts";

/** The table's rows: the tool names (or `prefix_*` patterns) of each, and its capability cell. */
function readmeRows(readme: string): Array<{ names: string[]; capability: string }> {
  const section = readme.split("\n## Tools\n")[1]!.trimStart().split("\n\n")[0]!;
  return section.split("\n").slice(2).map((line) => {
    const [, first = "", capability = ""] = line.split("|").map((c) => c.trim());
    return { names: [...first.matchAll(/`([a-z_*]+)`/g)].map((m) => m[1]!), capability };
  });
}

/** The capability cell's spelling of a tool's capability (the column is narrow). */
const SHORT: Record<string, string> = { "self-approval": "self-appr." };

Deno.test("README: the tools table names every tool with its capability", async () => {
  const rows = readmeRows(await Deno.readTextFile(join(ROOT, "README.md")));
  const missing: string[] = [];
  const wrong: string[] = [];
  for (const tool of ALL_TOOLS) {
    const row = rows.find((r) =>
      r.names.some((n) => n.endsWith("*") ? tool.name.startsWith(n.slice(0, -1)) : n === tool.name)
    );
    if (!row) {
      missing.push(tool.name);
      continue;
    }
    const shown = SHORT[tool.capability] ?? tool.capability;
    if (!row.capability.split("/").includes(shown)) {
      wrong.push(`${tool.name}: ${row.capability} (declares ${tool.capability})`);
    }
  }
  assertEquals(missing, [], "tools missing from the README's table");
  assertEquals(wrong, [], "tools whose capability the table gets wrong");
});
