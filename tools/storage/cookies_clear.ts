/**
 * `cookies_clear`: deletes every cookie of the session's browser context. The CDP work is in
 * `storage/cookies.ts`; registered secrets are masked in the results by the call wrapper, like in
 * every result.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { clearCookies } from "../../storage/cookies.ts";
import { scopeOf } from "./cookie_fields.ts";
import { confirmAttachedWrite } from "../../browser/storage/storage_gate.ts";

/** The `cookies_clear` tool. */
export const cookiesClearTool = defineTool({
  name: "cookies_clear",
  title: "Clear cookies",
  description: "Delete all cookies of the session (web storage is kept).",
  capability: "action",
  toolset: "storage",
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({ cleared: z.number() }),
  inputSchema: z.object({ session: sessionField }),
  async handler(ctx, args) {
    // In an attached browser: its owner's whole jar (storage_gate.ts).
    const s = await ctx.sessions.get(args.session ?? "default");
    await confirmAttachedWrite(ctx, s, "cookies_clear", "every cookie");
    const cleared = await clearCookies(await scopeOf(ctx, args.session));
    return { structured: { ok: true, cleared } };
  },
});
