/**
 * `read_form` and `review_form`: what a form holds, read without changing
 * anything (page side: `formDescribe` in `browser/injected/form_lib.ts`).
 *
 * @module
 */
import { z } from "zod";
import type { ToolContext } from "../context.ts";
import { defineTool, type ToolOutput } from "../define_tool.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { sessionField } from "../fields.ts";
import { callUtility } from "../../browser/injected/mod.ts";
import { checkSelectorAttributes } from "../../browser/actions/secret_query.ts";
import { isFailure, selectorError } from "../../browser/forms/form_common.ts";

const rootField = z.string().optional().describe(
  "CSS of the form or an element in it (default: the biggest form)",
);

/**
 * Describes the form in the active tab's main frame.
 * CDP: `Runtime.evaluate` in the utility world.
 *
 * @throws ToolError not-found (no such root) | invalid-argument (bad selector)
 */
async function describeForm(
  ctx: ToolContext,
  args: { session?: string | undefined; root?: string | undefined },
  options: { wholePage: boolean; full: boolean },
): Promise<Record<string, unknown>> {
  const session = await ctx.sessions.get(args.session ?? "default");
  const page = await session.exclusive(() => session.page());
  if (args.root !== undefined) await checkSelectorAttributes(page, page.mainFrameId, args.root);
  const r = await callUtility(
    page,
    page.mainFrameId,
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
  return { url: page.url, ...r };
}

function output(structured: Record<string, unknown>): ToolOutput {
  // Empty lists and a missing form say nothing in the text; structuredContent keeps them.
  const textOmit = ["drafts", "editors", "attachments", "submitText"].filter((k) =>
    Array.isArray(structured[k]) && (structured[k] as unknown[]).length === 0
  );
  return { structured, textOmit };
}

/** The `read_form` tool. */
export const readFormTool = defineTool({
  name: "read_form",
  title: "Read form",
  description:
    "List a form's fields: name, type, label, options, value (secrets masked), usable (false: hidden or disabled now; reveal it first), required; hidden inputs counted. Also submitText (submit controls), drafts (publish/draft controls, what each option means), draftState, and rich-text editors with the field each posts as.",
  capability: "read",
  toolset: "forms",
  annotations: { readOnlyHint: true },
  inputSchema: z.object({
    root: rootField,
    whole_page: z.boolean().optional().describe(
      "Also controls outside any form (e.g. a picker appended to body)",
    ),
    session: sessionField,
  }),
  async handler(ctx, args) {
    return output(
      await describeForm(ctx, args, { wholePage: args.whole_page ?? false, full: false }),
    );
  },
});

/** The `review_form` tool. */
export const reviewFormTool = defineTool({
  name: "review_form",
  title: "Review form",
  description:
    "Everything a form would publish, for a human to approve; changes nothing: fields and values (secrets masked), rich-text bodies in full (text and html), attachment file names, draftState (draft/public).",
  capability: "read",
  toolset: "forms",
  annotations: { readOnlyHint: true },
  inputSchema: z.object({ root: rootField, session: sessionField }),
  async handler(ctx, args) {
    return output(await describeForm(ctx, args, { wholePage: false, full: true }));
  },
});
