/**
 * The token size of `tools/list` is a benchmark figure (DESIGN.md, "Toolsets").
 *
 * What is counted, and why: a MODEL is given each tool's name, description and input schema —
 * hosts map MCP tools onto function definitions with exactly those — and pays for them on every
 * turn. A tool's title, its annotations and its output schema go to the CLIENT only (shown to
 * a person, used to validate results), so they are not in the budgets (issue 17 added them to
 * every tool; counted as the model's, the output schemas alone would triple the list). The
 * budgets, in o200k tokens of the JSON of `[{ name, description, inputSchema }]`:
 * - the default list ≤ 4,396, @playwright/mcp's default (measured with the bench);
 * - the list of every toolset but `human` ≤ 12,000: issue 14's 11,000 (the peer's full list of
 *   72 tools is 10,041) plus room for the ~9 tools issue 17 adds (drag, mouse, pdf_save,
 *   har_save, trace_*, route, unroute, list_routes);
 * - the `human` toolset (issue 15: ask_human, highlight, takeover, release, picked) ≤ 500,
 *   counted apart: it came after issue 14's budgets.
 * And a loose bound on the whole `tools` JSON as sent (titles, annotations and output schemas
 * included), so what only clients pay for cannot grow unnoticed either: the figures measured
 * when it was set (default 9,072, every toolset 29,985) with ~15% room.
 * Loose bounds all: they catch a tool or a field description that grows by hundreds of
 * tokens, not each word. The bench reports both figures (bench/tokens.ts `toolsListTokens`).
 */
import { assertTrue } from "./_assert.ts";
import { listConfig } from "./_util.ts";
import { countTokens, modelVisibleTools } from "../bench/tokens.ts";
import { DEFAULT_TOOLSETS, TOOLSETS } from "../policy/toolsets.ts";
import { DEFAULT_CAPABILITIES } from "../policy/capabilities.ts";
import { toolList } from "../mcp/server.ts";

/** Model-visible and whole-JSON o200k tokens of the list for a toolset selection. */
function listTokens(
  toolsets: Set<string> | "all",
  capabilities?: readonly string[],
): { model: number; wire: number } {
  const tools = toolList(listConfig(toolsets, capabilities));
  return {
    model: countTokens(JSON.stringify(modelVisibleTools(tools))),
    wire: countTokens(JSON.stringify(tools)),
  };
}

Deno.test("tools/list: what a model sees stays within its token budgets", () => {
  // What an agent of a default configuration is sent: the default toolsets and capabilities.
  const lean = listTokens(new Set(DEFAULT_TOOLSETS), DEFAULT_CAPABILITIES).model;
  assertTrue(lean <= 4396, `default tools/list is ${lean} o200k tokens (budget 4,396)`);
  const all = listTokens("all").model;
  const withoutHuman = listTokens(new Set(TOOLSETS.filter((t) => t !== "human"))).model;
  assertTrue(
    withoutHuman <= 12_000,
    `full tools/list without the human toolset is ${withoutHuman} o200k tokens (budget 12,000)`,
  );
  const human = all - withoutHuman;
  assertTrue(human <= 500, `the human toolset adds ${human} o200k tokens (budget 500)`);
});

Deno.test("tools/list: the whole JSON (titles, annotations, output schemas) stays bounded", () => {
  const lean = listTokens(new Set(DEFAULT_TOOLSETS), DEFAULT_CAPABILITIES).wire;
  assertTrue(lean <= 10_400, `default tools/list JSON is ${lean} o200k tokens (bound 10,400)`);
  const all = listTokens("all").wire;
  assertTrue(all <= 34_300, `full tools/list JSON is ${all} o200k tokens (bound 34,300)`);
});
