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

/** The warning of a read of a blank tab (`snapshot`, `find`). */
export const BLANK_TAB_WARNING =
  "the tab is blank (about:blank): navigate first (each MCP session starts on a blank tab of its own)";

/** True when the tab shows no page yet (`about:blank`, or no URL at all). */
export function isBlankTab(page: Page): boolean {
  return page.url === "" || page.url === "about:blank";
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
