/**
 * tools/list tokens as tests/tool_list_budget_test.ts counts them: per selection, the number
 * of tools, the o200k tokens of what a model is given (name, description, inputSchema) and of
 * the whole JSON. Usage: `deno run -A bench/list_tokens.ts`.
 *
 * @module
 */
import { listConfig } from "../tests/_util.ts";
import { countTokens, modelVisibleTools } from "./tokens.ts";
import { DEFAULT_TOOLSETS, TOOLSETS } from "../policy/toolsets.ts";
import { DEFAULT_CAPABILITIES } from "../policy/capabilities.ts";
import { toolList } from "../mcp/server.ts";
const f = (ts: Set<string> | "all", caps?: readonly string[]) => {
  const t = toolList(listConfig(ts, caps));
  return [
    t.length,
    countTokens(JSON.stringify(modelVisibleTools(t))),
    countTokens(JSON.stringify(t)),
  ];
};
console.log("default", f(new Set(DEFAULT_TOOLSETS), DEFAULT_CAPABILITIES));
console.log("all", f("all"));
console.log("no human", f(new Set(TOOLSETS.filter((t) => t !== "human"))));
