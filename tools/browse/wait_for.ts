/**
 * `wait_for`: wait for text, an element, a URL or a load state.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { anyObject, resultOutput } from "../output_schemas.ts";
import {
  cappedString,
  DEFAULT_TIMEOUT_MS,
  MAX_QUERY_CHARS,
  namedField,
  refField,
  selectorField,
  sessionField,
  snapshotField,
  timeoutField,
} from "../fields.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { waitForChange } from "../../browser/wait_change.ts";
import { deltaLabel } from "../../browser/snapshot/labels.ts";
import { elapsedProgress } from "../../browser/elapsed_progress.ts";
import { BLANK_TAB_WARNING, isBlankTab } from "../../browser/blank_tab.ts";

/** The `wait_for` tool. */
export const waitForTool = defineTool({
  name: "wait_for",
  title: "Wait for",
  description:
    "Wait until one of text, ref, selector (any frame), url, loadState holds. ok: false on timeout (not an error); snapshotDelta: what changed meanwhile.",
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
    warnings: z.array(z.string()),
  }),
  inputSchema: z.object({
    // Only spaces would be met by any page: refused like an empty text= selector.
    text: cappedString("a text", MAX_QUERY_CHARS).min(1).refine(
      (t) => t.trim() !== "",
      'text needs the words to wait for, e.g. wait_for({ text: "Dashboard" })',
    ).optional().describe(
      "Page text contains it, any case",
    ),
    ref: refField,
    named: namedField,
    selector: selectorField,
    url: z.string().optional().describe("URL glob, e.g. **/checkout*"),
    loadState: z.enum(["domcontentloaded", "load", "networkidle"]).optional().describe(
      "Load state to reach",
    ),
    state: z.enum(["visible", "hidden"]).optional().describe(
      "hidden: until gone (default visible)",
    ),
    timeoutMs: timeoutField,
    snapshot: snapshotField,
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
    const { named, snapshot, session: _, timeoutMs: __, ...rest } = args;
    const ref = named !== undefined ? session.named.resolve(named) : args.ref;
    const what = `${given[0]} ${JSON.stringify(String(args[given[0]!])).slice(0, 80)}`;
    using _progress = elapsedProgress(ctx.progress, timeoutMs, `waiting for ${what}`);
    const outcome = await waitForChange(
      session,
      page,
      { ...rest, ...(ref !== undefined ? { ref } : {}), state },
      { timeoutMs, snapshot: snapshot ?? "delta", signal: ctx.signal },
    );
    const delta = outcome.snapshotDelta;
    // A wait that ran out on a blank tab says why nothing came (a session starts on one).
    const blank = !outcome.ok && !page.isClosed && isBlankTab(page);
    return {
      structured: { ...outcome, ...(blank ? { warnings: [BLANK_TAB_WARNING] } : {}) },
      // The tree after the JSON, under a label that says it is a delta (or the page whole).
      ...(delta
        ? {
          rawTextKeys: ["snapshotDelta.tree"],
          rawTextLabels: { "snapshotDelta.tree": deltaLabel(delta) },
          textOmit: [
            "snapshotDelta.scope",
            ...(delta.mode === "delta" ? ["snapshotDelta.mode"] : []),
            ...(delta.truncated ? [] : ["snapshotDelta.truncated"]),
          ],
        }
        : {}),
    };
  },
});
