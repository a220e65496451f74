/**
 * A session's storage state (storage layer 1: cookies and localStorage as one
 * Playwright-shaped blob) read and applied in the session's turn through a scratch tab, and a
 * state given inline or as a workspace file. The CDP work is in `storage/storage_state.ts`.
 *
 * @module
 */
import {
  type DumpPolicy,
  dumpStorageState,
  type InjectOutcome,
  injectStorageState,
  parseStorageState,
  type ScratchTab,
  type StorageState,
  StorageStateError,
} from "../../storage/storage_state.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import { withScratchTab } from "../sessions/scratch_tab.ts";
import type { CallContext } from "../call_context.ts";
import { ToolError } from "../tool_error.ts";
import { agentTarget, readGuarded } from "./workspace_files.ts";

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

/** Runs `fn` with a scratch tab (`withScratchTab`) in the session's turn, with its frames' URLs. */
async function withScratch<T>(
  s: BrowserSession,
  fn: (tab: ScratchTab, urls: string[]) => Promise<T>,
): Promise<T> {
  s.ensureAlive();
  return await s.exclusive(() => {
    const urls = frameUrls(s);
    return withScratchTab(s, (tab) => fn(tab, urls));
  });
}

/**
 * The session's state (`skipped`: origins the policy refused, left out). CDP: see
 * `dumpStorageState`.
 */
export async function dumpSession(
  s: BrowserSession,
  options: DumpPolicy = {},
): Promise<StorageState & { skipped: string[] }> {
  return await withScratch(s, (tab, urls) =>
    dumpStorageState(
      { connection: s.browser.connection, browserContextId: s.browserContextId },
      tab,
      urls,
      options,
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

/**
 * The warning for state cookies Chromium did not store, e.g. `cookies rejected: "sid"
 * (127.0.0.1/): sameSite None needs secure: true`; undefined when every cookie was stored.
 */
export function rejectedCookiesWarning(r: InjectOutcome): string | undefined {
  if (r.cookiesRejected.length === 0) return undefined;
  return "cookies rejected: " +
    r.cookiesRejected.map((c) => `"${c.name}" (${c.domain}${c.path}): ${c.reason}`).join("; ");
}

/** A state given inline or as a path in the client's area (through the path guard). */
export async function stateArg(ctx: CallContext, state: unknown): Promise<StorageState> {
  if (typeof state === "string") {
    const file = await readGuarded(agentTarget(ctx, false), state);
    return parseStateText(file.text, state);
  }
  return stateCall(() => parseStorageState(state));
}
