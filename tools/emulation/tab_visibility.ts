/**
 * `tab_visibility`: background or foreground the session's tab (the machinery, both layers
 * and their events: `browser/visibility.ts`).
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type ToolOutput } from "../define_tool.ts";
import { resultOutput } from "../output_schemas.ts";
import type { ToolContext } from "../context.ts";
import { ToolError } from "../../browser/tool_error.ts";
import {
  background,
  foreground,
  hiddenNote,
  MAX_HOLD_MS,
  noTab,
} from "../../browser/visibility.ts";
import { sessionField } from "../fields.ts";
import { ATTACHED_WARNING } from "../../browser/sessions/emulation.ts";
import { pause } from "../../browser/poll.ts";

/**
 * The `tab_visibility` tool. Input `{ state: "background" | "foreground",
 * holdMs?: 0..{@link MAX_HOLD_MS} (ms, background only), session? }`.
 * Result `{ ok, session, state, heldMs?, realBackgrounding, note, warnings }`:
 * `realBackgrounding` says whether the browser itself hid the tab (measured,
 * never assumed) during the background this call made or ended; `heldMs` is
 * the measured time hidden (≥ `holdMs`).
 *
 * Foreground brings back the tab that was sent to background (if still open,
 * else the active tab) and makes it the active tab, then closes the scratch
 * tab. A navigation while in background loses the override with the old
 * document; foreground copes and says so.
 *
 * Errors: `invalid-argument` (holdMs with foreground, out of range, another
 * tab already in background), `page-closed` (no open tab). CDP:
 * `Runtime.evaluate`, `Target.createTarget`, `Page.bringToFront`,
 * `Emulation.setFocusEmulationEnabled`, `Target.closeTarget`.
 */
export const tabVisibilityTool = defineTool({
  name: "tab_visibility",
  title: "Tab visibility",
  description:
    "Background/foreground the tab: visibilityState, visibilitychange, blur/focus (real hiding best-effort). holdMs: background, wait, foreground.",
  capability: "navigation",
  toolset: "emulation",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({
    session: z.string(),
    state: z.string(),
    realBackgrounding: z.boolean(),
    note: z.string(),
    warnings: z.array(z.string()),
  }),
  inputSchema: z.object({
    state: z.enum(["background", "foreground"]).describe("Tab state"),
    holdMs: z.number().int()
      .min(0, { error: "must be >= 0 ms" })
      .max(MAX_HOLD_MS, {
        error:
          `at most ${MAX_HOLD_MS} ms in one call; for longer, background, wait, then foreground`,
      })
      .optional().describe("ms hidden, then foreground"),
    session: sessionField,
  }),
  async handler(ctx: ToolContext, args): Promise<ToolOutput> {
    if (args.holdMs !== undefined && args.state !== "background") {
      throw new ToolError(
        "invalid-argument",
        'holdMs only goes with state "background"',
        'drop holdMs, or pass state: "background" to hold and come back',
      );
    }
    const s = await ctx.sessions.get(args.session ?? "default");
    s.ensureAlive();
    s.lastUsed = Date.now();
    return await s.exclusive(async () => {
      const extra = s.mode === "attached" ? [ATTACHED_WARNING] : [];
      let result: Record<string, unknown>;
      if (args.state === "foreground") {
        const fg = await foreground(s);
        result = {
          state: "foreground",
          realBackgrounding: fg.real,
          note: fg.note,
          warnings: [...fg.warnings, ...extra],
        };
      } else {
        const page = s.activePage;
        if (!page) throw noTab(s);
        const bg = await background(s, page);
        if (args.holdMs === undefined) {
          result = {
            state: "background",
            realBackgrounding: bg.real,
            note: bg.note,
            warnings: [...bg.warnings, ...extra],
          };
        } else {
          const hiddenAt = Date.now();
          // Cancelled (or over budget) mid-hold: the tab still comes back before the call ends.
          const cut = await pause(args.holdMs, ctx.signal).then(
            () => undefined,
            (reason: unknown) => ({ reason }),
          );
          const heldMs = Date.now() - hiddenAt;
          const fg = await foreground(s);
          if (cut) throw cut.reason;
          result = {
            state: "foreground",
            heldMs,
            realBackgrounding: bg.real,
            note: `${hiddenNote(bg.real, s.browser.owned)} Held ${heldMs} ms, then: ${fg.note}`,
            warnings: [...bg.warnings, ...fg.warnings, ...extra],
          };
        }
      }
      return { structured: { ok: true, session: s.id, ...result } };
    });
  },
});
