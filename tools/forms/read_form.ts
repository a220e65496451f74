/**
 * `read_form`: a form's fields and controls, read without changing anything.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { FORM_OUTPUT } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { describeForm, output, rootField } from "./form_describe.ts";

/** The `read_form` tool. */
export const readFormTool = defineTool({
  name: "read_form",
  title: "Read form",
  description:
    "List a form's fields: name, type, label, options, value (secrets masked), usable (false: hidden or disabled now), required; hidden inputs counted. Also submitText, drafts (publish/draft controls, what each option means), draftState, and rich-text editors with the field each posts as.",
  capability: "read",
  toolset: "forms",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  outputSchema: FORM_OUTPUT,
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
