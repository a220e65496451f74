/**
 * A session that has not shown a page yet. Each MCP session has its own tabs and refs: a client
 * that connects once per call (the MCP Inspector's CLI mode) starts every call on a blank tab,
 * so the `navigate` of the call before is gone and a ref from it was never issued here. An empty
 * outline, or "was never issued", said without that, left the agent guessing.
 *
 * @module
 */
import type { Page } from "../cdp/page.ts";
import type { RefRegistry } from "./snapshot/refs.ts";
import { RefGoneError } from "./snapshot/resolve.ts";
import type { NetworkEntry } from "./sessions/page_logs.ts";
import { ToolError } from "./tool_error.ts";

/** The warning of a read of a blank tab (`snapshot`, `find`). */
export const BLANK_TAB_WARNING =
  "the tab is blank (about:blank): navigate first (each MCP session starts on a blank tab of its own)";

/** True when the tab shows no page yet (`about:blank`, or no URL at all). */
export function isBlankTab(page: Page): boolean {
  return page.url === "" || page.url === "about:blank";
}

/**
 * True when the tab is blank, nothing is loading into it (no document request of its main frame
 * in `inFlight`, the session's requests in flight, `PageLogs.inFlight`, still waits for its
 * answer) and its document is empty (a page may write into a blank tab it opened: that one has
 * elements). A selector can match nothing there however long it waits.
 *
 * CDP: `Runtime.evaluate` (utility world), only when the tab is blank and idle; a document that
 * does not answer within 1 s counts as not empty (the caller then looks as usual).
 */
export async function emptyBlankTab(
  page: Page,
  inFlight: readonly NetworkEntry[],
  signal?: AbortSignal,
): Promise<boolean> {
  const loading = inFlight.some((r) =>
    r.type === "Document" && r.frameId === page.mainFrameId && r.status === undefined
  );
  if (!isBlankTab(page) || loading) return false;
  try {
    const empty = await page.evaluate("!(document.body && document.body.hasChildNodes())", {
      timeoutMs: 1000,
      signal,
    });
    return empty === true;
  } catch {
    return false;
  }
}

/** The `not-found` of a selector looked for on an empty blank tab ({@link emptyBlankTab}). */
export function blankTabSelectorError(selector: string): ToolError {
  return new ToolError(
    "not-found",
    `No element matches selector ${JSON.stringify(selector)}: ${BLANK_TAB_WARNING}`,
    "call navigate to open the page first, then act on it",
  );
}

/**
 * `error` said for a session that never issued a ref: when it is a ref-gone `unknown` (a ref
 * this session never issued) and the session has issued none at all, a RefGoneError with the
 * next step. On a blank tab: the session has not shown any page yet, navigate first. On a page
 * that is open (a `navigate` with `snapshot: "none"`): no snapshot of it was taken yet, and
 * refs come from one (snapshot or find). Else `error` itself. No CDP.
 */
export function unknownRefError(error: unknown, refs: RefRegistry, page: Page): unknown {
  if (!(error instanceof RefGoneError) || error.reason !== "unknown") return error;
  // e1 is the first ref any session issues: not issued, nothing was ever shown here.
  if (refs.wasIssued(error.ref) || refs.wasIssued("e1")) return error;
  if (!isBlankTab(page)) {
    return new RefGoneError(
      error.ref,
      "unknown",
      "was never issued: no snapshot of this page has been taken yet (refs come from a snapshot)",
      "call snapshot (or find) first, then use a ref it shows",
    );
  }
  return new RefGoneError(
    error.ref,
    "unknown",
    "was never issued: this session has not shown any page yet (its tab is blank)",
    "call navigate to open the page, then snapshot for its refs (each MCP connection is a session of its own, on a blank tab)",
  );
}
