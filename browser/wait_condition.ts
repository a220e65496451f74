/**
 * Waiting for a condition in a tab (`wait_for`): page text as the snapshot shows it, an
 * element (a ref, or a selector in any frame) to show or go, a URL, a load state. One poll
 * loop (`poll.ts`), ended by the time given or the call's signal.
 *
 * @module
 */
import { isConnectionClosedError } from "../cdp/errors.ts";
import type { Page } from "../cdp/page.ts";
import { ToolError } from "./tool_error.ts";
import { poll } from "./poll.ts";
import { compileUrlGlob } from "./agent_pattern.ts";
import { maskedForAgent } from "./secret_scope.ts";
import { callOnHandle, releaseHandle } from "./injected/mod.ts";
import { pageHasText } from "./actions/secret_query.ts";
import { type MatchFrame, queryFrames, searchFrames } from "./actions/frame_query.ts";
import { CHILD_FRAME_MS } from "./snapshot/capture.ts";
import { resolveRef } from "./snapshot/resolve.ts";
import type { BrowserSession } from "./sessions/browser_session.ts";
import { frameNoteOf } from "./frame_note.ts";

/** The one condition to wait for, and whether it should hold (`visible`) or stop (`hidden`). */
export interface WaitCondition {
  text?: string | undefined;
  ref?: string | undefined;
  selector?: string | undefined;
  url?: string | undefined;
  loadState?: "domcontentloaded" | "load" | "networkidle" | undefined;
  state: "visible" | "hidden";
}

/** What a wait ends with: `ok: false` is a result (the page never got there), not an error. */
export interface WaitOutcome {
  ok: boolean;
  status: "ok" | "timeout";
  /** How long it waited, ms. */
  waitedMs: number;
  /** What the last look saw (on timeout). */
  lastSeen?: string;
  /** The child frame a selector matched in. */
  frame?: MatchFrame;
}

/** One look: met or not, what was seen, and the child frame a selector matched in. */
type Look = { met: boolean; seen?: string; frame?: MatchFrame | undefined };
type Check = () => Promise<Look>;

/**
 * A ref's element, or a selector's first match in the tab: the main frame's, else the first
 * child frame's in snapshot order (as actions find it, `queryFrames`), then its visibility.
 */
async function elementCheck(
  session: BrowserSession,
  page: Page,
  ref: string | undefined,
  selector: string | undefined,
  state: "visible" | "hidden",
  signal: AbortSignal | undefined,
): Promise<Look> {
  let handle;
  let frame: MatchFrame | undefined;
  try {
    if (ref !== undefined) handle = await resolveRef(page, session.refs, ref);
    else {
      ({ handle, frame } = await queryFrames(page, session.refs, selector!, {
        signal,
        // Frames the policy refused show a note, not their document: not searched.
        skip: (url, id) => frameNoteOf(session, page)(url, id) !== undefined,
      }));
    }
  } catch (e) {
    if (e instanceof ToolError && e.code === "ref-gone") {
      return { met: state === "hidden", seen: "element gone" };
    }
    throw e;
  }
  if (!handle) return { met: state === "hidden", seen: "no match in any frame" };
  try {
    const probe = await callOnHandle(handle, "probe", [{}]);
    const visible = probe.state === "ok";
    const where = frame ? ` (in the iframe showing ${frame.url})` : "";
    return {
      met: visible === (state === "visible"),
      seen: (visible ? "visible" : probe.state) + where,
      frame,
    };
  } finally {
    releaseHandle(handle);
  }
}

/**
 * Whether `text` is shown in the tab: the main frame's text, else a child frame's in snapshot
 * order (as the snapshot shows them; `searchFrames`). A child frame whose script is busy is
 * passed over after {@link CHILD_FRAME_MS}, as the snapshot does. Under masking the match runs
 * on the masked text (a secret's value never matches).
 */
async function textCheck(
  session: BrowserSession,
  page: Page,
  text: string,
  state: "visible" | "hidden",
  signal: AbortSignal | undefined,
): Promise<Look> {
  let mainSeen: (() => Promise<string>) | undefined;
  const found = await searchFrames(page, session.refs, async (frameId) => {
    if (frameId === page.mainFrameId) {
      const main = await pageHasText(page, text, 200, { signal });
      mainSeen = main.seen;
      return main.has ? true : undefined;
    }
    const budget = AbortSignal.timeout(CHILD_FRAME_MS);
    const frameSignal = signal ? AbortSignal.any([signal, budget]) : budget;
    try {
      return (await pageHasText(page, text, 0, { signal: frameSignal, frameId })).has || undefined;
    } catch (e) {
      if (budget.aborted && !signal?.aborted) return undefined;
      throw e;
    }
  }, { signal, skip: (url, id) => frameNoteOf(session, page)(url, id) !== undefined });
  const met = (found !== undefined) === (state === "visible");
  const where = found?.frame ? ` (in the iframe showing ${found.frame.url})` : "";
  if (met) return { met, frame: found?.frame };
  if (found) return { met, seen: `still shown${where}` };
  return { met, seen: mainSeen ? await mainSeen() : "" };
}

/**
 * Waits until `cond` holds in `page`, at most `timeoutMs`.
 *
 * @throws ToolError page-crashed / page-closed when the tab goes meanwhile, invalid-argument
 *   for an empty selector; the signal's reason when it aborts.
 */
export async function waitFor(
  session: BrowserSession,
  page: Page,
  cond: WaitCondition,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<WaitOutcome> {
  return (await waitLooking(session, page, cond, { timeoutMs, signal })).outcome;
}

/**
 * {@link waitFor}, saying also whether the condition held at the first look (nothing was
 * waited for: the page the wait ends on is the page it began on, as far as the wait saw).
 *
 * @throws as {@link waitFor}.
 */
export async function waitLooking(
  session: BrowserSession,
  page: Page,
  cond: WaitCondition,
  options: { timeoutMs: number; signal: AbortSignal | undefined },
): Promise<{ outcome: WaitOutcome; atOnce: boolean }> {
  const { timeoutMs, signal } = options;
  const { state } = cond;
  const started = Date.now();
  let check: Check;
  if (cond.text !== undefined) {
    const text = cond.text;
    check = () => textCheck(session, page, text, state, signal);
  } else if (cond.url !== undefined) {
    const glob = compileUrlGlob(cond.url);
    check = () => {
      // The glob sees the URL as the agent reads it: masked (else **#Zq7** confirms a prefix).
      const shown = maskedForAgent(page.url);
      return Promise.resolve({ met: glob.test(shown) || shown === cond.url, seen: shown });
    };
  } else if (cond.loadState !== undefined) {
    const ok = await page.waitForLoadState(cond.loadState, {
      timeoutMs,
      ...(signal ? { signal } : {}),
    });
    signal?.throwIfAborted();
    const outcome: WaitOutcome = {
      ok,
      status: ok ? "ok" : "timeout",
      waitedMs: Date.now() - started,
      ...(ok ? {} : { lastSeen: page.url }),
    };
    // A load state may be reached without a look the wait could count: never "at once".
    return { outcome, atOnce: false };
  } else {
    if (cond.selector !== undefined && !cond.selector.trim()) {
      throw new ToolError("invalid-argument", "Empty selector", "pass a CSS selector or text=…");
    }
    check = () => elementCheck(session, page, cond.ref, cond.selector, state, signal);
  }
  let last: Look = { met: false };
  let looks = 0;
  const met = await poll(async () => {
    looks++;
    if (page.crashed || page.isClosed) {
      throw new ToolError(
        page.crashed ? "page-crashed" : "page-closed",
        `The tab ${page.crashed ? "crashed" : "closed"} while waiting`,
        page.crashed
          ? "navigate (or reload) to recover the tab, then wait again"
          : 'call tabs({ action: "list" }) and switch to an open tab, or navigate to open a new one',
      );
    }
    try {
      last = await check();
    } catch (e) {
      // The page navigated mid-check: keep waiting, the next document may match.
      if (e instanceof ToolError || isConnectionClosedError(e)) throw e;
      last = { met: false, seen: `(page changing: ${(e as Error).message.slice(0, 80)})` };
    }
    return last.met;
    // A page that does not answer is not "not there yet": say it is not responding, in time.
  }, { timeoutMs, signal, unanswered: "timeout" });
  const waitedMs = Date.now() - started;
  // Where the selector matched, when not in the main frame: the agent acts there next.
  const frame = last.frame ? { frame: last.frame } : {};
  if (met) return { outcome: { ok: true, status: "ok", waitedMs, ...frame }, atOnce: looks === 1 };
  // ok: false, not an error: the page never got there (seed 000), a signal to act on.
  return {
    outcome: { ok: false, status: "timeout", waitedMs, lastSeen: last.seen ?? "" },
    atOnce: false,
  };
}
