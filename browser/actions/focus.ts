/**
 * Moving the keyboard focus to an element before keys are pressed on it, and letting the page
 * catch up before a key that acts on what was typed.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { callOnHandle, callUtility, type RemoteHandle } from "../injected/mod.ts";
import { ToolError } from "../tool_error.ts";

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
 * a zero-delay timer run first, as they would between a person's keys. A page that does not
 * answer within {@link TASK_TURN_MAX_MS} (busy, or gone) gets the key anyway.
 * CDP: `Runtime.callFunctionOn` (awaitPromise).
 *
 * @throws ToolError `not-actionable` when the page moved the focus during that turn (the next
 *   keys would land elsewhere: a red team's page focused a "Buy now" button from its input handler);
 *   AbortError when `signal` aborts.
 */
export async function pageTaskTurn(
  page: Page,
  frameId: string,
  options: {
    signal?: AbortSignal | undefined;
    /** What did not happen when the focus moved (default "Enter was not pressed"). */
    stopped?: string;
    /**
     * The field the text went to (fill): the focus must still be on it. Without it, on the
     * element the page's last `input` event went to (type).
     */
    field?: RemoteHandle | undefined;
  } = {},
): Promise<void> {
  const { signal, stopped = "Enter was not pressed", field } = options;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const asked = field
    ? Promise.race([
      callOnHandle(field, "taskTurnOn"),
      new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), TASK_TURN_MAX_MS)),
    ]).finally(() => clearTimeout(timer))
    : callUtility(page, frameId, "taskTurn", [], { timeoutMs: TASK_TURN_MAX_MS, signal });
  const moved = await asked.catch((e) => {
    if (signal?.aborted) throw e;
    return null;
  });
  if (moved === null) return;
  throw new ToolError(
    "not-actionable",
    `${stopped}: once the keys before went in, the page moved the focus to ${moved}`,
    "take a snapshot to see what has the focus now; to go on, click or fill the field you " +
      "mean (keys sent now go to the element the page chose)",
    { focusMovedTo: moved },
  );
}
