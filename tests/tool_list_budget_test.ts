/**
 * The token size of `tools/list` is a benchmark figure (DESIGN.md, "Toolsets"): the default list
 * stays lean, and the full list (every toolset) stays at or below 11,000 o200k tokens (issue
 * 14's budget with the power tools; @playwright/mcp's full list, 72 tools: 10,041, measured
 * with the bench). Loose bounds: they catch a tool or a field description that grows by
 * hundreds of tokens, not each word.
 */
import { assertTrue } from "./_assert.ts";
import { listConfig } from "./_util.ts";
import { countTokens } from "../bench/tokens.ts";
import { DEFAULT_TOOLSETS } from "../policy/toolsets.ts";
import { DEFAULT_CAPABILITIES } from "../policy/capabilities.ts";
import { toolList } from "../mcp/server.ts";

function listTokens(toolsets: Set<string> | "all", capabilities?: readonly string[]): number {
  return countTokens(JSON.stringify(toolList(listConfig(toolsets, capabilities))));
}

Deno.test("tools/list: default and full lists stay within their token budgets", () => {
  // What an agent of a default configuration is sent: the default toolsets and capabilities.
  const lean = listTokens(new Set(DEFAULT_TOOLSETS), DEFAULT_CAPABILITIES);
  assertTrue(lean <= 3900, `default tools/list is ${lean} o200k tokens (budget 3900)`);
  const all = listTokens("all");
  assertTrue(all <= 11_000, `full tools/list is ${all} o200k tokens (budget 11,000)`);
});
