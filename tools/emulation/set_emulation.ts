/**
 * Device emulation, one knob per tool: `set_timezone`, `set_locale`, `set_color_scheme`,
 * `set_reduced_motion`, `set_user_agent`, `set_viewport`. Each updates the session's
 * {@link SessionEmulation} state, which applies it to every open tab and re-applies it to
 * every new tab, popup and out-of-process iframe before its first script (see
 * `browser/sessions/emulation.ts` for the CDP commands: `Emulation.setTimezoneOverride`,
 * `Emulation.setLocaleOverride`, `Emulation.setUserAgentOverride`,
 * `Emulation.setEmulatedMedia`, `Emulation.setDeviceMetricsOverride`). Every result is
 * `{ ok, session, applied, state, warnings }`; `set_viewport` adds the document's scroll
 * geometry after the resize (`Runtime.evaluate`).
 *
 * @module
 */
import { ATTACHED_WARNING } from "../../browser/sessions/emulation.ts";
import { z } from "zod";
import { defineTool, type ToolOutput } from "../define_tool.ts";
import type { ToolContext } from "../context.ts";
import { shown, ToolError } from "../../browser/tool_error.ts";
import type { BrowserSession } from "../../browser/sessions/browser_session.ts";
import type { EmulationState } from "../../browser/sessions/emulation.ts";
import { MAX_VIEWPORT, sessionField } from "../fields.ts";

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

/** The `set_timezone` tool. */
export const setTimezoneTool = defineTool({
  name: "set_timezone",
  title: "Set timezone",
  description: "Override the IANA timezone.",
  capability: "action",
  toolset: "emulation",
  annotations: {},
  inputSchema: z.object({
    timezoneId: z.string().nullable().describe("null: reset"),
    session: sessionField,
  }),
  handler(ctx, args) {
    const timezoneId = args.timezoneId === null ? null : checkTimezone(args.timezoneId);
    return emulate(ctx, args.session, { timezoneId });
  },
});

/** The `set_locale` tool. */
export const setLocaleTool = defineTool({
  name: "set_locale",
  title: "Set locale",
  description: "Override Intl locale, navigator.language and Accept-Language.",
  capability: "action",
  toolset: "emulation",
  annotations: {},
  inputSchema: z.object({
    locale: z.string().nullable().optional().describe("e.g. de-DE; null/omitted: reset"),
    session: sessionField,
  }),
  handler(ctx, args) {
    const locale = args.locale == null ? null : checkLocale(args.locale);
    return emulate(ctx, args.session, { locale });
  },
});

/** The `set_color_scheme` tool. */
export const setColorSchemeTool = defineTool({
  name: "set_color_scheme",
  title: "Set color scheme",
  description: "Emulate prefers-color-scheme.",
  capability: "action",
  toolset: "emulation",
  annotations: {},
  inputSchema: z.object({
    scheme: z.enum(["light", "dark", "no-preference"]).describe("no-preference: reset"),
    session: sessionField,
  }),
  handler(ctx, args) {
    const colorScheme = args.scheme === "no-preference" ? null : args.scheme;
    return emulate(ctx, args.session, { colorScheme });
  },
});

/** The `set_reduced_motion` tool. */
export const setReducedMotionTool = defineTool({
  name: "set_reduced_motion",
  title: "Set reduced motion",
  description: "Emulate prefers-reduced-motion.",
  capability: "action",
  toolset: "emulation",
  annotations: {},
  inputSchema: z.object({
    on: z.boolean().describe("false: reset"),
    session: sessionField,
  }),
  handler(ctx, args) {
    const reducedMotion = args.on ? "reduce" : null;
    return emulate(ctx, args.session, { reducedMotion });
  },
});

/** The `set_user_agent` tool. */
export const setUserAgentTool = defineTool({
  name: "set_user_agent",
  title: "Set user agent",
  description: "Override the User-Agent header and navigator.userAgent.",
  capability: "action",
  toolset: "emulation",
  annotations: {},
  inputSchema: z.object({
    userAgent: z.string().nullable().describe("null: reset"),
    session: sessionField,
  }),
  handler(ctx, args) {
    // Control characters (a NUL, a line break) make Chromium refuse the header; a huge one
    // makes every request fail.
    // deno-lint-ignore no-control-regex
    if (args.userAgent !== null && !/^[^\x00-\x1f\x7f]{1,1024}$/.test(args.userAgent)) {
      throw new ToolError(
        "invalid-argument",
        "userAgent must be one non-empty line of at most 1024 characters, no control characters",
        "pass null to reset",
      );
    }
    return emulate(ctx, args.session, { userAgent: args.userAgent });
  },
});

/**
 * The document scroller's geometry (the shape of scroll's `element.scroll`) and the viewport,
 * read after the next frame (a cleared override lands a frame late; a hidden tab, with no
 * frames, after 200 ms).
 */
const GEOMETRY = `new Promise((resolve) => {
  let done = false;
  const read = () => {
    if (done) return;
    done = true;
    const s = document.scrollingElement ?? document.documentElement;
    const x = Math.round(s.scrollLeft), y = Math.round(s.scrollTop);
    resolve({ x, y, scrollWidth: s.scrollWidth, scrollHeight: s.scrollHeight,
      clientWidth: s.clientWidth, clientHeight: s.clientHeight, atTop: y <= 0,
      atBottom: y + s.clientHeight >= s.scrollHeight - 1, innerWidth, innerHeight });
  };
  requestAnimationFrame(() => requestAnimationFrame(read));
  setTimeout(read, 200);
})`;

/** The `set_viewport` tool. */
export const setViewportTool = defineTool({
  name: "set_viewport",
  title: "Set viewport",
  description: "Resize the viewport; returns scroll geometry.",
  capability: "action",
  toolset: "emulation",
  annotations: {},
  inputSchema: z.object({
    width: z.number().min(1).max(MAX_VIEWPORT.width).nullable().describe("null: reset"),
    height: z.number().min(1).max(MAX_VIEWPORT.height).optional().describe("px"),
    deviceScaleFactor: z.number().min(0).max(5).optional().describe("DPR"),
    mobile: z.boolean().optional().describe("Mobile"),
    session: sessionField,
  }),
  handler(ctx, { width, height, deviceScaleFactor, mobile, session }) {
    if (width !== null && height === undefined) {
      throw new ToolError("invalid-argument", "set_viewport needs height with width", "pass both");
    }
    if (!Number.isInteger(width ?? 1) || !Number.isInteger(height ?? 1)) {
      throw new ToolError("invalid-argument", "width and height are whole CSS px", "round them");
    }
    const viewport = width === null ? null : {
      width,
      height: height!,
      ...(deviceScaleFactor !== undefined ? { deviceScaleFactor } : {}),
      ...(mobile !== undefined ? { mobile } : {}),
    };
    return emulate(ctx, session, { viewport }, async (s) => {
      const page = s.activePage;
      const geometry = page ? await page.evaluate(GEOMETRY, { timeoutMs: 5000 }) : null;
      return { geometry };
    });
  },
});

/** The emulation tools, in listing order. */
export const EMULATION_TOOLS = [
  setTimezoneTool,
  setLocaleTool,
  setColorSchemeTool,
  setReducedMotionTool,
  setUserAgentTool,
  setViewportTool,
] as const;
