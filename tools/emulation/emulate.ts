/**
 * What the device emulation tools share: setting a patch of the session's
 * {@link SessionEmulation} state and the common result shape `{ ok, session, applied, state,
 * warnings }`. The state applies to every open tab and is re-applied to every new tab, popup and
 * out-of-process iframe before its first script (see `browser/sessions/emulation.ts` for the
 * CDP commands: `Emulation.setTimezoneOverride`, `Emulation.setLocaleOverride`,
 * `Emulation.setUserAgentOverride`, `Emulation.setEmulatedMedia`,
 * `Emulation.setDeviceMetricsOverride`).
 *
 * @module
 */
import { ATTACHED_WARNING } from "../../browser/sessions/emulation.ts";
import type { ToolOutput } from "../define_tool.ts";
import type { ToolContext } from "../context.ts";
import type { BrowserSession } from "../../browser/sessions/browser_session.ts";
import type { EmulationState } from "../../browser/sessions/emulation.ts";

/**
 * Sets `patch` on the session and answers with the common result shape
 * `{ ok, session, applied, …after(s), state, warnings }` (`after` may add `warnings`, and
 * replace `applied`).
 */
export async function emulate(
  ctx: ToolContext,
  name: string | undefined,
  patch: Partial<EmulationState>,
  after?: (s: BrowserSession) => Promise<Record<string, unknown>>,
): Promise<ToolOutput> {
  const s = await ctx.sessions.get(name ?? "default");
  s.ensureAlive();
  s.lastUsed = Date.now();
  return await s.exclusive(async () => {
    const pages = s.tabs.filter((p) => !p.isClosed).map((p) => p.session);
    const warnings = await s.emulation.set(patch, pages, async () => {
      const v = await s.browser.connection.send("Browser.getVersion");
      return v.userAgent;
    });
    if (s.mode === "attached") warnings.push(ATTACHED_WARNING);
    const { warnings: more, ...extra } = after ? await after(s) : {};
    if (Array.isArray(more)) warnings.push(...more);
    // The text leaves nulls out: name what was reset.
    const reset = Object.keys(patch).filter((k) => patch[k as keyof EmulationState] === null);
    return {
      structured: {
        ok: true,
        session: s.id,
        applied: patch,
        ...(reset.length ? { reset } : {}),
        ...extra,
        state: s.emulation.state,
        warnings,
      },
    };
  });
}
