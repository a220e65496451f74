/**
 * `review_form`: everything a form would publish, read without changing anything.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { FORM_OUTPUT } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { describeForm, output, rootField } from "./form_describe.ts";

/** The `review_form` tool. */
export const reviewFormTool = defineTool({
  name: "review_form",
  title: "Review form",
  description:
    "Everything a form would publish, for a human to approve; changes nothing: fields (hidden ones too) and values (secrets masked), rich-text bodies in full (text and html), attachment file names, draftState (draft/public).",
  capability: "read",
  toolset: "forms",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  outputSchema: FORM_OUTPUT,
  inputSchema: z.object({ root: rootField, session: sessionField }),
  async handler(ctx, args) {
    return output(await describeForm(ctx, args, { wholePage: false, full: true }));
  },
});
