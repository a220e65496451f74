/**
 * The token size of `tools/list` is a benchmark figure (DESIGN.md, "Toolsets"): the default list
 * stays at or below @playwright/mcp's default (4,396 o200k tokens, measured with the bench), and
 * the list with every toolset at or below 11,000 (issue 14's budgets; the peer's full list of 72
 * tools is 10,041). Loose bounds: they catch a tool or a field description that grows by
 * hundreds of tokens, not each word.
 *
 * The `human` toolset (issue 15: ask_human, highlight, and the takeover tools) came after
 * those budgets were set, with the full list at 10,987: it has a budget of its own (500),
 * counted apart from the 11,000 of the toolsets issue 14 measured (ask_human + highlight:
 * 182 tokens when added). The `testing` toolset (issue 17: route, unroute, list_routes: 385
 * tokens when added) has one too (600), counted apart the same way.
 */
import { assertTrue } from "./_assert.ts";
import { listConfig } from "./_util.ts";
import { countTokens } from "../bench/tokens.ts";
import { DEFAULT_TOOLSETS, TOOLSETS } from "../policy/toolsets.ts";
import { DEFAULT_CAPABILITIES } from "../policy/capabilities.ts";
import { toolList } from "../mcp/server.ts";

function listTokens(toolsets: Set<string> | "all", capabilities?: readonly string[]): number {
  return countTokens(JSON.stringify(toolList(listConfig(toolsets, capabilities))));
}

Deno.test("tools/list: default and full lists stay within their token budgets", () => {
  // What an agent of a default configuration is sent: the default toolsets and capabilities.
  const lean = listTokens(new Set(DEFAULT_TOOLSETS), DEFAULT_CAPABILITIES);
  assertTrue(lean <= 4396, `default tools/list is ${lean} o200k tokens (budget 4,396)`);
  const all = listTokens("all");
  const withoutHuman = listTokens(new Set(TOOLSETS.filter((t) => t !== "human")));
  const withoutTesting = listTokens(
    new Set(TOOLSETS.filter((t) => t !== "human" && t !== "testing")),
  );
  assertTrue(
    withoutTesting <= 11_000,
    `full tools/list without the human and testing toolsets is ${withoutTesting} o200k tokens ` +
      "(budget 11,000)",
  );
  const testing = withoutHuman - withoutTesting;
  assertTrue(testing <= 600, `the testing toolset adds ${testing} o200k tokens (budget 600)`);
  const human = all - withoutHuman;
  assertTrue(human <= 500, `the human toolset adds ${human} o200k tokens (budget 500)`);
});
