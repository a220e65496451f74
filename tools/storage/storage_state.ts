/**
 * `dump_storage_state` and `inject_storage_state`: storage layer 1, a session's cookies
 * and localStorage as one Playwright-shaped blob (seed 000 "Storage-state: three layers").
 * The CDP work, and how origins are found, is in `storage/storage_state.ts`. Files are
 * workspace paths through the path guard; a file keeps the real values (secrets are masked
 * in results only).
 *
 * @module
 */
import { z } from "zod";
import {
  dumpStorageState,
  type InjectOutcome,
  injectStorageState,
  parseStorageState,
  type ScratchTab,
  scratchTab,
  type StorageState,
  StorageStateError,
} from "../../storage/storage_state.ts";
import type { BrowserSession } from "../../browser/sessions/browser_session.ts";
import type { ToolContext } from "../context.ts";
import { defineTool } from "../define_tool.ts";
import { ToolError } from "../../browser/errors.ts";
import { sessionField } from "../fields.ts";
import {
  agentTarget,
  checkGuarded,
  readGuarded,
  writeGuardedJson,
} from "../../browser/storage/workspace_files.ts";

/** Checks a state file's text (`shown`: how to name it in errors). */
export function parseStateText(text: string, shown: string): StorageState {
  try {
    return stateCall(() => parseStorageState(JSON.parse(text)));
  } catch (e) {
    if (e instanceof SyntaxError) {
      throw new ToolError("invalid-argument", `"${shown}" is not JSON`, "pass a state file");
    }
    throw e;
  }
}

function stateCall<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof StorageStateError) throw new ToolError("invalid-argument", e.message, e.hint);
    throw e;
  }
}

/** The frame URLs of every tab of a session and the URLs of its network log. */
function frameUrls(s: BrowserSession): string[] {
  return [
    ...s.tabs.flatMap((p) => [p.url, ...p.frames().map((f) => f.url)]),
    ...s.logs.network.since(0).map((e) => e.url),
  ];
}

/**
 * Runs `fn` with a scratch tab of the session's context (see `scratchTab`), in the
 * session's turn; the tab closes after and the active tab stays what it was.
 * CDP: `Target.createTarget`, `Target.closeTarget`.
 */
async function withScratch<T>(
  s: BrowserSession,
  fn: (tab: ScratchTab, urls: string[]) => Promise<T>,
): Promise<T> {
  s.ensureAlive();
  return await s.exclusive(async () => {
    const urls = frameUrls(s);
    const active = s.activePage;
    const page = await s.newTab();
    try {
      const tab = await scratchTab(s.browser.connection, page.target.targetId);
      try {
        return await fn(tab, urls);
      } finally {
        await tab.detach();
      }
    } finally {
      await s.closeTab(page);
      if (active && s.tabs.includes(active)) await s.activate(active);
    }
  });
}

/** The session's state. CDP: see `dumpStorageState`. */
export async function dumpSession(s: BrowserSession): Promise<StorageState> {
  return await withScratch(s, (tab, urls) =>
    dumpStorageState(
      { connection: s.browser.connection, browserContextId: s.browserContextId },
      tab,
      urls,
    ));
}

/** Applies a state to a session, in its turn. CDP: see `injectStorageState`. */
export async function injectSession(
  s: BrowserSession,
  state: StorageState,
  mode: "replace" | "merge",
): Promise<InjectOutcome> {
  return await withScratch(s, async (tab, urls) => {
    return await injectStorageState(
      { connection: s.browser.connection, browserContextId: s.browserContextId },
      tab,
      state,
      { mode, frameUrls: urls },
    ).catch((e) => {
      if (e instanceof StorageStateError) {
        throw new ToolError("invalid-argument", e.message, e.hint);
      }
      throw e;
    });
  });
}

/** A state given inline or as a path in the client's area (through the path guard). */
export async function stateArg(ctx: ToolContext, state: unknown): Promise<StorageState> {
  if (typeof state === "string") {
    const file = await readGuarded(agentTarget(ctx, false), state);
    return parseStateText(file.text, state);
  }
  return stateCall(() => parseStorageState(state));
}

/**
 * Refuses a file write by a call whose tool needs only `read`: writing a file needs the
 * `action` capability (as `auth_save` and `artifact_save` do). Checked before anything runs.
 *
 * @throws ToolError capability-required (`requiredCapability: "action"`).
 */
function requireWriteCapability(ctx: ToolContext, tool: string): void {
  if (ctx.config.capabilities.has("action")) return;
  throw new ToolError(
    "capability-required",
    `Refused "${tool}": writing a file ("path") needs capability "action", which is not enabled`,
    `omit "path" to get the state in the result, or the operator can add "action" to BROWX_CAPABILITIES (now: ${
      [...ctx.config.capabilities].join(",") || "none"
    })`,
    { requiredCapability: "action" },
  );
}

/** The `dump_storage_state` tool. */
export const dumpStorageStateTool = defineTool({
  name: "dump_storage_state",
  title: "Dump storage state",
  description:
    "Get cookies and per-origin localStorage; with path, also write it there (needs action).",
  capability: "read",
  toolset: "storage",
  // Not read-only: with `path` it writes (and may replace) a file.
  annotations: { idempotentHint: true },
  inputSchema: z.object({
    path: z.string().optional().describe("Workspace JSON file to write (needs action)"),
    session: sessionField,
  }),
  async handler(ctx, args) {
    if (args.path !== undefined) {
      requireWriteCapability(ctx, "dump_storage_state");
      await checkGuarded(agentTarget(ctx, true), args.path);
    }
    const state = await dumpSession(await ctx.sessions.get(args.session ?? "default"));
    if (args.path === undefined) return { structured: { ...state } };
    const abs = await writeGuardedJson(agentTarget(ctx, true), args.path, state);
    return {
      structured: {
        path: abs,
        cookies: state.cookies.length,
        origins: state.origins.length,
        // An HTTP client's files live in its own area, which goes with its MCP session.
        ...(ctx.sessions.areas.namespace !== undefined
          ? { note: "kept in this client's area until its MCP session ends" }
          : {}),
      },
    };
  },
});

/** The `inject_storage_state` tool. */
export const injectStorageStateTool = defineTool({
  name: "inject_storage_state",
  title: "Inject storage state",
  description:
    "Apply a dumped state (object or workspace path); replace clears first. One call's message at most 96 MiB.",
  capability: "action",
  toolset: "storage",
  annotations: {},
  inputSchema: z.object({
    state: z.union([z.string(), z.record(z.string(), z.unknown())]).describe("State or path"),
    mode: z.enum(["replace", "merge"]).optional().describe("Default replace"),
    session: sessionField,
  }),
  async handler(ctx, args) {
    const state = await stateArg(ctx, args.state);
    const s = await ctx.sessions.get(args.session ?? "default");
    const r = await injectSession(s, state, args.mode ?? "replace");
    return { structured: { ok: true, mode: args.mode ?? "replace", ...r } };
  },
});
