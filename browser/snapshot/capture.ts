/**
 * Snapshot capture: runs the page-side walker (`browser/injected/snapshot_lib.ts`)
 * in a tab's main frame, gives its targetable elements global refs, and
 * splices every iframe's own snapshot (same-origin or out-of-process) under
 * its `- iframe` line, in parallel (each frame's read: `frame_text.ts`).
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { callUtility } from "../injected/mod.ts";
import type { RefRegistry } from "./refs.ts";
import { checkRef } from "./resolve.ts";
import { pageBlocked } from "../sessions/session_errors.ts";
import { busyPageWatch } from "../stuck_script.ts";
import { captureFrame, type FrameReadStats, type FrameState } from "./frame_text.ts";

export { CHILD_FRAME_MS, type FrameState } from "./frame_text.ts";

/** Options of {@link captureSnapshot}. */
export interface CaptureOptions {
  /** Only this element's subtree (a ref from an earlier snapshot, e.g. `e12`). */
  rootRef?: string;
  /**
   * The caller issued `rootRef` itself (read_page by selector: the agent named the element by
   * its selector), so it need not have been shown to the agent.
   */
  rootIssued?: boolean;
  /**
   * The line to show in place of a child frame showing `url` (frame id `frameId`), which is
   * then not read (no text, no refs); undefined reads it. The navigation policy, a frame a
   * dialog blocks (`BrowserSession.frameNote`). Asked of the main frame too: a note there
   * fails the capture with it (the page cannot be read).
   */
  frameNote?: ((url: string, frameId: string) => string | undefined) | undefined;
  /**
   * The call's signal: the capture's page calls and waits end when it aborts (the capture
   * fails with its reason, or with a CDP `AbortError`).
   */
  signal?: AbortSignal | undefined;
  /** Told after each frame document is read: frames and refs read so far (progress). */
  onFrameRead?: ((frames: number, refs: number) => void) | undefined;
  /**
   * The agent will not see this capture whole (an action's before and after
   * snapshots, shown as a delta): known refs keep the context they were shown
   * in when the page looks to have re-used their element for another item
   * (see `RefRegistry.settle`). Default false: every ref takes its context now.
   */
  holdContexts?: boolean | undefined;
  /** With `holdContexts`: the ref the action acted on (see `RefRegistry.settle`). */
  acted?: string | undefined;
  /** With `holdContexts`: what the action's field held and holds (see `RefRegistry.settle`). */
  edited?: { before?: string; after: string } | undefined;
}

/** A captured snapshot. */
export interface CapturedSnapshot {
  /** The outline, lines joined by `\n`, refs as `[ref=eN]`. */
  text: string;
  /** Number of refs in `text`. */
  refCount: number;
  /** Number of frame documents read (the main one included). */
  frames: number;
  /** The state of every frame read: when none changed, the text is still current. */
  frameStates: FrameState[];
  /** With `holdContexts`: the refs that kept the context they were shown in (re-used elements). */
  heldRefs: string[];
  /**
   * The main frame document's title when the capture read it (no `rootRef`, or one in the main
   * frame), read with the walk: a caller needs no round trip of its own for it.
   */
  title?: string | undefined;
  /**
   * The ref of the element with the focus in the main frame (an iframe's when the focus is in
   * it), when a whole page was read and that element has a ref; absent otherwise. Read with the
   * walk (no round trip of its own): the text marks focus on text fields only.
   */
  focusRef?: string;
  /** When the capture began, epoch ms (set by {@link tabSnapshot}, which caches it). */
  takenAt?: number;
}

/**
 * Captures the outline of a tab (or of one element's subtree with `rootRef`)
 * and registers its refs in `registry`.
 *
 * A child frame that cannot be read (navigating away, detached, not loaded)
 * becomes one line under its iframe saying so; it never fails the snapshot.
 * Refs of documents that were replaced are dropped from the registry.
 *
 * CDP: `Runtime.evaluate` in each frame's utility world (each frame through
 * its own session, so out-of-process iframes work), `DOM.describeNode` to get
 * an iframe element's frame id; closed shadow roots are read through
 * `closed_hosts.ts` (the first time their hosts are seen).
 *
 * @throws RefGoneError when `rootRef` does not name a live element.
 * @throws EvaluationError / ProtocolError / TargetClosedError when the main
 *   frame cannot be read (the tab closed or navigated during the snapshot).
 */
export async function captureSnapshot(
  page: Page,
  registry: RefRegistry,
  options: CaptureOptions = {},
): Promise<CapturedSnapshot> {
  const blocked = options.frameNote?.(page.url, page.mainFrameId);
  if (blocked !== undefined) throw pageBlocked(blocked);
  let frameId = page.mainFrameId;
  let rootId: number | undefined;
  if (options.rootRef !== undefined) {
    const entry = await checkRef(page, registry, options.rootRef, {
      issuedByCaller: options.rootIssued === true,
    });
    frameId = entry.frameId;
    rootId = entry.localId;
  }
  const { frameNote, signal } = options;
  const hold = options.holdContexts === true;
  const onFrameRead = options.onFrameRead;
  let stats: FrameReadStats = {
    refs: 0,
    frames: 0,
    states: [],
    seen: [],
    frameNote,
    signal,
    hold,
    onFrameRead,
  };
  let text: string;
  const loaderId = page.frame(frameId)?.loaderId;
  // A page looping in its own script answers nothing: said within seconds, not at the budget.
  const watching = new AbortController();
  let busyError: unknown;
  const busy = busyPageWatch(
    page.session,
    signal ? AbortSignal.any([signal, watching.signal]) : watching.signal,
  ).catch((e) => {
    throw busyError = e;
  });
  try {
    text = await Promise.race([captureFrame(page, registry, { frameId, rootId, stats }), busy]);
  } catch (error) {
    if (error === busyError) throw error;
    // The document was replaced under us (a navigation committed): read the new one once.
    const now = page.frame(frameId)?.loaderId;
    if (rootId !== undefined || page.isClosed || !now || now === loaderId) throw error;
    await page.waitForLoadState("domcontentloaded", {
      frameId,
      timeoutMs: 5000,
      ...(signal ? { signal } : {}),
    });
    signal?.throwIfAborted();
    stats = { refs: 0, frames: 0, states: [], seen: [], frameNote, signal, hold, onFrameRead };
    text = await captureFrame(page, registry, { frameId, rootId, stats });
  } finally {
    watching.abort();
  }
  const targetId = page.target.targetId;
  registry.prune((e) => e.targetId === targetId && !page.frame(e.frameId));
  const heldRefs = hold
    ? registry.settle(stats.seen, { acted: options.acted, edited: options.edited })
    : [];
  return {
    text,
    refCount: stats.refs,
    frames: stats.frames,
    frameStates: stats.states,
    heldRefs,
    title: stats.title,
    ...(stats.focusRef ? { focusRef: stats.focusRef } : {}),
  };
}

/**
 * True when none of the frames a snapshot read has changed since: same
 * documents, same mutation generations. One `Runtime.evaluate` per frame,
 * in parallel; any failure (a frame gone) counts as changed.
 */
export async function snapshotStillCurrent(page: Page, states: FrameState[]): Promise<boolean> {
  if (!states.length) return false;
  try {
    const now = await Promise.all(states.map(async (s) => {
      if (page.frame(s.frameId)?.loaderId !== s.loaderId) return false;
      return await callUtility(page, s.frameId, "generation") === s.generation;
    }));
    return now.every(Boolean);
  } catch {
    return false;
  }
}

/** A session's last full snapshot per tab, for reuse while the tab is unchanged. */
export type SnapshotCache = Map<string, CapturedSnapshot>;

/**
 * The tab's full snapshot: the cached one when `reuse` and no frame changed
 * since (see {@link snapshotStillCurrent}), else a new capture (cached).
 * Use `reuse` where a slightly stale view is harmless (the "before" of an
 * action's delta, later pages of a paged read); read fresh otherwise.
 */
export async function tabSnapshot(
  page: Page,
  registry: RefRegistry,
  cache: SnapshotCache,
  options: {
    reuse: boolean;
    frameNote?: CaptureOptions["frameNote"];
    /** The call's signal (see {@link CaptureOptions.signal}). */
    signal?: AbortSignal | undefined;
    /** See {@link CaptureOptions.holdContexts}. */
    holdContexts?: boolean | undefined;
    /** See {@link CaptureOptions.acted}. */
    acted?: string | undefined;
    /** See {@link CaptureOptions.edited}. */
    edited?: { before?: string; after: string } | undefined;
    /** See {@link CaptureOptions.onFrameRead}. */
    onFrameRead?: CaptureOptions["onFrameRead"];
  },
): Promise<CapturedSnapshot> {
  const key = page.target.targetId;
  const cached = cache.get(key);
  if (options.reuse && cached && await snapshotStillCurrent(page, cached.frameStates)) {
    return cached;
  }
  const takenAt = Date.now();
  const captured = await captureSnapshot(page, registry, {
    frameNote: options.frameNote,
    signal: options.signal,
    holdContexts: options.holdContexts,
    acted: options.acted,
    edited: options.edited,
    onFrameRead: options.onFrameRead,
  });
  const snap = { ...captured, takenAt };
  cache.set(key, snap);
  return snap;
}
