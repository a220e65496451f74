/**
 * Helpers of the snapshot and ref tests that drive a page over CDP (`snapshot_test.ts`,
 * `stale_refs_test.ts`): a function on a handle's element, an expression in the page's own
 * world, a ref's element's text, a snapshot as the agent is shown it.
 *
 * @module
 */
import type { Page } from "../cdp/page.ts";
import { releaseHandle, type RemoteHandle } from "../browser/injected/mod.ts";
import type { RefRegistry } from "../browser/snapshot/refs.ts";
import { resolveRef } from "../browser/snapshot/resolve.ts";
import { captureSnapshot } from "../browser/snapshot/capture.ts";
import { refsShownIn } from "../browser/snapshot/shown_refs.ts";

/** Runs a function on the element of a handle (in the utility world); returns its JSON value. */
export async function onElement<T>(h: RemoteHandle, fn: string): Promise<T> {
  const r = await h.session.send("Runtime.callFunctionOn", {
    functionDeclaration: fn,
    objectId: h.objectId,
    returnByValue: true,
  });
  return r.result.value as T;
}

/** Evaluates in the page's own world of the main frame (as the page's scripts would). */
export async function inPage(page: Page, expression: string): Promise<unknown> {
  return await page.evaluate(expression, { world: "main" });
}

/** The text content of a ref's element (resolved as an action would). */
export async function textOfRef(page: Page, refs: RefRegistry, ref: string): Promise<string> {
  const h = await resolveRef(page, refs, ref);
  try {
    return await onElement<string>(h, "function() { return this.textContent.trim(); }");
  } finally {
    releaseHandle(h);
  }
}

/**
 * A snapshot of `page` (of `rootRef`'s subtree when given) whose refs are marked shown: the text
 * is what the agent is shown, its refs the ones an action may use.
 */
export function shownSnapshot(
  page: Page,
  refs: RefRegistry,
): (rootRef?: string) => Promise<string> {
  return async (rootRef?: string) => {
    const { text } = await captureSnapshot(page, refs, rootRef ? { rootRef } : {});
    refs.markShown(refsShownIn(text));
    return text;
  };
}
