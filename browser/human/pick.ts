/**
 * Pick mode (seed 003): a person points at an element in the web console's live view. A hover
 * gets a hint to draw (tag, id, classes, bounds); a click makes the element a `pN` ref in the
 * session's ref registry — the same kind of entry as a snapshot's `eN` (tab, frame, document,
 * world, page-local id), so it works wherever an `eN` does and fails `ref-gone` like one.
 *
 * Coordinates are CSS px of the top-level viewport (what the live view's `toPage` gives). The
 * hit test goes through frames: Chromium's `DOM.getNodeForLocation` on the tab answers the
 * element of a same-process frame itself, and an out-of-process iframe's `<iframe>` element,
 * where the hit test goes on in that frame's own process at the point inside it.
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import type { Page } from "../../cdp/page.ts";
import { callUtility } from "../injected/mod.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import type { HumanPick } from "../sessions/human_state.ts";
import { ToolError } from "../tool_error.ts";
import { addPick } from "./session_control.ts";

/** A box in CSS px of the top-level viewport. */
export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What a pick-mode hover shows: the element under the pointer, or `hit: false`. */
export interface PickHint {
  hit: boolean;
  /** Lowercase tag name. */
  tag?: string;
  /** Its `id` attribute, when it has one. */
  id?: string;
  classes?: string[];
  /** Its border box. */
  bounds?: Bounds;
}

/** The element at a point: its node, the frame and session that own it, that frame's offset. */
interface NodeAt {
  backendNodeId: number;
  frameId: string;
  session: CdpSession;
  /** Where the frame's viewport sits in the top-level viewport, CSS px. */
  offset: { x: number; y: number };
  node: { nodeName: string; attributes?: string[] };
}

/** Deepest frame nesting followed. */
const MAX_FRAME_DEPTH = 8;

/** Checks a point given by a viewer: finite numbers inside the viewport's possible range. */
export function checkPoint(x: unknown, y: unknown): { x: number; y: number } {
  if (
    typeof x !== "number" || typeof y !== "number" || !Number.isFinite(x) ||
    !Number.isFinite(y) || x < 0 || y < 0 || x > 100_000 || y > 100_000
  ) {
    throw new ToolError(
      "invalid-argument",
      `Invalid point (${String(x)}, ${String(y)}): x and y must be numbers of CSS px in the page`,
      "send the point inside the live view",
    );
  }
  return { x, y };
}

/**
 * The element at (x, y), through frames, or undefined when nothing is there.
 * CDP: `Runtime.evaluate` (each frame's scroll), `DOM.getNodeForLocation`, `DOM.describeNode`,
 * `DOM.getBoxModel` (an OOPIF's offset).
 */
async function nodeAt(page: Page, x: number, y: number): Promise<NodeAt | undefined> {
  let session = page.session;
  let frameId = page.mainFrameId;
  const offset = { x: 0, y: 0 };
  for (let depth = 0; depth < MAX_FRAME_DEPTH; depth++) {
    // The hit test takes document coordinates (the frame's scroll added), boxes are viewport ones.
    const [sx, sy] = await page.evaluate("[scrollX, scrollY]", { frameId, timeoutMs: 5000 }) as [
      number,
      number,
    ];
    let hit;
    try {
      hit = await session.send("DOM.getNodeForLocation", {
        x: Math.round(x - offset.x + sx),
        y: Math.round(y - offset.y + sy),
        includeUserAgentShadowDOM: false,
      });
    } catch {
      return undefined; // "No node found at given location"
    }
    const { node } = await session.send("DOM.describeNode", { backendNodeId: hit.backendNodeId });
    const child = node.frameId ? page.frame(node.frameId) : undefined;
    if (child && child.session !== session && /^i?frame$/i.test(node.nodeName)) {
      // An out-of-process frame: its content is hit-tested in its own process.
      const box = await contentBox(session, hit.backendNodeId);
      if (!box) return undefined;
      offset.x += box.x;
      offset.y += box.y;
      session = child.session;
      frameId = child.frameId;
      continue;
    }
    return { backendNodeId: hit.backendNodeId, frameId: hit.frameId, session, offset, node };
  }
  return undefined;
}

/** A node's content box in its session's viewport, or undefined (not rendered). */
async function contentBox(session: CdpSession, backendNodeId: number): Promise<Bounds | undefined> {
  try {
    const { model } = await session.send("DOM.getBoxModel", { backendNodeId });
    return quadBounds(model.content);
  } catch {
    return undefined;
  }
}

function quadBounds(q: number[]): Bounds {
  const xs = [q[0]!, q[2]!, q[4]!, q[6]!];
  const ys = [q[1]!, q[3]!, q[5]!, q[7]!];
  const x = Math.min(...xs), y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

function attr(node: NodeAt["node"], name: string): string | undefined {
  const a = node.attributes ?? [];
  for (let i = 0; i + 1 < a.length; i += 2) if (a[i] === name) return a[i + 1];
  return undefined;
}

/**
 * The hint of a pick-mode hover at (x, y) in the session's active tab: the element's tag,
 * id, classes and border box (CSS px of the top-level viewport), or `{ hit: false }`.
 *
 * @throws ToolError `invalid-argument` (bad point), `page-closed` (no tab open).
 */
export async function pickHint(session: BrowserSession, x: number, y: number): Promise<PickHint> {
  const page = activeTab(session);
  const at = await nodeAt(page, x, y);
  if (!at || at.node.nodeName.startsWith("#")) return { hit: false };
  let bounds: Bounds | undefined;
  try {
    const { model } = await at.session.send("DOM.getBoxModel", {
      backendNodeId: at.backendNodeId,
    });
    const b = quadBounds(model.border);
    bounds = { ...b, x: b.x + at.offset.x, y: b.y + at.offset.y };
  } catch { /* not rendered: no box */ }
  // The page names its elements as long as it likes; a hint goes out on every pointer move.
  const id = cutName(attr(at.node, "id"));
  const classes = (attr(at.node, "class") ?? "").split(/\s+/).filter(Boolean).slice(0, 10)
    .map((c) => cutName(c)!);
  return {
    hit: true,
    tag: at.node.nodeName.toLowerCase(),
    ...(id ? { id } : {}),
    classes,
    ...(bounds ? { bounds } : {}),
  };
}

/** Longest id or class a pick hint shows, characters. */
const HINT_NAME_CHARS = 100;
/** Longest selector hint a pick keeps, characters (a longer one is dropped: not a hint). */
const SELECTOR_HINT_CHARS = 500;

function cutName(text: string | undefined): string | undefined {
  return text !== undefined && text.length > HINT_NAME_CHARS
    ? `${text.slice(0, HINT_NAME_CHARS)}…`
    : text;
}

/** What the page library says of a picked element (its page-local id and ref facts). */
interface PickedInfo {
  localId: number;
  instance: string;
  role: string;
  name: string;
  context: [string, string];
}

/** The page side of {@link pickAt}: self-contained (its source is sent); `this` is the element. */
function pickedInfo(this: Node): PickedInfo | null {
  const api =
    (globalThis as unknown as { __browxai?: Record<string, (...a: unknown[]) => unknown> })
      .__browxai;
  const el = this.nodeType === 1 ? this as Element : this.parentElement;
  if (!api || !el) return null;
  const role = api.refRole!(el) as string;
  const name = api.nameOf!(el) as string;
  return {
    localId: api.idOf!(el) as number,
    instance: (api as unknown as { instance: string }).instance,
    role,
    name,
    context: api.contextOf!(el, role, name) as [string, string],
  };
}

/**
 * Picks the element at (x, y) in the session's active tab for the agent: registers a new
 * `pN` in the session's ref registry (with the role, name and context the page library
 * gives, as a snapshot would), finds a verified selector hint (as `find` does: unique in its
 * frame, and matching nothing in the frames a selector is looked for in first), keeps the
 * pick on `session.human.picks` and in the session's news.
 *
 * CDP: as {@link pickHint}, then `DOM.resolveNode` in the frame's utility world and
 * `Runtime.callFunctionOn` / `Runtime.evaluate` there.
 *
 * @throws ToolError `not-found` when nothing is at the point, `page-closed` (no tab),
 *   `page-changed` when the frame's document went away meanwhile.
 */
export async function pickAt(session: BrowserSession, x: number, y: number): Promise<HumanPick> {
  const page = activeTab(session);
  const at = await nodeAt(page, x, y);
  if (!at) {
    throw new ToolError(
      "not-found",
      `No element at (${Math.round(x)}, ${Math.round(y)}) in the page`,
      "point at an element in the live view",
    );
  }
  const frame = page.frame(at.frameId);
  if (!frame) throw new ToolError("page-changed", "The frame went away", "pick again");
  // The library in the frame's utility world first (installed on demand by any call).
  await callUtility(page, at.frameId, "describe", [0]);
  const { contextId } = await page.utilityContext(at.frameId);
  const loaderId = frame.loaderId;
  const { object } = await at.session.send("DOM.resolveNode", {
    backendNodeId: at.backendNodeId,
    executionContextId: contextId,
  });
  if (!object.objectId) throw new ToolError("page-changed", "The element went away", "pick again");
  let info: PickedInfo | null;
  try {
    const r = await at.session.send("Runtime.callFunctionOn", {
      functionDeclaration: pickedInfo.toString(),
      objectId: object.objectId,
      returnByValue: true,
    });
    info = r.exceptionDetails ? null : r.result.value as PickedInfo | null;
  } finally {
    at.session.send("Runtime.releaseObject", { objectId: object.objectId }).catch(() => {});
  }
  if (!info) throw new ToolError("page-changed", "The element went away", "pick again");
  const ref = session.refs.pick(
    {
      targetId: page.target.targetId,
      frameId: at.frameId,
      loaderId,
      instance: info.instance,
      localId: info.localId,
    },
    info.role,
    info.name,
    { kind: info.context[0], text: info.context[1] },
  );
  const selectorHint = await verifiedHint(page, at.frameId, info);
  const pick: HumanPick = {
    ref,
    role: info.role,
    name: info.name.length > 200 ? info.name.slice(0, 199) + "…" : info.name,
    ...(selectorHint && selectorHint.length <= SELECTOR_HINT_CHARS ? { selectorHint } : {}),
    url: page.url,
    created: Date.now(),
  };
  addPick(session, pick);
  session.between.picked(ref);
  return pick;
}

/**
 * The element's selector hint (find's: unique in its frame), dropped when a frame a selector
 * is looked in before it matches it too; undefined when none.
 */
async function verifiedHint(
  page: Page,
  frameId: string,
  info: PickedInfo,
): Promise<string | undefined> {
  try {
    const [h] = await callUtility(page, frameId, "findHints", [[info.localId], info.instance]);
    const hint = h?.hint;
    if (!hint) return undefined;
    for (const f of page.frames()) {
      if (f.frameId === frameId) break;
      const [n] = await callUtility(page, f.frameId, "findCounts", [[hint]]).catch(() => [0]);
      if (n !== 0) return undefined;
    }
    return hint;
  } catch {
    return undefined;
  }
}

/** The session's active tab, or `page-closed`. */
function activeTab(session: BrowserSession): Page {
  const page = session.activePage;
  if (!page || page.isClosed) {
    throw new ToolError(
      "page-closed",
      `Session "${session.id}" has no open tab`,
      "open a page in the session first",
    );
  }
  return page;
}
