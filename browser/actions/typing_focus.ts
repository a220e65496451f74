/**
 * Where `type`'s keys go: the focused element, followed into the iframe that holds the focus,
 * and, when nothing has the focus, whether the page listens for keys itself (a game, a
 * keyboard-driven app: its listeners on window, document, the root or the body take them).
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { callUtility, type RemoteHandle } from "../injected/mod.ts";
import { contentFrameId } from "../snapshot/frame_owner.ts";

/** How deep in nested frames the focused element is looked for. */
const MAX_FOCUS_DEPTH = 5;

/** What has the focus (see {@link typingFocus}). */
export interface TypingFocus {
  /** It takes text (a text field, a textarea, contenteditable). */
  editable: boolean;
  /** What it is (described), or "nothing (the page body)". */
  what: string;
  /** Nothing has the focus in `frameId` (its body): keys go to that document. */
  none?: boolean;
  /** The frame whose document holds the focus. */
  frameId: string;
}

/**
 * The focused element of the tab: in the main frame, or down the iframes that hold the focus.
 * CDP: one `Runtime.evaluate` (utility world, `focusInfo`); per iframe level, one
 * `DOM.describeNode` and one more evaluation.
 *
 * @returns undefined when a frame on the way is gone.
 */
export async function typingFocus(
  page: Page,
  signal?: AbortSignal,
): Promise<TypingFocus | undefined> {
  let frameId = page.mainFrameId;
  let focus = await callUtility(page, frameId, "focusInfo", [], { signal });
  for (let depth = 0; focus.frame !== undefined && depth < MAX_FOCUS_DEPTH; depth++) {
    const child = await contentFrameId(page, frameId, focus.frame);
    if (!child) return undefined;
    frameId = child;
    focus = await callUtility(page, frameId, "focusInfo", [], { signal });
  }
  return {
    editable: focus.editable,
    what: focus.what,
    ...(focus.none ? { none: true } : {}),
    frameId,
  };
}

/** Key events a page listens for when it takes keys with nothing focused. */
const KEY_EVENTS = new Set(["keydown", "keypress", "keyup"]);

/**
 * Whether the page in `frameId` listens for keys on its window, document, root element or
 * body (where keys go when nothing is focused); capturing passive listeners on the window are
 * browxai's own timer watch's, not counted. Unknown (no main world yet, a frame gone, a
 * failed call) counts as listening: the keys are not refused on a guess. CDP (the frame's
 * session): four `Runtime.evaluate` (page world) and four `DOMDebugger.getEventListeners`,
 * each four at once, then `Runtime.releaseObjectGroup`.
 */
export async function listensForKeys(
  page: Page,
  frameId: string,
  signal?: AbortSignal,
): Promise<boolean> {
  const frame = page.frame(frameId);
  const contextId = page.mainContext(frameId);
  if (!frame || contextId === undefined) return true;
  const objectGroup = "browxai-key-listeners";
  const { session } = frame;
  try {
    const targets = await Promise.all(
      ["window", "document", "document.documentElement", "document.body"].map((expression) =>
        session.send("Runtime.evaluate", { expression, contextId, objectGroup }, { signal })
      ),
    );
    const lists = await Promise.all(
      targets.map((t) =>
        t.result.objectId
          ? session.send("DOMDebugger.getEventListeners", {
            objectId: t.result.objectId,
            depth: 0,
          }, { signal })
          : { listeners: [] }
      ),
    );
    // On the window, browxai's own timer watch listens for input (capturing and passive, in
    // the page's world, page_timers_script.ts): those are not the page's.
    return lists.some((l, i) =>
      l.listeners.some((x) => KEY_EVENTS.has(x.type) && !(i === 0 && x.useCapture && x.passive))
    );
  } catch {
    return true;
  } finally {
    session.send("Runtime.releaseObjectGroup", { objectGroup }).catch(() => {});
  }
}

/**
 * Whether the element has a `change` listener of its own (an `onchange` attribute or property,
 * or `addEventListener("change")` on it; listeners on ancestors, such as a framework's root,
 * are not counted: those commonly answer `input` too). False when unknown (no main world yet, a
 * failed call): the warning it leads to is not given on a guess. The page's listeners are
 * listed only for an object of the page's world, so the node is resolved there first.
 * CDP (the handle's session): `DOM.describeNode`, `DOM.resolveNode` (main world),
 * `DOMDebugger.getEventListeners` (depth 0), `Runtime.releaseObjectGroup`.
 */
export async function listensForChange(page: Page, handle: RemoteHandle): Promise<boolean> {
  const executionContextId = page.mainContext(handle.frameId);
  if (executionContextId === undefined) return false;
  const { session, signal } = handle;
  const objectGroup = "browxai-change-listeners";
  try {
    const { node } = await session.send("DOM.describeNode", { objectId: handle.objectId }, {
      signal,
    });
    const { object } = await session.send("DOM.resolveNode", {
      backendNodeId: node.backendNodeId,
      executionContextId,
      objectGroup,
    }, { signal });
    if (!object.objectId) return false;
    const { listeners } = await session.send("DOMDebugger.getEventListeners", {
      objectId: object.objectId,
      depth: 0,
    }, { signal });
    return listeners.some((l) => l.type === "change");
  } catch {
    return false;
  } finally {
    session.send("Runtime.releaseObjectGroup", { objectGroup }).catch(() => {});
  }
}
