/**
 * The target of an acting tool: exactly one of `ref`, `selector` or
 * `coords`; resolved to an element handle (ref, selector) or a point.
 *
 * @module
 */
import { poll } from "../poll.ts";
import type { Page } from "../../cdp/page.ts";
import { ToolError } from "../tool_error.ts";
import {
  callUtility,
  callUtilityHandle,
  releaseHandle,
  type RemoteHandle,
} from "../injected/mod.ts";
import { currentMasker, maskedForAgent } from "../secret_scope.ts";
import { type FramesMatch, type MatchFrame, queryFrames } from "./frame_query.ts";
import { alikeError } from "./alike_matches.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import { resolveRefChecked } from "../snapshot/resolve.ts";
import { refindGone } from "../snapshot/refind.ts";
import { EvaluationError } from "../../cdp/page.ts";
import { blankTabSelectorError, emptyBlankTab, unknownRefError } from "../blank_tab.ts";
import { frameNoteOf } from "../frame_note.ts";
import { IDLE_NOTE, laterTimerDue, pageIdle, stillComing } from "./page_idle.ts";
import { scrollBoxHint } from "../snapshot/scroll_hint.ts";

/** The target fields as parsed. */
export interface TargetSpec {
  ref?: string | undefined;
  /** A name given with `name_ref`: resolved to its ref. */
  named?: string | undefined;
  selector?: string | undefined;
  coords?: { x: number; y: number } | undefined;
}

/** A resolved target. */
export type ResolvedTarget =
  | {
    kind: "element";
    handle: RemoteHandle;
    ref?: string;
    selector?: string;
    /** How many elements the selector matched. */
    matches?: number;
    /** A `text=` selector that matched several: which was chosen and why (for the warnings). */
    note?: string;
    /** The child frame the selector matched in (none matched in the main frame). */
    frame?: MatchFrame;
    /** Known to be no `<label>` (checked as the ref resolved, asked with `toControl`). */
    notLabel?: boolean;
  }
  | { kind: "coords"; x: number; y: number };

/**
 * Checks that exactly one target field is given (or none when optional).
 * @throws ToolError invalid-argument
 */
export function checkTarget(
  spec: TargetSpec,
  tool: string,
  options: { allowCoords?: boolean; optional?: boolean } = {},
): "ref" | "named" | "selector" | "coords" | undefined {
  const given = (["ref", "named", "selector", "coords"] as const).filter((k) =>
    spec[k] !== undefined
  );
  if (given.length === 0) {
    if (options.optional) return undefined;
    throw new ToolError(
      "invalid-argument",
      `Missing target for "${tool}": give one of ref, selector${
        options.allowCoords === false ? "" : " or coords"
      }`,
      'take a snapshot and pass the element\'s ref, e.g. { ref: "e12" }',
    );
  }
  if (given.length > 1) {
    throw new ToolError(
      "invalid-argument",
      `Too many targets for "${tool}": got ${given.join(" and ")}; give exactly one`,
      "pass only the ref (preferred), or only a selector, or only coords",
    );
  }
  if (given[0] === "coords" && options.allowCoords === false) {
    throw new ToolError(
      "invalid-argument",
      `"${tool}" does not take coords`,
      "pass a ref or selector",
    );
  }
  return given[0];
}

const NOT_FOUND_WAIT_MS = 2000;
/** How long past a page timer's due time the element is looked for before idle is asked, ms. */
const TIMER_SETTLE_MS = 150;
/** Longest wait for page timers after the first one ran, ms (see resolveTarget). */
const TIMER_WAIT_MS = 5_000;
/**
 * How long before the call's deadline the retries of a selector that matches nothing stop, ms:
 * room for the last query's answer and the `not-found` result (on a loaded machine a retry
 * that ran up to the deadline ended as `timeout`, which says less).
 */
const NOT_FOUND_MARGIN_MS = 300;

/**
 * Resolves a target in the active tab. A selector that matches nothing in the
 * main frame is looked for in the child frames, in snapshot order
 * (`frame_query.ts`; frames the navigation policy keeps out of snapshots are
 * skipped), and the match says its `frame`. A selector that matches nothing
 * anywhere is retried for up to ~2 s while the page is still building (`page_idle.ts`: loading,
 * fetching, a short timer due, its DOM changing), and fails as soon as it is idle; on a blank tab nothing is loading into, at once, saying the tab is blank. A `text=`
 * selector that matches several prefers an actionable element and says so in `note`
 * (`secret_query.ts`); a CSS selector takes its first match.
 *
 * @throws ToolError ref-gone | not-found | invalid-argument
 */
export async function resolveTarget(
  session: BrowserSession,
  page: Page,
  spec: TargetSpec,
  options: {
    deadline: number;
    signal?: AbortSignal | undefined;
    /** A form action, acting on a label's control: a ref's check tells a label apart too. */
    toControl?: boolean | undefined;
    /**
     * The action hovers a hidden element's row or menu to show it (`revealByHover`): a `text=`
     * selector whose text only a hidden element holds, shown by a `:hover` rule of an
     * ancestor (a CSS-only menu's item), designates that element.
     */
    hoverShown?: boolean | undefined;
    /**
     * An action's target: a selector whose matches are alike (same role and name) is refused,
     * listing them with refs (`alike_matches.ts`).
     */
    refuseAlike?: boolean | undefined;
  },
): Promise<ResolvedTarget> {
  if (spec.coords) return { kind: "coords", x: spec.coords.x, y: spec.coords.y };
  if (spec.named !== undefined || spec.ref !== undefined) {
    // A name is an alias: it fails exactly as its ref fails.
    const ref = spec.named !== undefined ? session.named.resolve(spec.named) : spec.ref!;
    const resolved = await resolveRefChecked(page, session.refs, ref, {
      notLabel: options.toControl === true,
    }).catch(async (e) => {
      // Re-created by the page (same role, name and row): the one element that matches now.
      const again = await refindGone(page, session.refs, e, { signal: options.signal })
        .catch((gone) => {
          throw unknownRefError(gone, session.refs, page);
        });
      return { ...again, notLabel: false };
    });
    const { handle, notLabel, note } = resolved;
    return {
      kind: "element",
      handle,
      ref: ("ref" in resolved ? resolved.ref : undefined) ?? ref,
      ...(notLabel ? { notLabel } : {}),
      ...(note ? { note } : {}),
    };
  }
  const selector = spec.selector!;
  if (!selector.trim()) {
    throw new ToolError("invalid-argument", "Empty selector", "pass a CSS selector or text=…");
  }
  // Nothing to wait for: a blank tab (a session's first) shows no element until a navigate.
  const blank = () => emptyBlankTab(page, session.logs.inFlight(), options.signal);
  if (await blank()) throw blankTabSelectorError(selector);
  const waitMs = Math.max(
    0,
    Math.min(options.deadline - Date.now() - NOT_FOUND_MARGIN_MS, NOT_FOUND_WAIT_MS),
  );
  let found: ResolvedTarget | undefined;
  // A page done building will not show the element by waiting: the wait ends there.
  let idle = false;
  const lookOnce = async (): Promise<boolean> => {
    let handle: RemoteHandle | undefined;
    let matches = 0;
    let note: string | undefined;
    let frame: MatchFrame | undefined;
    let alike: FramesMatch["alike"], frameId: string | undefined;
    try {
      ({ handle, matches, note, frame, alike, frameId } = await queryFrames(
        page,
        session.refs,
        selector,
        {
          signal: options.signal,
          skip: (url, id) => frameNoteOf(session, page)(url, id) !== undefined,
          alike: options.refuseAlike,
        },
      ));
    } catch (e) {
      selectorError(e, selector);
    }
    if (handle && alike && frameId) {
      releaseHandle(handle);
      throw alikeError(page, session.refs, { frameId, selector, facts: alike }, maskedForAgent);
    }
    if (!handle && options.hoverShown && /^text=/.test(selector)) {
      handle = await hoverShownMatch(page, selector, options.signal);
      if (handle) matches = 1;
    }
    if (handle) {
      found = {
        kind: "element",
        handle,
        selector,
        matches,
        ...(note ? { note } : {}),
        ...(frame ? { frame } : {}),
      };
    }
    return found !== undefined;
  };
  const pace = {
    signal: options.signal,
    intervalMs: 50,
    maxIntervalMs: 400,
    // A page that does not answer is not "no element matches".
    unanswered: "timeout" as const,
  };
  const untilIdle = (timeoutMs: number) =>
    poll(async () => {
      if (await lookOnce()) return true;
      idle = await pageIdle(session, page, options.signal);
      return idle || await blank();
    }, { ...pace, timeoutMs });
  await untilIdle(waitMs);
  // An idle page with a longer timer due within the call's budget: looked for until it ran,
  // then until the page is idle again (NU s16: a button a 3.2 s timer adds was "not found"
  // 0.9 s before it came, in a call given 10 s).
  // The first timer is waited for whenever it is due within the budget (NU s17: a timer due
  // in 5.6 s, timeoutMs 10000); once one ran without bringing the element, later ones only
  // for TIMER_WAIT_MS more: a page re-arming a keep-alive or polling timeout would otherwise
  // keep a mistyped selector looking until the budget ends.
  let timersUntil = Infinity;
  /** Why the timer wait ended with a timer still due: past the budget, or past the cap. */
  let timerStop: "budget" | "cap" | undefined;
  const budgetLeft = () => options.deadline - NOT_FOUND_MARGIN_MS - Date.now();
  const left = () => Math.min(budgetLeft(), timersUntil - Date.now());
  while (!found && idle) {
    const due = await laterTimerDue(session, page, options.signal).catch(() => undefined);
    if (due && due + TIMER_SETTLE_MS > left()) {
      timerStop = due + TIMER_SETTLE_MS > budgetLeft() ? "budget" : "cap";
    }
    if (!due || timerStop) break;
    if (await poll(lookOnce, { ...pace, timeoutMs: due + TIMER_SETTLE_MS })) break;
    if (timersUntil === Infinity) timersUntil = Date.now() + TIMER_WAIT_MS;
    // The timer ran: what it started (a fetch, a render) is waited for as at first.
    idle = false;
    await untilIdle(Math.max(0, Math.min(left(), NOT_FOUND_WAIT_MS)));
  }
  if (found) return found;
  if (await blank()) throw blankTabSelectorError(selector);
  // A text= selector reads shown text only: say so when the text is there but hidden.
  // Best effort: a page that does not answer gets the plain not-found. Not under masking: the
  // page reads unmasked text, so the hint would tell a right guess of a secret from a wrong one.
  const ask = (method: "hiddenTextMatch" | "namedTextMatch") =>
    /^text=/.test(selector) && !currentMasker()
      ? callUtility(page, page.mainFrameId, method, [selector], { signal: options.signal })
        .catch(() => null)
      : null;
  const hidden = await ask("hiddenTextMatch");
  if (hidden) {
    throw new ToolError(
      "not-found",
      `No shown element matches selector "${selector}": the text is in a hidden ${hidden}`,
      "it may show on hover or when a menu or section opens: hover its row or click what opens it (take a snapshot to find them), then retry",
    );
  }
  // text= reads text, not names: a control named so (its placeholder, aria-label) is said.
  const named = await ask("namedTextMatch");
  if (named) {
    throw new ToolError(
      "not-found",
      `No element's text matches selector "${selector}": ${named} has it in an attribute, not as text`,
      "use its ref (take a snapshot, or find by its name), or a CSS selector on that attribute",
    );
  }
  const elsewhere = session.tabs.length > 1
    ? await otherTabMatch(session, page, selector, options.signal)
    : undefined;
  // An idle page may still add it (a timer of some seconds, a long request): said, and so is a
  // page still changing when the wait ended; both point at wait_for before "fix the selector"
  // (a new user fixed a right selector for a button a page added after 4 s).
  const due = idle && elsewhere === undefined
    ? await stillComing(session, page, options.signal).catch(() => undefined)
    : undefined;
  // Why that timer was not waited for (a timer that is due, not a request in flight).
  const coming = due && timerStop && due.startsWith("a timer")
    ? `${due}, ${
      timerStop === "budget"
        ? "after this call's timeoutMs ends (a longer timeoutMs waits for it)"
        : `past the ${
          TIMER_WAIT_MS / 1000
        } s this call looks on through timers the page keeps re-arming`
    }`
    : due;
  const wait = `if the element is expected, wait_for({ selector: ${
    JSON.stringify(selector)
  } }) first (it waits up to its timeoutMs)`;
  // A virtual list's unseen rows are in no element: the box to scroll is the next step (as
  // find and text_search say).
  const boxes = elsewhere === undefined
    ? await scrollBoxHint(page, session.refs, options.signal)
    : undefined;
  throw new ToolError(
    "not-found",
    `No element matches selector "${selector}"${
      // Several tabs: which one was searched (a link may have made a new one current).
      session.tabs.length > 1
        ? ` in the current tab, ${session.tabs.indexOf(page)} (${session.tabs.length} tabs open)`
        : ""}${
      idle
        ? `: ${coming ? `the page looks idle, but ${coming}` : IDLE_NOTE}`
        : ": the page was still changing (loading, requests, timers or DOM changes) when the wait ended"
    }${elsewhere !== undefined ? `; it matches in tab ${elsewhere}` : ""}`,
    elsewhere !== undefined
      ? `call tabs({ action: "switch", index: ${elsewhere} }) to act on it there`
      : `${boxes ? `${boxes}; ` : ""}${
        coming || !idle
          ? `${wait}; else take a snapshot and use a ref, or fix the selector`
          : "take a snapshot and use a ref, or fix the selector"
      }`,
  );
}

/**
 * The index of another open tab of the session whose page has a match for `selector`, or
 * undefined (one tab, or none matches). Asked only once the current tab has none: a link that
 * opened a tab made that one current, and the agent's next selector may mean the first.
 * CDP: `Runtime.evaluate` in each other tab's frames.
 */
async function otherTabMatch(
  session: BrowserSession,
  page: Page,
  selector: string,
  signal: AbortSignal | undefined,
): Promise<number | undefined> {
  const tabs = session.tabs;
  for (let i = 0; i < tabs.length; i++) {
    const other = tabs[i]!;
    if (other === page || other.isClosed) continue;
    const { handle } = await queryFrames(other, session.refs, selector, {
      signal,
      skip: (url, id) => frameNoteOf(session, other)(url, id) !== undefined,
    }).catch(() => ({ handle: undefined }));
    if (handle) {
      releaseHandle(handle);
      return i;
    }
  }
  return undefined;
}

/**
 * The main frame's hidden element holding a `text=` selector's text that hovering an ancestor
 * shows (`hoverTextMatch`: a CSS-only menu's item), or undefined. Under masking, not one whose
 * text shows a secret's value (as `text=` never matches those). CDP: `Runtime.evaluate`, and
 * `Runtime.callFunctionOn` for its text under masking.
 */
async function hoverShownMatch(
  page: Page,
  selector: string,
  signal: AbortSignal | undefined,
): Promise<RemoteHandle | undefined> {
  const handle = await callUtilityHandle(page, page.mainFrameId, "hoverTextMatch", [selector], {
    signal,
  });
  const masker = currentMasker();
  if (!handle || !masker) return handle;
  const text = await handle.session.send("Runtime.callFunctionOn", {
    functionDeclaration: "function() { return this.textContent; }",
    objectId: handle.objectId,
    returnByValue: true,
  }, { signal }).then((r) => String(r.result.value ?? ""), () => "");
  if (!text || masker.contains(text)) {
    releaseHandle(handle);
    return undefined;
  }
  return handle;
}

/** Maps a selector syntax error from page-side code to `invalid-argument`; rethrows others. */
export function selectorError(e: unknown, selector: string): never {
  if (e instanceof EvaluationError && /SyntaxError|not a valid selector/i.test(e.message)) {
    throw new ToolError(
      "invalid-argument",
      `Invalid selector "${selector}": ${e.message}`,
      "use a CSS selector (e.g. button.primary) or text=Visible text",
    );
  }
  throw e;
}
