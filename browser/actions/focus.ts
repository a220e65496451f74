/**
 * Moving the keyboard focus to an element before keys are pressed on it, and letting the page
 * catch up before a key that acts on what was typed.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { callUtility, type RemoteHandle } from "../injected/mod.ts";

/**
 * Focuses the element (and its frame), as a person's click into it would for the keys that
 * follow, without a pointer event. CDP: `DOM.focus`.
 *
 * @throws ProtocolError when the element cannot take focus (Chromium says why); AbortError
 *   when `signal` aborts.
 */
export async function focusElement(handle: RemoteHandle, signal?: AbortSignal): Promise<void> {
  await handle.session.send("DOM.focus", { objectId: handle.objectId }, { signal });
}

/** Longest wait for the page's task turn before Enter, ms (a busy page: Enter goes anyway). */
const TASK_TURN_MAX_MS = 1000;

/**
 * Waits one turn of the frame's task queue (the page library's `taskTurn`) before a key that
 * acts on what was typed (Enter): handlers of the text's `input` events that deferred work with
 * a zero-delay timer run first, as they would between a person's keys. Never fails: a page that
 * does not answer within {@link TASK_TURN_MAX_MS} (busy, or gone) gets the key anyway.
 * CDP: `Runtime.callFunctionOn` (awaitPromise).
 *
 * @throws AbortError when `signal` aborts.
 */
export async function pageTaskTurn(
  page: Page,
  frameId: string,
  signal?: AbortSignal,
): Promise<void> {
  await callUtility(page, frameId, "taskTurn", [], {
    timeoutMs: TASK_TURN_MAX_MS,
    signal,
  }).catch((e) => {
    if (signal?.aborted) throw e;
  });
}
