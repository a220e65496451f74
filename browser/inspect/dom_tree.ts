/**
 * `dom_read`'s model: the DOM under an element (or the document) as a tree of tags with id,
 * class and a ref on every element, depth- and node-capped; the structure-oriented complement
 * of the snapshot (seed 003, `dom::read`). Refs come from the session's one registry: they
 * resolve in every acting tool, in `styles_read` and `styles_write`, and fail as any ref fails
 * (element gone, role or name changed, moved to another list item or structure); a ref first
 * issued here is not checked against the element's own text, which for a container changes
 * with anything inside it.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { callOnHandle, callUtility, releaseHandle, withSignal } from "../injected/mod.ts";
import type { DomNodeInfo } from "../injected/page_types.ts";
import type { RefRegistry } from "../snapshot/refs.ts";
import { resolveRef } from "../snapshot/resolve.ts";
import { cutClearOfSecrets } from "../actions/secret_query.ts";
import { ToolError } from "../tool_error.ts";

/** Levels of children read when the caller names none. */
export const DEFAULT_DOM_DEPTH = 3;
/** Most levels a read goes down. */
export const MAX_DOM_DEPTH = 12;
/** Most nodes one read returns (breadth first: the upper levels stay whole). */
export const MAX_DOM_NODES = 400;
/** Longest text node text shown, chars. */
const TEXT_MAX = 120;

/** One node of the tree, as `dom_read` returns it (seed 003's outline node). */
export interface DomNode {
  /** Lowercase tag, or `#text`, `#shadow-root`. */
  tag: string;
  id?: string;
  class?: string;
  /** The element's ref (`eN`). */
  ref?: string;
  /** A text node's text, whitespace collapsed, at most 120 chars. */
  text?: string;
  /** Its children in the document (elements and non-blank texts), read or not. */
  child_count: number;
  /** The children read; absent past the depth or the node cap. */
  children?: DomNode[];
}

/** What {@link readDom} returns. */
export interface DomRead {
  root: DomNode;
  /** The node cap cut the tree short: read a subtree by its ref. */
  truncated: boolean;
  /** Nodes returned. */
  nodes: number;
  /** The tree as an indented outline, one node a line (what the agent reads). */
  outline: string;
}

/**
 * Reads the DOM under `ref`'s element (omitted: the main frame's document element), `depth`
 * levels deep, at most {@link MAX_DOM_NODES} nodes, and gives every element a ref.
 * CDP: `Runtime.evaluate` / `Runtime.callFunctionOn` in the frame's utility world
 * (`inspectTree`, inspect_lib.ts).
 *
 * @throws RefGoneError (ref-gone) when the ref no longer names its element; ToolError
 *   page-changed when the document was replaced during the read.
 */
export async function readDom(
  page: Page,
  refs: RefRegistry,
  options: { ref?: string | undefined; depth: number; signal?: AbortSignal | undefined },
): Promise<DomRead> {
  const handle = options.ref !== undefined ? await resolveRef(page, refs, options.ref) : undefined;
  const frameId = handle?.frameId ?? page.mainFrameId;
  const loaderId = page.frame(frameId)?.loaderId;
  let tree;
  try {
    tree = handle
      ? await callOnHandle(withSignal(handle, options.signal), "inspectTree", [
        options.depth,
        MAX_DOM_NODES,
      ])
      : await callUtility(page, frameId, "inspectTree", [null, options.depth, MAX_DOM_NODES], {
        signal: options.signal,
      });
  } finally {
    if (handle) releaseHandle(handle);
  }
  if (!loaderId || page.frame(frameId)?.loaderId !== loaderId) {
    throw new ToolError(
      "page-changed",
      "The document was replaced while its DOM was read",
      "call dom_read again",
    );
  }
  const targetId = page.target.targetId;
  refs.dropStale(targetId, frameId, loaderId, tree.instance);
  const lines: string[] = [];
  const convert = (n: DomNodeInfo, level: number): DomNode => {
    const out: DomNode = { tag: n.tag, child_count: n.child_count };
    if (n.id) out.id = n.id;
    if (n.class) out.class = n.class;
    if (n.localId !== undefined) {
      const target = { targetId, frameId, loaderId, instance: tree.instance, localId: n.localId };
      const [kind, text] = n.context ?? ["", ""];
      // A ref the agent has keeps what it was shown with. A new one is checked as a snapshot's
      // (role, name, the item or structure it sits in), but not by its own content: every
      // element here gets a ref, and a container's text changes with anything inside it.
      out.ref = refs.lookup(target) ?? refs.refFor(target, n.role ?? "generic", n.name ?? "", {
        context: kind === "content" ? undefined : { kind, text },
      });
    }
    if (n.text !== undefined) out.text = cutClearOfSecrets(n.text, TEXT_MAX);
    lines.push("  ".repeat(level) + lineOf(out, n.children?.length));
    if (n.children) out.children = n.children.map((c) => convert(c, level + 1));
    return out;
  };
  const root = convert(tree.root, 0);
  return { root, truncated: tree.truncated, nodes: tree.nodes, outline: lines.join("\n") };
}

/**
 * `div#main.card.wide [ref=e5] (3)`: `(N)` counts its children when none is shown below it,
 * `(N, first M)` when the node cap cut them.
 */
function lineOf(n: DomNode, shown: number | undefined): string {
  if (n.tag === "#text") return JSON.stringify(n.text ?? "");
  let s = n.tag;
  if (n.id) s += `#${n.id}`;
  if (n.class) s += "." + n.class.split(" ").join(".");
  if (n.ref) s += ` [ref=${n.ref}]`;
  if (shown === undefined && n.child_count) s += ` (${n.child_count})`;
  else if (shown !== undefined && shown < n.child_count) s += ` (${n.child_count}, first ${shown})`;
  return s;
}
