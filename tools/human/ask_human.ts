/**
 * `ask_human` (seeds 003/004): hand a person a step the agent must not do itself —
 * credentials, a CAPTCHA, 2FA, a payment. Answers at once: `awaiting_user` with the ask's id
 * (the web console shows the instruction until the person marks it done), or `unattended`
 * when nobody can see the session. Never waits for the person.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { resultOutput } from "../output_schemas.ts";
import { refField, sessionField } from "../fields.ts";
import { askHuman } from "../../browser/human/asks.ts";

/** Longest instruction, characters (a person reads it in a side panel). */
const MAX_INSTRUCTION = 2000;

/** The `ask_human` tool. */
export const askHumanTool = defineTool({
  name: "ask_human",
  title: "Ask a human",
  description:
    "Ask the person watching to do a step you must not (login, CAPTCHA, 2FA, payment). Answers awaiting_user or unattended at once.",
  capability: "read",
  toolset: "human",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  outputSchema: resultOutput({
    status: z.string(),
    ask: z.string(),
    session: z.string(),
    ref: z.string(),
    next: z.string(),
  }),
  inputSchema: z.object({
    // Bounds by refine: JSON Schema bounds would cost tokens on every turn.
    instruction: z.string().refine(
      (s) => s.trim().length > 0 && s.length <= MAX_INSTRUCTION,
      `must be 1..${MAX_INSTRUCTION} characters`,
    ).describe("What to do"),
    ref: refField,
    session: sessionField,
  }),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    const ask = await askHuman(session, { instruction: args.instruction, ref: args.ref }, {
      serverHeadful: ctx.config.headful,
      signal: ctx.signal,
    });
    return {
      structured: {
        ok: true,
        status: ask.status,
        ask: ask.id,
        session: session.id,
        ...(ask.ref ? { ref: ask.ref } : {}),
        next: "relay the instruction; poll the page (get_url, read_page) to see it done",
      },
    };
  },
});
