/**
 * Moving the keyboard focus to an element before keys are pressed on it.
 *
 * @module
 */
import type { RemoteHandle } from "../injected/mod.ts";

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
