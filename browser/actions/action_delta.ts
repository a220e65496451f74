/**
 * The ActionResult's `snapshotDelta`: what changed on the page (a diff
 * against the snapshot the agent last saw), or the whole page when the
 * document or tab changed, or none.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import { type CapturedSnapshot, tabSnapshot } from "../snapshot/capture.ts";
import { diffSnapshots, focusLine } from "../snapshot/delta.ts";
import { type SelfChanges, selfChanges } from "../snapshot/ticking.ts";
import { lastInputAnswer } from "./devices.ts";
import { heldNote } from "../snapshot/delta_render.ts";
import { pageText } from "../snapshot/paging.ts";
import type { NodeChange, SnapshotDiff } from "../snapshot/delta.ts";
import type { SnapshotDelta } from "./action_result.ts";
import type { Recording } from "./recording.ts";
import { FinishBudget } from "./finish_budget.ts";
import { frameNoteOf } from "../frame_note.ts";
import { maskedForAgent } from "../secret_scope.ts";

/** What {@link diffSnapshots} answers for two equal texts. */
const UNCHANGED: Pick<
  SnapshotDiff,
  "unchanged" | "movedCount" | "text" | "truncated" | "appeared" | "removedNodes"
> = { unchanged: true, movedCount: 0, text: "", truncated: false, appeared: [], removedNodes: [] };

/** A delta this long (characters, ~250 tokens) or shorter is kept even when longer than the page. */
const SMALL_DELTA = 1000;

/** Token budget of the snapshot carried in an ActionResult. */
const RESULT_SNAPSHOT_TOKENS = 3000;

/** The snapshot part of an ActionResult: `snapshotDelta`, and `structure`'s nodes. */
export interface DeltaOut {
  delta: SnapshotDelta;
  /** Structural nodes that appeared (a delta only). */
  appeared: NodeChange[];
  /** Structural nodes that went away (a delta only). */
  removed: NodeChange[];
}

/**
 * The snapshot part of an action's result: the delta against `before` (the page as the
 * agent last saw it), or the whole page (`full`, a new document or tab), or none.
 *
 * @param signal Ends the capture (then the signal's reason is thrown).
 */
export async function buildDelta(
  session: BrowserSession,
  rec: Recording,
  mode: "delta" | "full" | "none",
  before: BeforePicture | undefined,
  actedOn: Page,
  signal?: AbortSignal,
  acted?: string,
  edited?: { before?: string; after: string },
): Promise<DeltaOut | undefined> {
  if (mode === "none") return undefined;
  // The tab the action opened closed again (blank: the guard stopped the form it was to load):
  // what changed is in the tab acted on.
  const closedAgain = rec.activePage.isClosed && !actedOn.isClosed;
  const shown = closedAgain ? actedOn : rec.activePage;
  const switchedTab = shown !== actedOn;
  return await snapshotChange(session, shown, {
    mode,
    before,
    whole: rec.fullLoad || switchedTab || (!closedAgain && rec.newTabs.length > 0),
    acted,
    edited,
  }, signal);
}

/**
 * What a delta compares against: a {@link tabSnapshot}'s outline and where the focus was; and
 * what the page was seen changing on its own before it (see {@link beforePicture}).
 */
export type BeforePicture = Pick<CapturedSnapshot, "text" | "focusRef"> & {
  self?: SelfChanges | undefined;
};

/** What {@link snapshotChange} compares, and how. */
export interface ChangeOptions {
  /** `delta`: what changed since `before`; `full`: the page itself. */
  mode: "delta" | "full";
  /** The page at the start (a {@link tabSnapshot}); undefined: show the page whole. */
  before: BeforePicture | undefined;
  /** A new document or tab took over: show the page whole. */
  whole: boolean;
  /**
   * Take the after-picture from the session's cache when no frame changed since it (a
   * mutation-generation check): for a call that saw the page as it started (a wait met at
   * once). Default false: a fresh capture (a value set by script mutates no node).
   */
  reuse?: boolean;
  /** The ref the action acted on: its own rename is the action's effect (`RefRegistry.settle`). */
  acted?: string | undefined;
  /** What the action's field held and holds (fill): see `RefRegistry.settle`. */
  edited?: { before?: string; after: string } | undefined;
}

/**
 * The page's change on `page` since `options.before`: the delta (`mode: "delta"`), or the
 * page whole (first ~3k tokens; asked for, no before-picture, `whole`, or a delta that would
 * be longer than the page). Used by actions
 * (`buildDelta`) and by `wait_for` (what appeared while it waited). A capture that fails is
 * reported in `delta.error`, not thrown. CDP: as {@link tabSnapshot}.
 *
 * @param signal Ends the capture (then the signal's reason is thrown).
 */
export async function snapshotChange(
  session: BrowserSession,
  page: Page,
  options: ChangeOptions,
  signal?: AbortSignal,
): Promise<DeltaOut> {
  const { mode, before } = options;
  let after: string;
  let held: string[] = [];
  let focusRef: string | undefined;
  try {
    ({ text: after, heldRefs: held, focusRef } = await tabSnapshot(
      page,
      session.refs,
      session.snapshots,
      {
        reuse: options.reuse === true,
        signal,
        frameNote: frameNoteOf(session, page),
        // Shown as a delta (or a full page cut at its budget), the agent may not see where each
        // ref sits now: a ref whose element the page re-used for another item keeps the context
        // it was shown in (ref-gone on use) until a page the agent is shown holds it.
        holdContexts: true,
        acted: options.acted,
        edited: options.edited,
      },
    ));
  } catch (e) {
    signal?.throwIfAborted();
    return {
      delta: { mode, tree: "", error: `snapshot failed: ${(e as Error).message}` },
      appeared: [],
      removed: [],
    };
  }
  // The agent sees the page whole: every ref is where this snapshot shows it.
  const whole = (): SnapshotDelta => {
    const paged = pageText(after, { maxTokens: RESULT_SNAPSHOT_TOKENS });
    session.refs.showAll(page.target.targetId, paged.text);
    return {
      mode: "full",
      scope: "full",
      tree: paged.text,
      truncated: paged.truncated,
      ...(paged.truncated ? { hint: "call snapshot with offset to read the rest" } : {}),
    };
  };
  if (mode === "full" || before === undefined || options.whole) {
    return { delta: whole(), appeared: [], removed: [] };
  }
  // The same text (a cached outline still current): nothing to diff (a big page's diff costs).
  const d = after === before.text
    ? UNCHANGED
    : diffSnapshots(before.text, after, { self: before.self });
  // A delta is never much longer than the page it stands for: most of the page changed (a list
  // sorted or paged), so the page itself is the cheaper answer. A short one stays (a few lines
  // on a tiny page): its notes say which refs the page re-created, and it costs little.
  if (d.text.length > Math.max(after.length, SMALL_DELTA)) {
    return {
      delta: whole(),
      appeared: (d.appeared ?? []).filter(isStructural),
      removed: (d.removedNodes ?? []).filter(isStructural),
    };
  }
  const note = d.unchanged ? "" : heldNote(held, d.text);
  if (note) d.text = `${d.text}\n${note}`;
  // The diff leaves focus out (it moves with every click, and the text marks it on fields
  // only); a key that moved it (Tab) or a click that sent it elsewhere (a label) says where:
  // unless it is on the element acted on, or on a line the delta shows already (a field filled).
  const focus = focusRef === before.focusRef ||
      (focusRef && (focusRef === options.acted || d.text.includes(`[ref=${focusRef}]`)))
    ? undefined
    : focusRef
    ? focusLine(after, focusRef, { mask: maskedForAgent })
    : "none";
  return {
    delta: {
      mode: "delta",
      scope: "changed",
      ...(d.unchanged && !focus ? { unchanged: true } : {}),
      ...(focus ? { focus } : {}),
      ...(d.movedCount ? { moved: d.movedCount } : {}),
      tree: d.text,
      truncated: d.truncated ?? false,
    },
    // Controls that came and went are in the delta already; structure names
    // what changes the page's shape (a dialog, an alert, a new section).
    appeared: (d.appeared ?? []).filter(isStructural),
    removed: (d.removedNodes ?? []).filter(isStructural),
  };
}

/** The snapshot part when the call's time ran out before the after-snapshot was taken. */
export function skippedDelta(mode: "delta" | "full"): DeltaOut {
  return {
    delta: {
      mode,
      tree: "",
      error: "snapshot skipped: timeoutMs ran out before the page could be read",
      hint: "call snapshot (the page may still be loading), or act with a larger timeoutMs",
    },
    appeared: [],
    removed: [],
  };
}

const STRUCTURAL_ROLES = new Set([
  "dialog",
  "alertdialog",
  "alert",
  "status",
  "heading",
  "iframe",
  "menu",
  "listbox",
  "tooltip",
  "tabpanel",
  "form",
  "region",
]);

function isStructural(node: { role?: string }): boolean {
  return STRUCTURAL_ROLES.has(node.role ?? "");
}

/**
 * The "before" picture of a call that reports a delta (an action, a wait): the page as the
 * agent last saw it when nothing changed since (no new capture), else a capture that keeps the
 * refs' contexts as the agent saw them. It may take half of the time until `deadline` (the call
 * needs the rest); undefined when it could not be had in time (the result then shows the page
 * whole). When the page changed since the agent's last read of the same document and no input
 * came between, the picture carries what changed on its own (`self`: `ticking.ts`), for the
 * delta to sum up instead of listing. CDP: see `tabSnapshot`.
 */
export async function beforePicture(
  session: BrowserSession,
  page: Page,
  deadline: number,
  signal: AbortSignal | undefined,
  what: string,
): Promise<(CapturedSnapshot & BeforePicture) | undefined> {
  const tab = page.target.targetId;
  const last = session.snapshots.get(tab);
  const now = await new FinishBudget(Date.now() + (deadline - Date.now()) / 2, signal).step(
    what,
    (s) =>
      tabSnapshot(page, session.refs, session.snapshots, {
        reuse: true,
        frameNote: frameNoteOf(session, page),
        signal: s,
        // The agent does not see this capture: refs keep the contexts it saw them in.
        holdContexts: true,
      }).catch(() => undefined),
    undefined,
  );
  if (!now) return undefined;
  // The page changed since the agent's last read of this document with no input between: what
  // changed by its numbers alone ticks on its own (a clock), lines that changed order were
  // reordered by it. Nothing changed, or input came between: what was seen before stays.
  let tabs = selfSeen.get(session);
  if (!tabs) selfSeen.set(session, tabs = new Map());
  const loader = (s: CapturedSnapshot) =>
    s.frameStates.find((f) => f.frameId === page.mainFrameId)?.loaderId ?? "";
  const doc = loader(now);
  if (
    last && now !== last && loader(last) === doc && last.takenAt !== undefined &&
    lastInputAnswer(page) < last.takenAt
  ) {
    tabs.set(tab, { doc, self: selfChanges(last.text, now.text) });
  }
  const seen = tabs.get(tab);
  const self = seen?.doc === doc ? seen.self : undefined;
  return self && (self.ticking.size || self.reorders) ? { ...now, self } : now;
}

/**
 * Per session, per tab: what its page was last seen changing on its own (`ticking.ts`), and in
 * which document (the main frame's loader id): another document starts unknown.
 */
const selfSeen = new WeakMap<BrowserSession, Map<string, { doc: string; self: SelfChanges }>>();
