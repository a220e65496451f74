/**
 * `wait_for`: wait for text, an element, a URL or a load state.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { anyObject, resultOutput } from "../output_schemas.ts";
import {
  DEFAULT_TIMEOUT_MS,
  namedField,
  refField,
  selectorField,
  sessionField,
  timeoutField,
} from "../fields.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { waitFor } from "../../browser/wait_condition.ts";

/** The `wait_for` tool. */
export const waitForTool = defineTool({
  name: "wait_for",
  title: "Wait for",
  description:
    "Wait until one condition holds: text, ref, selector (any frame; frame says which), url or loadState. Returns ok (false on timeout: a result, not an error), status, waitedMs, lastSeen.",
  capability: "read",
  toolset: "core",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  outputSchema: resultOutput({
    status: z.string(),
    waitedMs: z.number(),
    lastSeen: z.string(),
    frame: anyObject,
  }),
  inputSchema: z.object({
    text: z.string().min(1).optional().describe(
      "Page text (as snapshot shows it) contains it, any case",
    ),
    ref: refField,
    named: namedField,
    selector: selectorField,
    url: z.string().optional().describe("Glob over the whole URL, e.g. **/checkout*"),
    loadState: z.enum(["domcontentloaded", "load", "networkidle"]).optional().describe(
      "Load state to reach",
    ),
    state: z.enum(["visible", "hidden"]).optional().describe(
      "hidden: wait to disappear (default visible)",
    ),
    timeoutMs: timeoutField,
    session: sessionField,
  }),
  async handler(ctx, args) {
    const given = (["text", "ref", "named", "selector", "url", "loadState"] as const).filter((k) =>
      args[k] !== undefined
    );
    if (given.length !== 1) {
      throw new ToolError(
        "invalid-argument",
        `"wait_for" needs exactly one condition of text, ref, named, selector, url, loadState; got ${
          given.length ? given.join(" and ") : "none"
        }`,
        'e.g. wait_for({ text: "Dashboard" })',
      );
    }
    if (args.state && !["text", "ref", "named", "selector"].includes(given[0]!)) {
      throw new ToolError(
        "invalid-argument",
        `"state" applies to text, ref, named or selector only`,
        "drop state",
      );
    }
    const session = await ctx.sessions.get(args.session ?? "default");
    const page = await session.page();
    const state = args.state ?? "visible";
    const timeoutMs = args.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // A named ref waits as its ref does.
    const { named, ...rest } = args;
    const ref = named !== undefined ? session.named.resolve(named) : args.ref;
    const outcome = await waitFor(
      session,
      page,
      { ...rest, ...(ref !== undefined ? { ref } : {}), state },
      timeoutMs,
      ctx.signal,
    );
    return { structured: { ...outcome } };
  },
});
