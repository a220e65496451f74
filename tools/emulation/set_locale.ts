/**
 * `set_locale`: overrides the session's locale.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { EMULATION_OUTPUT } from "../output_schemas.ts";
import { shown, ToolError } from "../../browser/tool_error.ts";
import { sessionField } from "../fields.ts";
import { emulate } from "./emulate.ts";

/** Checks a BCP 47 locale tag; returns its canonical form (`en-us` → `en-US`). */
export function checkLocale(locale: string): string {
  if (locale.length > 64) {
    throw new ToolError(
      "invalid-argument",
      `Invalid locale ${shown(locale)}: longer than 64 characters`,
      'pass a BCP 47 tag such as "en-US" or "de-DE"',
    );
  }
  try {
    const [canonical] = Intl.getCanonicalLocales(locale);
    if (canonical) return canonical;
  } catch { /* below */ }
  throw new ToolError(
    "invalid-argument",
    `Invalid locale ${shown(locale)}`,
    'pass a BCP 47 tag such as "en-US" or "de-DE"',
  );
}

/** The `set_locale` tool. */
export const setLocaleTool = defineTool({
  name: "set_locale",
  title: "Set locale",
  description: "Override Intl locale, navigator.language and Accept-Language.",
  capability: "action",
  toolset: "emulation",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: EMULATION_OUTPUT,
  inputSchema: z.object({
    locale: z.string().nullable().optional().describe("e.g. de-DE; null/omitted: reset"),
    session: sessionField,
  }),
  handler(ctx, args) {
    const locale = args.locale == null ? null : checkLocale(args.locale);
    return emulate(ctx, args.session, { locale });
  },
});
