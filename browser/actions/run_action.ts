/**
 * Runs one acting tool and returns seed 000's ActionResult: resolve the
 * session, tab and target, check actionability, act inside one action window
 * (`action_window.ts`: recorder, downloads, dialogs, navigation guard), wait
 * for the page to settle, then build the result (`result_builder.ts`) with
 * what really happened and a snapshot delta (or the full snapshot, or none),
 * rendered by `result_render.ts`.
 *
 * @module
 */
import type { CallContext } from "../call_context.ts";
import type { PerformFields } from "./action_result.ts";
import { ActionResultBuilder } from "./result_builder.ts";
import { type ActionOutput, actionOutput } from "./result_render.ts";
import { ToolError } from "../tool_error.ts";
import { nameCoverRef } from "./cover_error.ts";
import { DEFAULT_TIMEOUT_MS, leftAfterTurn } from "../timeouts.ts";
import { nextFrame, preinstallLibrary, releaseHandle, type RemoteHandle } from "../injected/mod.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import { type ActionPoint, isScrolledAway, type Point } from "./actionability.ts";
import { waitActionable } from "./element_steps.ts";
import { confirmDownload } from "./downloads_window.ts";
import { lastInputAnswer } from "./devices.ts";
import { ActionWindow } from "./action_window.ts";
import { NAVIGATION_QUIET_MS } from "./recorder.ts";
import { PageTimers } from "../sessions/page_timers.ts";
import { tabCrashed } from "../sessions/session_errors.ts";
import { refusalWarning } from "../sessions/permission_refusal.ts";

import { buildDelta, skippedDelta } from "./action_delta.ts";
import { confirmSend, resolveAgain, startAction } from "./action_start.ts";
import { confirmOnTarget } from "./file_confirm.ts";
import { FinishBudget, RESULT_MARGIN_MS, untilDeadline } from "./finish_budget.ts";
import { probeAfter, registeredRef } from "./element_probe.ts";
import { performTimeout } from "./perform_timeout.ts";
import type { ResolvedTarget } from "./target.ts";
import type { SendCandidate } from "../injected/form_types.ts";
import { type ActionSpec, KEYS_TO_FOCUS, POINTER_AND_KEYS } from "./action_spec.ts";
import { otherFrames, timerFrames } from "./timer_frames.ts";
import { frameMatchWarning } from "./frame_query.ts";
import { inBackground } from "../visibility.ts";
import { BLANK_TAB_WARNING, isBlankTab } from "../blank_tab.ts";
import { freeStuckTab, markLoadUnfinished, stopBusyScript, stopSettled } from "../stuck_script.ts";
import { holdRestoredFields } from "./copy_guard.ts";
import { needsRoleName, noteActed } from "./acted_target.ts";
import { currentMasker } from "../secret_scope.ts";

/** How long past its deadline a step before the action may still report its own failure, ms. */
const PRE_ACTION_GRACE_MS = 250;
/** How long past its deadline an action's input may wait for the page to take it, ms. */
const PERFORM_MARGIN_MS = 250;

/**
 * Runs an action and returns its ActionResult.
 *
 * @throws ToolError for failures before anything was done (bad target,
 *   not actionable); failures after are reported with `ok: false`.
 */
export async function runAction(
  ctx: CallContext,
  args: {
    session?: string | undefined;
    timeoutMs?: number | undefined;
    snapshot?: "delta" | "full" | "none" | undefined;
    download?: boolean | undefined;
    submits?: boolean | undefined;
  },
  spec: ActionSpec,
): Promise<ActionOutput> {
  const session = await ctx.sessions.get(args.session ?? "default");
  // From here on the call's time is its own (the browser start was the server's set-up).
  const started = ctx.elapsedMs?.() ?? 0;
  const approved = args.submits
    ? await confirmSend(ctx, session, spec.type, spec.target)
    : undefined;
  if (args.download) {
    await confirmOnTarget(ctx, session, {
      hook: "file_download",
      spec: spec.target,
      ask: (on) => confirmDownload(ctx, session, { tool: spec.type, url: spec.requestedUrl, on }),
    });
  }
  // Someone else's browser (attached): acting in it may need that person's yes.
  if (session.mode === "attached") {
    await ctx.confirm({
      hook: "byob_action",
      tool: spec.type,
      session: session.id,
      summary: `${spec.type} in the attached browser (${session.activePage?.url ?? "no tab"})`,
    });
  }
  return await session.exclusive(() =>
    runExclusive(
      session,
      { ...args, approvedSends: approved?.sends, approvedData: approved?.data },
      spec,
      ctx.signal,
      (ctx.elapsedMs?.() ?? 0) - started,
    )
  );
}

/** Said when a selector's element went away on its own scroll into view and was found again. */
const SCROLLED_AWAY_NOTE =
  "the element went away as it was scrolled into view (the page re-rendered it on that scroll): acted on what the selector matches now";

/** How long the result waits for the page to draw a frame after the action, ms. */
const FRAME_CAP_MS = 250;

async function runExclusive(
  session: BrowserSession,
  args: {
    timeoutMs?: number | undefined;
    snapshot?: "delta" | "full" | "none" | undefined;
    download?: boolean | undefined;
    submits?: boolean | undefined;
    /** Where a human approved the forms send (`confirmSend`). */
    approvedSends?: readonly string[] | undefined;
    /** What a human approved them to send (`confirmSend`). */
    approvedData?: readonly SendCandidate[] | undefined;
  },
  spec: ActionSpec,
  signal: AbortSignal | undefined,
  /** How long the call waited for the session's turn (its gates aside), ms. */
  waitedMs: number,
): Promise<ActionOutput> {
  const page = await session.page({ allowCrashed: spec.replacesDocument ?? false });
  if (POINTER_AND_KEYS.has(spec.type) && inBackground(session, page)) {
    // Chromium holds input to a hidden tab until a frame it never draws: the action would run
    // late or half, and its result would say it failed. A person cannot act in a hidden tab.
    throw new ToolError(
      "not-actionable",
      `The tab is in background (tab_visibility): ${spec.type} waits until it is shown`,
      'call tab_visibility({ state: "foreground" }) first, then act',
    );
  }
  // A tab its last navigation left stuck in a page script would hold this one too (a history
  // move as well: it commits, or runs the page's popstate, on that same thread).
  // timeoutMs is the call's: a wait for the session's turn is not the action's to spend again.
  const deadline = Date.now() +
    leftAfterTurn(spec.type, args.timeoutMs ?? DEFAULT_TIMEOUT_MS, waitedMs);
  const navigates = spec.replacesDocument === true || spec.replaysHistory === true;
  if (navigates && !await stopSettled(page, deadline - PRE_ACTION_GRACE_MS)) {
    throw new ToolError(
      "timeout",
      `Nothing was done: the page's own script is still running though a stop was sent to it (it holds the tab's main thread, e.g. in a loop of dialogs), and a ${spec.type} now could leave the tab answering nothing`,
      "call again in a moment (the stop takes hold when the script next yields), or close_session to drop the tab",
    );
  }
  // A stop takes a moment when it works (probe, terminate): at most half the time, 1.5 s.
  const freed = navigates &&
    await freeStuckTab(page, Math.min(Date.now() + (deadline - Date.now()) / 2, Date.now() + 1500));
  const mode = args.snapshot ?? "delta";
  let target: ResolvedTarget | undefined;
  /** The audit's note of the target, asked before the handle is released. */
  let acted: Promise<void> | undefined;
  let point: Point | undefined;
  let elementPoint: ActionPoint | undefined;
  const result = new ActionResultBuilder(spec.type, { actionInfo: spec.actionInfo });
  /** The timer watch, when armed before the window opens (beside the actionability checks). */
  let armed: Promise<PageTimers> | undefined;
  /** The action window opened (it owns `armed` from then on). */
  let opened = false;
  if (freed) result.warn("the page's own script held the tab in a loop: it was stopped first");
  // Until the action acts, every page call ends at the deadline: a page too busy to answer
  // (a huge document still parsing) fails the call in its time, with nothing done.
  // A little past the deadline: steps bounded by it (a selector not found, an element never
  // actionable) report their own failure first.
  using early = untilDeadline(deadline + PRE_ACTION_GRACE_MS, spec.type, signal);
  const pre = <T>(step: Promise<T>) =>
    step.catch((e) => {
      throw early.expired() && !(e instanceof ToolError) ? early.signal.reason : e;
    });
  try {
    // A secret field the browser put back (a history return) is held before anything acts.
    await pre(holdRestoredFields(page, currentMasker(), early.signal));
    const start = await startAction(session, page, {
      target: spec.target,
      toControl: spec.toControl,
      // What the actionability checks show by a hover, a text= selector may designate.
      hoverShown: spec.actionability?.hitTest === true,
      before: mode === "delta" && !spec.replacesDocument,
      deadline,
      signal,
      early: early.signal,
      pre,
    });
    target = result.target = start.target;
    const before = start.before;
    // For the audit: what is acted on. A selector's role and name come with the actionability
    // check's first page call; without that check, they are asked beside the action.
    const noted = target;
    const withCheck = spec.actionability !== undefined && needsRoleName(session, noted);
    if (!withCheck) acted = noteActed(session, page, noted).catch(() => {});
    const tellRoleName = withCheck
      ? (roleName: readonly [string, string]) => {
        acted ??= noteActed(session, page, noted, { roleName }).catch(() => {});
      }
      : undefined;
    if (target?.kind === "element") {
      if (target.frame) result.warn(frameMatchWarning(target.frame));
      if (target.note) result.warn(target.note);
      else if ((target.matches ?? 1) > 1) {
        result.warn(`selector matched ${target.matches} elements; acted on the first`);
      }
      if (spec.actionability) {
        // The timer watch is armed beside the checks (one round trip less in sequence): a
        // timer the element's scroll into view starts is the action's doing too.
        armed = !spec.replacesDocument
          ? PageTimers.arm(page, session.timerKey, {
            frames: timerFrames(page, target),
            children: otherFrames(page, target),
            ms: Math.max(0, deadline - Date.now()),
            signal,
          })
          : undefined;
        const actionability = spec.actionability;
        const actionable = (handle: RemoteHandle) =>
          pre(waitActionable(page, handle, {
            ...actionability,
            // A control shown on its row's hover: a person moves the pointer over the row first.
            revealByHover: actionability.hitTest === true,
            deadline,
            signal: early.signal,
            roleName: acted ? undefined : tellRoleName,
          }));
        point = elementPoint = await actionable(target.handle).catch(async (e) => {
          // Its own scroll into view made the page re-render it (a virtual list): the target
          // once more, now in view (a ref by its row: `refindGone` says so).
          if (!isScrolledAway(e) || !spec.target) throw e;
          const gone = target;
          target = undefined;
          if (gone?.kind === "element") releaseHandle(gone.handle);
          target = result.target = await resolveAgain(session, page, {
            target: spec.target,
            toControl: spec.toControl,
            hoverShown: actionability.hitTest === true,
            deadline,
            early: early.signal,
            pre,
          });
          if (target?.kind !== "element") throw e;
          if (target.note) result.warn(target.note);
          else result.warn(SCROLLED_AWAY_NOTE);
          return await actionable(target.handle);
        }).catch((e) => {
          throw nameCoverRef(e, session.refs, page);
        });
        if (elementPoint.hoveredFirst) {
          result.warn(
            `moved the pointer over ${elementPoint.hoveredFirst} first: the element shows only while it is hovered`,
          );
        }
      }
    } else if (target?.kind === "coords") {
      const { cssLayoutViewport: vp } = await pre(
        page.session.send("Page.getLayoutMetrics", undefined, { signal: early.signal }),
      );
      if (
        target.x < 0 || target.y < 0 || target.x >= vp.clientWidth || target.y >= vp.clientHeight
      ) {
        throw new ToolError(
          "invalid-argument",
          `Coords (${target.x}, ${target.y}) are outside the viewport (${vp.clientWidth}x${vp.clientHeight} CSS px)`,
          "use viewport coordinates (0,0 is the top-left of the visible area); scroll first to reach other parts",
        );
      }
      point = { x: target.x, y: target.y };
      // Nothing is there to act on: the action runs (a page may be loading), and says so.
      if (isBlankTab(page)) result.warn(BLANK_TAB_WARNING);
    }

    await using actionWindow = await ActionWindow.open(session, page, {
      action: spec.type,
      declaredDownload: args.download === true,
      submits: args.submits === true || spec.sendsForm === true,
      approvedSends: args.approvedSends,
      approvedData: args.approvedData,
      requestedUrl: spec.requestedUrl,
      replay: spec.replaysHistory,
      signal,
      // Input can open a file chooser; a navigation cannot.
      fileChooser: !spec.replacesDocument && !spec.handlesFileChooser,
      // What the action's handlers set to run a moment later is the action's too. A new
      // document counts its own start (what it sets to run right after its load), so the
      // window need not wait a long quiet moment after the load to see it.
      timers: spec.replacesDocument ? { frames: [page.mainFrameId] } : {
        frames: timerFrames(page, target),
        children: otherFrames(page, target),
        ms: Math.max(0, deadline - Date.now()),
        armed,
      },
      quietMs: spec.replacesDocument ? NAVIGATION_QUIET_MS : undefined,
    });
    opened = true;
    const refusedBefore = session.emulation.permissions.refusedSeq;
    let extra: PerformFields | void = undefined;
    // An input answered during perform changes the stamp (this tab's input is this call's).
    const inputBefore = spec.quietFromInput ? lastInputAnswer(page) : 0;
    let inputAnsweredAt: number | undefined;
    // timeoutMs is a promise: a page busy in a script does not take the input (Chromium answers
    // an input event once its handlers ran), so the input's wait ends with the call's time and
    // the result says so, instead of the call's hard budget answering seconds later.
    // (Input actions: a navigation's own wait words its timeout better.)
    const performing = untilDeadline(
      spec.quietFromInput ? deadline + PERFORM_MARGIN_MS : Infinity,
      spec.type,
      signal,
    );
    try {
      extra = await spec.perform({
        session,
        page,
        target,
        point,
        elementPoint,
        deadline,
        signal: performing.signal,
        snapshotMode: mode,
      });
      const input = spec.quietFromInput ? lastInputAnswer(page) : 0;
      if (input > inputBefore) inputAnsweredAt = input;
    } catch (e) {
      // A failure the agent can act on still gets the whole result: what the page did meanwhile.
      // A call nobody waits for any more (cancelled, over budget) stops here.
      if (performing.expired()) {
        // As when a call's hard budget runs out: a script holding the page is stopped, so the
        // way out (navigate elsewhere, reload) works at once.
        // Not waited for past the result's margin: the termination goes on after the answer.
        // A dead renderer (the action's own page work crashed it) has no script to stop.
        const stopped = !page.crashed && await stopBusyScript(page.session, {
          confirmMs: deadline + RESULT_MARGIN_MS / 2 - Date.now(),
        });
        // The action's own account of how far it got (type: the characters typed) leads.
        const own = e instanceof ToolError && e.code === "timeout" ? e : undefined;
        result.fail(
          page.crashed ? tabCrashed(page.url) : performTimeout({
            type: spec.type,
            own,
            stopped,
            heavyInput: spec.heavyInput,
          }),
        );
      } else if (!(e instanceof ToolError) || signal?.aborted) throw e;
      else result.fail(nameCoverRef(e, session.refs, page) as ToolError);
    } finally {
      performing[Symbol.dispose]();
    }
    // The frame the result waits for (below) is asked with the window's last question, whether
    // the action's timers are all done: one round trip less in sequence when they are.
    const wantsFrame = mode !== "none" || target?.kind === "element";
    let quietFrame: { frame: Promise<boolean>; stop: AbortController } | undefined;
    const outcome = await actionWindow.close(deadline, signal, {
      inputAnsweredAt,
      // A navigation's frame is the new document's, asked once it is there.
      onQuiet: wantsFrame && !navigates
        ? () => {
          quietFrame?.stop.abort();
          const stop = new AbortController();
          const frame = nextFrame(page, page.mainFrameId, {
            signal: signal ? AbortSignal.any([signal, stop.signal]) : stop.signal,
          });
          frame.catch(() => {});
          quietFrame = { frame, stop };
        }
        : undefined,
    });
    const rec = outcome.recording;
    // A new document the agent did not read yet: its first read need not wait for the library.
    // Sent as the window closes: in this mode nothing below asks the page anything, so the
    // page takes it while the result is built and answered.
    if (spec.replacesDocument && mode === "none" && !rec.activePage.isClosed) {
      void preinstallLibrary(rec.activePage);
    }
    result.warn(...outcome.warnings).fail(outcome.downloadError)
      .fail(outcome.blocked, { overrides: true });
    if (!outcome.settled && Date.now() >= deadline) {
      result.cutShort("waiting for the page to settle");
      if (navigates) markLoadUnfinished(rec.activePage);
    }
    // timeoutMs is a promise: what follows fits in the time left (and a small margin), or is
    // skipped and named (a huge or busy page can take seconds to answer a frame or a snapshot).
    const finish = new FinishBudget(deadline + RESULT_MARGIN_MS, signal);
    // The frame lets what follows read the page as drawn: with no snapshot and no element to
    // probe, nothing reads it, and the result need not wait.
    if (wantsFrame) {
      // The frame asked with the last quiet question counts when the window closed on its
      // answer and its page is still the one shown.
      const asked = outcome.closedOnQuiet && rec.activePage === page && !rec.fullLoad
        ? quietFrame?.frame
        : undefined;
      await finish.step(
        "a frame for the page to draw",
        (s) => asked ?? nextFrame(rec.activePage, rec.activePage.mainFrameId, { signal: s }),
        false,
        { capMs: FRAME_CAP_MS },
      ).catch(() => {});
    }
    quietFrame?.stop.abort();
    if (session.closed) {
      throw new ToolError(
        "unknown-session",
        `Session "${session.id}" was closed while the action ran`,
        "open it again with open_session",
      );
    }
    // A failed load left the tab on Chromium's own error page: its outline (Reload, Details) is
    // noise the error already says in words.
    const errorPage = result.error?.code === "navigation-failed" &&
      rec.activePage.url.startsWith("chrome-error:");
    if (errorPage && mode !== "none") {
      result.warn("the tab shows Chromium's error page: no outline of it is sent");
    }
    // What the tool reads once the page settled (a feed's new height after its posts came).
    const settledElement = extra?.settledElement;
    if (extra) delete extra.settledElement;
    // Reads of the page as drawn, independent: asked together (the page answers them in
    // order; one round trip less in sequence).
    const [element, delta, settled] = await Promise.all([
      finish.step(
        "the element probe",
        (s) => probeAfter(target, rec.fullLoad, s),
        // Cut short: nothing is known of the element (the warning says what was cut), and an
        // element the page may still show is not said to be gone.
        target?.kind === "element" ? {} : undefined,
      ),
      errorPage ? undefined : finish.step(
        "the snapshot",
        (s) =>
          buildDelta(
            session,
            rec,
            mode,
            before,
            page,
            s,
            // A ref refused as re-used for another item (nothing was done to it): its row's
            // change is not the action's effect, and the ref keeps what the agent was shown.
            // Without a target (type, press) the keys went to the focused element: its own
            // change (the value typed into an edited row) is the action's effect too.
            target?.kind === "element"
              ? (result.error?.code !== "ref-gone" ? target.ref : undefined)
              : target === undefined && KEYS_TO_FOCUS.has(spec.type)
              ? before?.focusRef
              : undefined,
            spec.edited,
          ),
        mode === "none" ? undefined : skippedDelta(mode),
      ),
      settledElement && !result.error
        ? finish.step("the settled element facts", settledElement, undefined).catch(() => {
          signal?.throwIfAborted();
          return undefined;
        })
        : undefined,
    ]);
    if (settled && extra) extra.element = { ...extra.element, ...settled };
    // A granted permission the page asked to use meanwhile, refused (no human to ask): the
    // page's own error says only "denied"; the audit log alone said why.
    const refusals = session.emulation.permissions.refusedSince(refusedBefore);
    result.warn(
      ...new Set(refusals.map((r) => refusalWarning(r))),
    );
    result.cutShort(...finish.skipped);
    // By selector, the warning that nothing answered (Enter in a field of no form) is judged
    // on the element's own delta line as by ref: its ref, asked only then (one round trip).
    const actedRef = target?.kind === "element" && !target.ref &&
        (extra?.warningsUnlessChanged || extra?.warningsUnlessShown) && delta
      ? await registeredRef(session.refs, page, target.handle, signal)
      : undefined;
    // No delta to judge it on: the page's change counter since the key.
    const unchangedCheck = extra?.unchangedCheck;
    if (extra) delete extra.unchangedCheck;
    const pageUnchanged = mode === "none" && extra?.warningsUnlessChanged && unchangedCheck
      ? await unchangedCheck().catch(() => false)
      : undefined;
    return actionOutput(
      result.build({
        recording: rec,
        element,
        delta,
        downloads: outcome.downloads,
        extra,
        actedRef,
        pageUnchanged,
      }),
    );
  } catch (e) {
    // The window never opened (actionability failed): the watch armed beside it stops.
    if (!opened) void armed?.then((t) => t.disarm());
    throw e;
  } finally {
    await acted;
    if (target?.kind === "element") releaseHandle(target.handle);
  }
}
