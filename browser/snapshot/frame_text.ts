/**
 * One frame's part of a snapshot capture (`capture.ts`): the page-side walk of its document
 * (`snapshotWithGeneration`), its refs registered, and each child frame's outline read in
 * parallel and spliced under its `- iframe` line; a child frame that cannot be read becomes a
 * note line.
 *
 * @module
 */
import type { FrameInfo, Page } from "../../cdp/page.ts";
import { callUtility } from "../injected/mod.ts";
import { currentMasker } from "../secret_scope.ts";
import type { RefRegistry } from "./refs.ts";
import { poll, within } from "../poll.ts";
import { handOverClosedHosts } from "./closed_hosts.ts";
import { registerSnapshotRefs } from "./snapshot_refs.ts";
import { contentFrameId } from "./frame_owner.ts";

/** Which document state of one frame a snapshot reflects. */
export interface FrameState {
  frameId: string;
  loaderId: string;
  generation: number;
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

/** What a capture's frame reads gather, and the capture's options they follow. */
export interface FrameReadStats {
  /** The ref of the main frame's focused element (a whole page's read only). */
  focusRef?: string | undefined;
  refs: number;
  frames: number;
  states: FrameState[];
  /** The refs registered so far. */
  seen: string[];
  /** The main frame document's title, once its snapshot is read. */
  title?: string | undefined;
  /** See `CaptureOptions.frameNote`. */
  frameNote: ((url: string, frameId: string) => string | undefined) | undefined;
  signal: AbortSignal | undefined;
  hold: boolean;
  /** See `CaptureOptions.onFrameRead`. */
  onFrameRead: ((frames: number, refs: number) => void) | undefined;
}

/**
 * The outline of the frame `frameId` of a tab (of its element `rootId`'s subtree when given),
 * its child frames spliced in, its refs registered in `registry`; what was read is added to
 * `stats`, whose signal ends its page calls.
 *
 * @throws EvaluationError / ProtocolError / TargetClosedError, or an Error when the frame is
 *   gone or navigated during the read.
 */
export function captureFrame(
  page: Page,
  registry: RefRegistry,
  options: { frameId: string; rootId: number | undefined; stats: FrameReadStats },
): Promise<string> {
  return frameText(page, registry, options.frameId, options.rootId, 0, options.stats);
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
  stats: FrameReadStats,
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
  stats: FrameReadStats,
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
