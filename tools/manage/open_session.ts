/**
 * `open_session`: opens a named session (incognito, persistent or attached),
 * seeds its storage state and opens its first URL.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { objectList, resultOutput } from "../output_schemas.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { checkCapability } from "../../policy/capabilities.ts";
import { NavigationError } from "../../cdp/page.ts";
import { checkNavigableUrl, requireEvalForData } from "../../browser/navigable_url.ts";
import { gateNavigation } from "../../browser/nav_guard/navigation_gate.ts";
import { loadFirstUrl } from "../../browser/actions/first_load.ts";
import { ATTACHED_WARNING } from "../../browser/sessions/emulation.ts";
import type { BrowserSession } from "../../browser/sessions/browser_session.ts";
import { DIALOG_POLICIES, type DialogPolicy } from "../../browser/sessions/dialogs.ts";
import type { ToolContext } from "../context.ts";
import type { ToolOutput } from "../define_tool.ts";
import type { StorageState } from "../../storage/storage_state.ts";
import {
  injectSession,
  rejectedCookiesWarning,
  stateArg,
} from "../../browser/storage/session_state.ts";
import { loadAuthState } from "../../browser/storage/auth_states.ts";
import { gateStateWrite } from "../../browser/storage/state_gate.ts";
import { MAX_VIEWPORT, timeoutField } from "../fields.ts";
import { DEFAULT_TIMEOUT_MS } from "../../browser/timeouts.ts";

/**
 * open_session after the session exists: dialog policy, viewport, gates, first URL.
 *
 * The viewport is session emulation state ({@link BrowserSession.emulation}), set before the
 * first tab opens: that tab, every later tab and every popup get it before their first script
 * (`Emulation.setDeviceMetricsOverride`); `set_viewport` replaces it. Tabs open already (a
 * persistent profile's, an attached browser's) get it at once; their failures come back as
 * `warning`.
 */
async function setUpSession(
  ctx: ToolContext,
  session: BrowserSession,
  args: {
    dialogs?: DialogPolicy | undefined;
    promptText?: string | undefined;
    viewport?: { width: number; height: number } | undefined;
    timeoutMs?: number | undefined;
  },
  url: URL | undefined,
): Promise<ToolOutput> {
  if (args.dialogs) session.dialogs.policy = args.dialogs;
  if (args.promptText !== undefined) session.dialogs.promptText = args.promptText;
  const warnings: string[] = [];
  if (args.viewport) {
    const { width, height } = args.viewport;
    const pages = session.tabs.filter((p) => !p.isClosed).map((p) => p.session);
    warnings.push(
      ...await session.emulation.set({ viewport: { width, height } }, pages, async () => {
        const v = await session.browser.connection.send("Browser.getVersion");
        return v.userAgent;
      }),
    );
    if (session.mode === "attached") warnings.push(ATTACHED_WARNING);
  }
  const page = await session.page();
  // The first URL is a navigation like any other: the same gates, the same guard window.
  if (url) {
    await gateNavigation(ctx, session, { tool: "open_session", url: url.href, from: page.url });
  }
  let httpStatus: number | null = null;
  let news: Record<string, unknown> = {};
  if (url) {
    // Loaded as navigate loads: the answer comes once the page settled (its scripts' modules
    // and requests), so the first action finds the app ready.
    const load = await loadFirstUrl(session, page, url.href, {
      timeoutMs: args.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      signal: ctx.signal,
    });
    httpStatus = load.httpStatus;
    warnings.push(...load.warnings);
    // A redirect hop the guard stopped aborts the navigation: the policy is the news.
    if (load.blocked) {
      throw new ToolError(
        "blocked-by-policy",
        `policy: opening ${url.href} led to ${load.blocked.details.blockedUrl}, which no ` +
          "approval covers; the request was stopped",
        "open the session without a url, then navigate to where you need to go",
        { blockedUrl: load.blocked.details.blockedUrl },
      );
    }
    if ("failure" in load) {
      if (load.failure instanceof NavigationError) {
        throw new ToolError(
          "navigation-failed",
          load.failure.message,
          "check the URL and that the site is reachable" +
            (/no response within/.test(load.failure.errorText ?? "")
              ? ", or call again with a larger timeoutMs"
              : "") +
            "; the session was not opened",
          { errorText: load.failure.errorText },
        );
      }
      throw load.failure;
    }
    // What the load raised is this call's: said here (the next call will not repeat it).
    news = {
      ...(load.pageErrors.length ? { pageErrors: load.pageErrors } : {}),
      ...(load.dialogs.length ? { dialogs: load.dialogs } : {}),
      ...(load.newTabs.length ? { newTabs: load.newTabs } : {}),
    };
  }
  return {
    structured: {
      ok: true,
      session: session.id,
      mode: session.mode,
      ...(session.headful ? { headful: true } : {}),
      ...(session.profileDir ? { profileDir: session.profileDir } : {}),
      url: page.url,
      ...(url ? { httpStatus } : {}),
      ...news,
      tabs: session.tabs.length,
      ...(warnings.length ? { warning: warnings.join("; ") } : {}),
    },
  };
}

/**
 * The state `storageState` or `authState` names, checked before the session opens.
 *
 * @throws ToolError invalid-argument for both at once, a bad state or path; not-found
 *   for an unknown auth state.
 */
async function seedStateArg(
  ctx: ToolContext,
  args: { storageState?: unknown; authState?: string | undefined },
): Promise<StorageState | undefined> {
  if (args.storageState !== undefined && args.authState !== undefined) {
    throw new ToolError(
      "invalid-argument",
      "open_session takes storageState or authState, not both",
      "pass one of them",
    );
  }
  if (args.authState !== undefined) return await loadAuthState(ctx, args.authState);
  if (args.storageState !== undefined) return await stateArg(ctx, args.storageState);
  return undefined;
}

/**
 * Seeds a new session: incognito at creation (a fresh context, nothing to clear);
 * persistent merged over the profile's state, with a warning; attached: not at all
 * (the browser is the person's), with a warning.
 *
 * @returns The warning, if any.
 */
async function seedSession(
  ctx: ToolContext,
  session: BrowserSession,
  state: StorageState,
): Promise<string | undefined> {
  if (session.mode === "attached") {
    return "storage state ignored: an attached browser's storage is left as it is";
  }
  // The gates of inject_storage_state, by the allowlist and blocklist (no site is approved in
  // a session being opened: its first navigation asks).
  await gateStateWrite(ctx, session, {
    tool: "open_session",
    state,
    what: "its origins",
    approvals: false,
  });
  const r = await injectSession(session, state, "merge");
  const rejected = rejectedCookiesWarning(r);
  const skipped = (r.originsSkipped.length ? `; origins skipped: ${r.originsSkipped}` : "") +
    (rejected ? `; ${rejected}` : "");
  if (session.mode === "persistent") {
    return "storage state merged over the persistent profile's own state (not a clean " +
      `seed)${skipped}`;
  }
  return skipped ? `storage state seeded${skipped}` : undefined;
}

/** The `open_session` tool. */
export const openSessionTool = defineTool({
  name: "open_session",
  title: "Open session",
  description:
    "Open a named session: incognito (isolated context, shared browser), persistent (own browser, workspace profile kept on close), attached (existing browser by CDP endpoint; capability byob-attach); headful: shown to a person.",
  capability: "navigation",
  toolset: "sessions",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  outputSchema: resultOutput({
    session: z.string(),
    mode: z.string(),
    headful: z.boolean(),
    profileDir: z.string(),
    url: z.string(),
    httpStatus: z.number().nullable(),
    pageErrors: z.array(z.string()),
    dialogs: objectList,
    newTabs: objectList,
    tabs: z.number(),
    warning: z.string(),
  }),
  inputSchema: z.object({
    session: z.string().optional().describe('Name (letters, digits, ._-; default "default")'),
    mode: z.enum(["incognito", "persistent", "attached"]).optional().describe("Default incognito"),
    url: z.string().optional().describe("URL to open"),
    viewport: z.object({
      width: z.number().int().min(100).max(MAX_VIEWPORT.width).describe("CSS px"),
      height: z.number().int().min(100).max(MAX_VIEWPORT.height).describe("CSS px"),
    }).optional().describe("Viewport"),
    endpoint: z.string().optional().describe(
      "attached: ws://…/devtools/browser/… or http://host:port",
    ),
    dialogs: z.enum(DIALOG_POLICIES).optional().describe(
      "Unarmed dialogs (default: accept alerts; raise: fail the action)",
    ),
    promptText: z.string().optional().describe("accept-prompt-with's answer"),
    storageState: z.union([z.string(), z.record(z.string(), z.unknown())]).optional()
      .describe("Storage state, or its workspace path"),
    authState: z.string().optional().describe("A saved auth state"),
    timeoutMs: timeoutField,
    // Said in the description ("shown to a person"): a field description costs as much.
    headful: z.boolean().optional().describe("Headful"),
  }),
  async handler(ctx, args) {
    const mode = args.mode ?? "incognito";
    const name = args.session ?? "default";
    if (mode === "attached" && args.headful) {
      throw new ToolError(
        "invalid-argument",
        '"headful" does not apply to mode "attached": whoever runs that browser shows it or not',
        "drop headful, or open an incognito or persistent session with headful: true",
      );
    }
    if (mode === "attached") {
      const d = checkCapability(ctx.config.capabilities, "byob-attach", "open_session");
      if (!d.allowed) {
        throw new ToolError(
          "capability-required",
          'Refused "open_session" in attached mode: capability "byob-attach" is not enabled',
          d.hint,
          { requiredCapability: "byob-attach" },
        );
      }
    } else if (args.endpoint !== undefined) {
      throw new ToolError(
        "invalid-argument",
        `"endpoint" applies to mode "attached" only`,
        'pass mode: "attached" or drop endpoint',
      );
    }
    if (args.promptText !== undefined && args.dialogs !== "accept-prompt-with") {
      throw new ToolError(
        "invalid-argument",
        '"promptText" applies to dialogs: "accept-prompt-with" only',
        'pass dialogs: "accept-prompt-with" with it, or drop promptText',
      );
    }
    const url = args.url !== undefined ? checkNavigableUrl(args.url) : undefined;
    if (url) requireEvalForData(ctx.config.capabilities, url, "open_session");
    let seed: Awaited<ReturnType<typeof seedStateArg>> | undefined;
    let out!: ToolOutput;
    // Set up in the session's opening turn: a close_session sent meanwhile waits for it, and a
    // failed set-up (a refused first URL) leaves no half-made session behind. No await before
    // open: the turn is taken now, so a call on this name sent right after waits for it.
    const headful = args.headful === true;
    await ctx.sessions.open(name, { mode, endpoint: args.endpoint, headful }, async (session) => {
      // A cancelled call leaves no session behind (a failed set-up discards it).
      ctx.signal?.throwIfAborted();
      const warning = seed ? await seedSession(ctx, session, seed) : undefined;
      out = await setUpSession(ctx, session, args, url);
      ctx.signal?.throwIfAborted();
      if (warning) {
        const more = out.structured.warning;
        out.structured.warning = more ? `${warning}; ${more}` : warning;
      }
    }, async () => {
      seed = await seedStateArg(ctx, args);
    });
    return out;
  },
});
