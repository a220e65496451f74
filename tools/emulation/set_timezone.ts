/**
 * `set_timezone`: overrides the session's IANA time zone.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { EMULATION_OUTPUT } from "../output_schemas.ts";
import { shown, ToolError } from "../../browser/tool_error.ts";
import { sessionField } from "../fields.ts";
import { emulate } from "./emulate.ts";

/** Canonical IANA time zone ids this runtime lists, plus `UTC` (for "did you mean"). */
let zones: Set<string> | undefined;

/**
 * Checks an IANA id (Chromium takes unknown ones silently and keeps the real zone). Any id
 * ICU knows passes, links such as `Asia/Kolkata` or `Etc/GMT+5` too (`Intl.supportedValuesOf`
 * lists only canonical ids); one given in other letter case comes back in ICU's.
 */
export function checkTimezone(id: string): string {
  let resolved: string | undefined;
  try {
    resolved = new Intl.DateTimeFormat("en-US", { timeZone: id }).resolvedOptions().timeZone;
  } catch { /* below */ }
  if (resolved && id.trim() === id && id !== "") {
    return /[A-Z]/.test(id) || resolved.toLowerCase() !== id.toLowerCase() ? id : resolved;
  }
  zones ??= new Set([...Intl.supportedValuesOf("timeZone"), "UTC"]);
  const near = [...zones].find((z) => z.toLowerCase() === id.trim().toLowerCase());
  throw new ToolError(
    "invalid-argument",
    `Unknown timezone ${shown(id)}`,
    near ? `did you mean "${near}"?` : 'pass an IANA id such as "America/New_York" or "UTC"',
  );
}

/** The `set_timezone` tool. */
export const setTimezoneTool = defineTool({
  name: "set_timezone",
  title: "Set timezone",
  description: "Override the IANA timezone.",
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
    timezoneId: z.string().nullable().describe("null: reset"),
    session: sessionField,
  }),
  handler(ctx, args) {
    const timezoneId = args.timezoneId === null ? null : checkTimezone(args.timezoneId);
    return emulate(ctx, args.session, { timezoneId });
  },
});
