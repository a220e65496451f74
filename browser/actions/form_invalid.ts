/**
 * The form the browser's validation stops: a click on a submit button (the element facts'
 * `formInvalid`) or Enter in a field of the form (`press`) sends nothing, and the page shows
 * only a bubble the agent cannot see. The result says so, naming the fields.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { callOnHandle, callUtility, type RemoteHandle } from "../injected/mod.ts";
import { contentFrameId } from "../snapshot/frame_owner.ts";

/** Keys that submit a form from a field (HTML implicit submission) or activate a button. */
const ENTER_KEYS = new Set(["Enter", "NumpadEnter"]);

/**
 * The warning of a form that was not sent because validation stopped it: `invalid` are its
 * invalid fields ("name: message"), `again` what to do after filling them ("click again").
 */
export function validationStoppedWarning(invalid: readonly string[], again: string): string {
  return `the form was not sent: the browser's validation stopped it (${
    invalid.join("; ")
  }); fill those fields, then ${again}`;
}

/** How deep in nested frames the focused field is looked for. */
const MAX_FOCUS_DEPTH = 5;

/**
 * Before `press key`: when the key is Enter and the browser's validation would stop the form
 * it submits (on `handle`'s element, else the tab's focused element, in whichever frame holds
 * the focus), the warning to give unless the form was sent; else undefined. Best effort: a
 * page that does not answer gives no warning. CDP: one `Runtime.callFunctionOn` or
 * `Runtime.evaluate` (utility world), for Enter only; with the focus in an iframe, one
 * `DOM.describeNode` and one more evaluation per frame level down to it.
 */
export async function enterStoppedWarning(
  page: Page,
  key: string,
  handle: RemoteHandle | undefined,
): Promise<string | undefined> {
  if (!ENTER_KEYS.has(key)) return undefined;
  try {
    let invalid = handle
      ? await callOnHandle(handle, "enterBlocked")
      : await callUtility(page, page.mainFrameId, "enterBlocked", [null]);
    // The focus is in a frame: its own document says what Enter would send there.
    let frameId = page.mainFrameId;
    for (let depth = 0; invalid && "frame" in invalid && depth < MAX_FOCUS_DEPTH; depth++) {
      const child = await contentFrameId(page, frameId, invalid.frame);
      if (!child) return undefined;
      frameId = child;
      invalid = await callUtility(page, frameId, "enterBlocked", [null]);
    }
    return Array.isArray(invalid) && invalid.length
      ? validationStoppedWarning(invalid, "press Enter again")
      : undefined;
  } catch {
    return undefined;
  }
}
