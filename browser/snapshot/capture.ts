/**
 * Snapshot capture: runs the page-side walker (`browser/injected/snapshot_lib.ts`)
 * in a tab's main frame, gives its targetable elements global refs, and
 * splices every iframe's own snapshot (same-origin or out-of-process) under
 * its `- iframe` line, in parallel.
 *
 * @module
 */
import type { FrameInfo, Page } from "../../cdp/page.ts";
import { callUtility } from "../injected/mod.ts";
import { currentMasker } from "../secret_scope.ts";
import type { RefRegistry } from "./refs.ts";
import { checkRef } from "./resolve.ts";
import { poll, within } from "../poll.ts";
import { handOverClosedHosts } from "./closed_hosts.ts";
import { registerSnapshotRefs } from "./snapshot_refs.ts";
import { pageBlocked } from "../sessions/session_errors.ts";
import { contentFrameId } from "./frame_owner.ts";
import { busyPageWatch } from "../stuck_script.ts";

/** Which document state of one frame a snapshot reflects. */
export interface FrameState {
  frameId: string;
  loaderId: string;
  generation: number;
}

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

/** Deeper iframe nesting than this is shown as a note, not read. */
const MAX_FRAME_DEPTH = 8;
/**
 * How long a child frame's read may take before the page is read without it, ms: a frame
 * whose script is busy (an ad in a loop) answers nothing.
 */
export const CHILD_FRAME_MS = 3000;
/** How long to wait for a child frame the tab does not know yet (an OOPIF being attached). */
const FRAME_WAIT_MS = 1500;

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
  let stats: Stats = {
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
    text = await Promise.race([frameText(page, registry, frameId, rootId, 0, stats), busy]);
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
    text = await frameText(page, registry, frameId, rootId, 0, stats);
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

interface Stats {
  /** The ref of the main frame's focused element (a whole page's read only). */
  focusRef?: string | undefined;
  refs: number;
  frames: number;
  states: FrameState[];
  /** The refs registered so far. */
  seen: string[];
  /** The main frame document's title, once its snapshot is read. */
  title?: string | undefined;
  frameNote: CaptureOptions["frameNote"];
  signal: AbortSignal | undefined;
  hold: boolean;
  onFrameRead: CaptureOptions["onFrameRead"];
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

/**
 * One frame's outline with its child frames spliced in. `signal`: what ends its page calls (the
 * call's, or a child frame's own budget joined to it).
 */
async function frameText(
  page: Page,
  registry: RefRegistry,
  frameId: string,
  rootId: number | undefined,
  level: number,
  stats: Stats,
  signal: AbortSignal | undefined = stats.signal,
): Promise<string> {
  const frame = page.frame(frameId);
  if (!frame) throw new Error(`frame "${frameId}" is gone`);
  const loaderId = frame.loaderId;
  // Under masking, long text runs stay on one line: a split could fall inside a secret's value.
  const wholeLines = currentMasker() !== undefined;
  const doc = { targetId: page.target.targetId, frameId, loaderId };
  // Refs this registry read before may come as `[id]` alone (snapshot_refs.ts); `whole`: none.
  const read = (whole = false) =>
    callUtility(page, frameId, "snapshotWithGeneration", [{
      ...(rootId === undefined ? { wholeLines } : { rootId, wholeLines }),
      ...(whole ? { registry: registry.reads.token } : registry.reads.ackFor(doc)),
    }], { signal });
  let snap = await read();
  // Custom elements not checked yet may hold closed shadow roots: once some are handed over,
  // read again (a closed root may hold more hosts: a few rounds).
  for (let round = 0; round < 3 && snap.hosts.length; round++) {
    const handed = await handOverClosedHosts(page, frameId, snap.hosts, signal)
      .catch((e) => {
        if (signal?.aborted) throw e;
        return 0;
      });
    if (!handed) break;
    snap = await read();
  }
  if (page.frame(frameId)?.loaderId !== loaderId) {
    throw new Error(`frame "${frameId}" navigated during the snapshot`);
  }
  stats.frames++;
  stats.states.push({ frameId, loaderId, generation: snap.generation });
  if (frameId === page.mainFrameId) stats.title = snap.title;
  registry.dropStale(doc.targetId, frameId, loaderId, snap.instance);
  let refs = registerSnapshotRefs(registry, doc, snap, stats.hold);
  if (!refs) {
    snap = await read(true);
    if (page.frame(frameId)?.loaderId !== loaderId) {
      throw new Error(`frame "${frameId}" navigated during the snapshot`);
    }
    refs = registerSnapshotRefs(registry, doc, snap, stats.hold)!;
  }
  stats.seen.push(...refs.values());
  stats.refs += snap.refs.length;
  if (frameId === page.mainFrameId && rootId === undefined && snap.focus !== undefined) {
    stats.focusRef = refs.get(snap.focus);
  }
  stats.onFrameRead?.(stats.frames, stats.refs);
  const text = snap.text.replace(/\[ref=#(\d+)\]/g, (m, id) => {
    const ref = refs.get(Number(id));
    return ref ? `[ref=${ref}]` : m;
  });
  if (!snap.frames.length) return text;
  const children = await Promise.all(
    snap.frames.map((id) =>
      level + 1 >= MAX_FRAME_DEPTH
        ? Promise.resolve("(frame nested too deep to read)")
        : childFrameText(page, registry, frameId, id, level + 1, stats, signal)
    ),
  );
  return spliceFrames(text, new Map(snap.frames.map((id, i) => [id, children[i]!])));
}

async function childFrameText(
  page: Page,
  registry: RefRegistry,
  parentFrameId: string,
  ownerId: number,
  level: number,
  stats: Stats,
  parentSignal: AbortSignal | undefined,
): Promise<string> {
  try {
    const childId = await contentFrameId(page, parentFrameId, ownerId);
    if (!childId) return "(frame has no document)";
    const frame = await waitForFrame(page, childId, parentSignal);
    if (!frame) return "(frame not loaded yet)";
    const note = stats.frameNote?.(frame.url, frame.frameId);
    if (note !== undefined) return note;
    // A frame whose script is busy (an ad in a loop) answers nothing: the page is read without
    // it after CHILD_FRAME_MS, not after the call's whole time. Its reads stop with it.
    const budget = new AbortController();
    const signal = parentSignal ? AbortSignal.any([parentSignal, budget.signal]) : budget.signal;
    const read = frameText(page, registry, childId, undefined, level, stats, signal);
    const text = await within(read, CHILD_FRAME_MS, parentSignal);
    if (text === undefined) {
      budget.abort();
      read.catch(() => {});
      return `(frame not responding: its script is busy; not read)`;
    }
    return text;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return `(frame unavailable: ${message.split("\n")[0]!.slice(0, 120)})`;
  }
}

/** The frame once the tab knows it, or undefined after {@link FRAME_WAIT_MS} (or the tab closed). */
async function waitForFrame(
  page: Page,
  frameId: string,
  signal: AbortSignal | undefined,
): Promise<FrameInfo | undefined> {
  await poll(() => page.frame(frameId) !== undefined || page.isClosed, {
    timeoutMs: FRAME_WAIT_MS,
    intervalMs: 25,
    maxIntervalMs: 25,
    signal,
  });
  return page.frame(frameId);
}

/** Replaces each `- iframe … [frame=#N]` marker by the frame's lines, indented under it. */
function spliceFrames(text: string, children: Map<number, string>): string {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    const m = / \[frame=#(\d+)\]/.exec(line);
    const child = m ? children.get(Number(m[1])) : undefined;
    if (!m || child === undefined) {
      out.push(line);
      continue;
    }
    out.push(line.slice(0, m.index) + line.slice(m.index + m[0].length));
    const pad = " ".repeat(line.length - line.trimStart().length + 2);
    for (const l of child.split("\n")) if (l) out.push(pad + l);
  }
  return out.join("\n");
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
