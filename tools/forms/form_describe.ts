/**
 * What `read_form` and `review_form` share: the `root` field, reading a form without changing
 * anything (page side: `formDescribe` in `browser/injected/form_lib.ts`), and the output.
 *
 * @module
 */
import { z } from "zod";
import type { ToolContext } from "../context.ts";
import type { ToolOutput } from "../define_tool.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { callUtility } from "../../browser/injected/mod.ts";
import { checkSelectorAttributes } from "../../browser/actions/secret_query.ts";
import { isFailure, selectorError } from "../../browser/forms/form_common.ts";
import { formFrame } from "../../browser/forms/form_frame.ts";

/** The form to read: a CSS selector of it or of an element in it. */
export const rootField = z.string().optional().describe(
  "CSS of the form or an element in it (default: the biggest form)",
);

/**
 * Describes the form in the active tab: in the main frame, else in the first
 * child frame where `root` matches (with no root: that has a form control),
 * named in `frame` (`browser/forms/form_frame.ts`).
 * CDP: `Runtime.evaluate` in the utility world.
 *
 * @throws ToolError not-found (no such root) | invalid-argument (bad selector)
 */
export async function describeForm(
  ctx: ToolContext,
  args: { session?: string | undefined; root?: string | undefined },
  options: { wholePage: boolean; full: boolean },
): Promise<Record<string, unknown>> {
  const session = await ctx.sessions.get(args.session ?? "default");
  const page = await session.exclusive(() => session.page());
  const { frameId, frame } = await formFrame(session, page, {
    root: args.root,
    signal: ctx.signal,
  }).catch((e) => selectorError(e, args.root ?? ""));
  if (args.root !== undefined) await checkSelectorAttributes(page, frameId, args.root);
  const r = await callUtility(
    page,
    frameId,
    "formDescribe",
    [{ root: args.root ?? null, ...options }],
  ).catch((e) => selectorError(e, args.root ?? ""));
  if (isFailure(r)) {
    throw new ToolError(
      r.code,
      r.error,
      "pass a selector of the form, e.g. form#edit, or omit root",
    );
  }
  return { url: page.url, ...(frame ? { frame } : {}), ...r };
}

/** The tool output of a described form; empty lists are left out of the text. */
export function output(structured: Record<string, unknown>): ToolOutput {
  // Empty lists and a missing form say nothing in the text; structuredContent keeps them.
  const textOmit = ["drafts", "editors", "attachments", "submitText", "hidden"].filter((k) =>
    Array.isArray(structured[k]) && (structured[k] as unknown[]).length === 0
  );
  return { structured, textOmit };
}
