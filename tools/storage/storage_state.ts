/**
 * `dump_storage_state` and `inject_storage_state`: storage layer 1, a session's cookies
 * and localStorage as one Playwright-shaped blob (seed 000 "Storage-state: three layers").
 * The CDP work, and how origins are found, is in `storage/storage_state.ts`. Files are
 * workspace paths through the path guard; a file keeps the real values (secrets are masked
 * in results only).
 *
 * @module
 */
import { dirname } from "node:path";
import { z } from "zod";
import { PathGuardError, RESERVED_AREAS, resolveInWorkspace } from "../../policy/path_guard.ts";
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
import type { BrowserSession } from "../sessions/browser_session.ts";
import type { ToolContext } from "../context.ts";
import { defineTool } from "../define_tool.ts";
import { ToolError } from "../errors.ts";
import { sessionField } from "../fields.ts";

/** A path argument resolved inside the workspace, or an `invalid-argument` refusal. */
export async function workspacePath(
  ctx: ToolContext,
  path: string,
  options: { mustExist?: boolean } = {},
): Promise<string> {
  try {
    return await resolveInWorkspace(ctx.config.workspace, path, {
      reserved: RESERVED_AREAS,
      ...options,
    });
  } catch (e) {
    if (!(e instanceof PathGuardError)) throw e;
    throw new ToolError("invalid-argument", e.message, "give a path inside the workspace");
  }
}

/** Writes JSON to an absolute path (creating its folder). */
export async function writeJson(abs: string, value: unknown): Promise<void> {
  await Deno.mkdir(dirname(abs), { recursive: true });
  await Deno.writeTextFile(abs, JSON.stringify(value, null, 2) + "\n");
}

/** Reads and checks a state file. */
export async function readStateFile(abs: string, shown: string): Promise<StorageState> {
  let text: string;
  try {
    text = await Deno.readTextFile(abs);
  } catch (e) {
    throw new ToolError(
      "invalid-argument",
      `Cannot read "${shown}": ${(e as Error).message}`,
      "check the path",
    );
  }
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

/** A state given inline or as a workspace path. */
export async function stateArg(ctx: ToolContext, state: unknown): Promise<StorageState> {
  if (typeof state === "string") {
    return await readStateFile(await workspacePath(ctx, state, { mustExist: true }), state);
  }
  return stateCall(() => parseStorageState(state));
}

/** The `dump_storage_state` tool. */
export const dumpStorageStateTool = defineTool({
  name: "dump_storage_state",
  title: "Dump storage state",
  description: "Get cookies and per-origin localStorage; with path, also write it there.",
  capability: "read",
  toolset: "storage",
  annotations: { readOnlyHint: true },
  inputSchema: z.object({
    path: z.string().optional().describe("Workspace JSON file"),
    session: sessionField,
  }),
  async handler(ctx, args) {
    const abs = args.path === undefined ? undefined : await workspacePath(ctx, args.path);
    const state = await dumpSession(await ctx.sessions.get(args.session ?? "default"));
    if (abs === undefined) return { structured: { ...state } };
    await writeJson(abs, state);
    return {
      structured: { path: abs, cookies: state.cookies.length, origins: state.origins.length },
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
