/**
 * `read_page` (seed 004): the page as text, or as a map of what can be acted on, paged by
 * characters.
 *
 * - text: the shown text of the text model (`injected/text_lib.ts`, what the snapshot shows),
 *   one line per block, of the main frame (like innerText, an iframe's text is its own: a
 *   selector matching inside an iframe reads it); with `links`, the shown links (absolute,
 *   de-duplicated, ≤ 100).
 * - tree: one line per actionable element plus headings, taken from the snapshot (all frames,
 *   open shadow roots), so its refs are the session's refs and work with click and the rest:
 *   `e12 link "Pricing" -> /pricing`, `e15 button "Save"`, `e16 checkbox "Remember" [checked]`,
 *   `## Heading`. Input values are never shown.
 *
 * `selector` limits either mode to one element's subtree (its first match, any frame); no match
 * answers `not-found` at once. Under masking the text is masked before it is cut.
 *
 * @module
 */
import type { Page } from "../cdp/page.ts";
import { frameMatchWarning, queryFrames } from "./actions/frame_query.ts";
import { selectorError } from "./actions/target.ts";
import { callOnHandle, callUtility, releaseHandle, type RemoteHandle } from "./injected/mod.ts";
import type { ReadText } from "./injected/text_types.ts";
import { maskedForAgent } from "./secret_scope.ts";
import { captureSnapshot, type SnapshotCache, tabSnapshot } from "./snapshot/capture.ts";
import type { RefRegistry } from "./snapshot/refs.ts";
import { rowControls } from "./snapshot/row_line.ts";
import { ToolError } from "./tool_error.ts";

/** Default page size, chars. */
export const DEFAULT_READ_CHARS = 20_000;

/** What to read. */
export interface ReadPageOptions {
  mode: "text" | "tree";
  links: boolean;
  selector?: string | undefined;
  /** Char offset into the whole output (`next_offset` of the previous page). */
  offset: number;
  maxChars: number;
  /** A child frame showing `url` is not read (the navigation policy's note instead). */
  frameNote?: ((url: string, frameId: string) => string | undefined) | undefined;
  signal?: AbortSignal | undefined;
}

/** What `read_page` answers. */
export interface ReadPageResult {
  mode: "text" | "tree";
  /** This page of the output. */
  content: string;
  /** Length of the whole output, chars. */
  total_chars: number;
  truncated: boolean;
  /** Where the next page starts (when truncated). */
  next_offset?: number;
  /** Shown links (text mode with `links`). */
  links?: Array<{ text: string; href: string }>;
  /** More distinct links were left out. */
  more_links?: boolean;
  /** The selector matched inside an iframe, not in the main frame. */
  warning?: string;
}

/**
 * Reads the page (see the module doc). CDP: `Runtime.evaluate` / `Runtime.callFunctionOn` in
 * the utility worlds (`readText`, `refFacts`, the snapshot walk).
 *
 * @throws ToolError `not-found` when `selector` matches nothing, `invalid-argument` for an
 *   invalid selector; errors of the page calls (the tab closed or navigated meanwhile).
 */
export async function readPage(
  page: Page,
  session: { refs: RefRegistry; snapshots: SnapshotCache },
  options: ReadPageOptions,
): Promise<ReadPageResult> {
  const { signal } = options;
  let handle: RemoteHandle | undefined;
  let warning: string | undefined;
  if (options.selector !== undefined) {
    ({ handle, warning } = await region(page, session.refs, options));
  }
  try {
    if (options.mode === "text") {
      const read: ReadText = handle
        ? await callOnHandle(handle, "readText", [options.links])
        : await callUtility(page, page.mainFrameId, "readText", [null, options.links], { signal });
      const paged = pageChars(maskedForAgent(read.text), options.offset, options.maxChars);
      return {
        mode: "text",
        ...paged,
        ...(options.links ? { links: read.links } : {}),
        ...(read.moreLinks ? { more_links: true } : {}),
        ...(warning ? { warning } : {}),
      };
    }
    let text: string;
    if (handle) {
      const facts = await callOnHandle(handle, "refFacts");
      const frame = page.frame(handle.frameId);
      if (!facts || !frame) throw notFound(options.selector!);
      const ref = session.refs.refFor(
        {
          targetId: page.target.targetId,
          frameId: handle.frameId,
          loaderId: frame.loaderId,
          instance: facts.instance,
          localId: facts.localId,
        },
        facts.role,
        facts.name,
        { context: { kind: facts.context[0], text: facts.context[1] } },
      );
      text = (await captureSnapshot(page, session.refs, {
        rootRef: ref,
        rootIssued: true,
        frameNote: options.frameNote,
        signal,
      })).text;
    } else {
      const snap = await tabSnapshot(page, session.refs, session.snapshots, {
        reuse: options.offset > 0,
        // Refs take where they sit now once the page of lines shown holds them (below).
        holdContexts: true,
        frameNote: options.frameNote,
        signal,
      });
      text = snap.text;
    }
    const paged = pageLines(maskedForAgent(treeLines(text)), options.offset, options.maxChars);
    if (!handle) session.refs.showAll(page.target.targetId, paged.content);
    return { mode: "tree", ...paged, ...(warning ? { warning } : {}) };
  } finally {
    if (handle) releaseHandle(handle);
  }
}

function notFound(selector: string): ToolError {
  return new ToolError(
    "not-found",
    `No element matches selector "${selector}"`,
    "read without selector, or take a snapshot and use a selector or ref that exists",
  );
}

/** The selector's first match (main frame first, then child frames in snapshot order). */
async function region(
  page: Page,
  registry: RefRegistry,
  options: ReadPageOptions,
): Promise<{ handle: RemoteHandle; warning?: string }> {
  const selector = options.selector!;
  if (!selector.trim()) {
    throw new ToolError("invalid-argument", "Empty selector", "pass a CSS selector or text=…");
  }
  let found;
  try {
    found = await queryFrames(page, registry, selector, {
      signal: options.signal,
      skip: (url, id) => options.frameNote?.(url, id) !== undefined,
    });
  } catch (e) {
    selectorError(e, selector);
  }
  if (!found.handle) throw notFound(selector);
  return {
    handle: found.handle,
    ...(found.frame ? { warning: frameMatchWarning(found.frame) } : {}),
  };
}

type Paged = Pick<ReadPageResult, "content" | "total_chars" | "truncated" | "next_offset">;

/** `max` chars of `text` from `offset` (never half a surrogate pair). */
export function pageChars(text: string, offset: number, max: number): Paged {
  let end = Math.min(text.length, offset + max);
  const c = text.charCodeAt(end - 1);
  if (end < text.length && end - 1 > offset && c >= 0xd800 && c <= 0xdbff) end--;
  const truncated = end < text.length;
  return {
    content: text.slice(offset, end),
    total_chars: text.length,
    truncated,
    ...(truncated ? { next_offset: end } : {}),
  };
}

/**
 * Whole lines of `text` from `offset` (moved to the next line start when inside a line) up to
 * `max` chars; a line longer than `max` comes whole, alone.
 */
export function pageLines(text: string, offset: number, max: number): Paged {
  let start = Math.min(offset, text.length);
  if (start > 0 && text[start - 1] !== "\n") {
    const nl = text.indexOf("\n", start);
    start = nl < 0 ? text.length : nl + 1;
  }
  let end = start;
  while (end < text.length) {
    const nl = text.indexOf("\n", end);
    const next = nl < 0 ? text.length : nl + 1;
    if (end > start && next - start > max) break;
    end = next;
  }
  const truncated = end < text.length;
  return {
    content: text.slice(start, end).replace(/\n$/, ""),
    total_chars: text.length,
    truncated,
    ...(truncated ? { next_offset: end } : {}),
  };
}

const REF_LINE = /^- (\S+)((?: "(?:[^"\\]|\\.)*")?) \[ref=(e\d+)\]((?: \[[^\]]*\])*)(.*)$/;
const INLINE_LINK = /\[([^[\]]*)\](?:\(([^()\s]*)\))?\[ref=(e\d+)\]/g;

/**
 * The tree lines of a snapshot outline: headings as they are, each targetable element as
 * `eN role "name" [states]` (a link's URL as `-> url`; hints kept; values dropped; a control in a
 * table row's line too), each inline
 * link as `eN link "text" -> url`; everything else (text, structure) left out.
 */
export function treeLines(outline: string): string {
  const out: string[] = [];
  for (const raw of outline.split("\n")) {
    const line = raw.trim();
    if (/^#{1,9}( |$)/.test(line)) {
      out.push(line);
      continue;
    }
    const m = REF_LINE.exec(line);
    if (m) {
      const [, role, name, ref, states, rest] = m;
      // After the states: a hint `(#id)`, a link's URL, then `: value` (never shown here).
      const tail = rest!.replace(/: .*$/, "").trim();
      const where = role === "link" && tail && !tail.startsWith("(") ? ` -> ${tail}` : "";
      const hint = tail.startsWith("(") ? ` ${tail}` : "";
      const extra = role === "iframe" && tail ? ` ${tail}` : "";
      out.push(`${ref} ${role}${name}${states}${where}${hint}${extra}`);
    }
    // Links inline in text (or in a line's folded content), controls inline in a table row's
    // line, in the order they stand.
    const inline: Array<[number, string]> = [];
    const from = m ? line.length - m[5]!.length : 0;
    for (const l of line.slice(from).matchAll(INLINE_LINK)) {
      const text = l[1]!.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
      inline.push([
        from + l.index,
        `${l[3]} link${text ? ` "${text}"` : ""}${l[2] ? ` -> ${l[2]}` : ""}`,
      ]);
    }
    for (const c of rowControls(line)) {
      const name = c.quotedName ? " " + c.quotedName : "";
      inline.push([c.index, `${c.ref} ${c.role}${name}${c.states}${c.hint}`]);
    }
    for (const [, l] of inline.sort((x, y) => x[0] - y[0])) out.push(l);
  }
  return out.join("\n");
}
