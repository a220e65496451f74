/**
 * One keyboard and one mouse per tab, so modifier state and pointer
 * position carry over between calls.
 *
 * @module
 */
import { Keyboard } from "../../cdp/input.ts";
import { Mouse } from "../../cdp/mouse_input.ts";
import type { Page } from "../../cdp/page.ts";
import { TargetClosedError } from "../../cdp/errors.ts";

const devices = new WeakMap<Page, { keyboard: Keyboard; mouse: Mouse }>();

/** The keyboard and mouse of a tab (created on first use). */
export function inputOf(page: Page): { keyboard: Keyboard; mouse: Mouse } {
  let d = devices.get(page);
  if (!d) {
    const keyboard = new Keyboard(page.session);
    d = { keyboard, mouse: new Mouse(page.session, keyboard) };
    devices.set(page, d);
  }
  return d;
}

/**
 * When Chromium last answered an input event of the tab's keyboard or mouse, epoch ms
 * (0: none yet). Chromium answers an input event once the page handled it: an action whose
 * last effect was input can count the page's quiet from then (see `ActionSpec.quietFromInput`).
 */
export function lastInputAnswer(page: Page): number {
  const d = devices.get(page);
  return d ? Math.max(d.keyboard.answeredAt, d.mouse.answeredAt) : 0;
}

/**
 * Waits for an input event (or a press and release) and treats a tab that closed while it was
 * handled as the input's own effect: the event had gone out (its reply was lost with the tab,
 * `TargetClosedError.sent`), so the page took it, e.g. a Close button's `window.close()`. The
 * action's result then reports the closed tab (`navigation.kind: "tab_closed"`). An event
 * refused before it was sent (the tab was already gone) still throws.
 */
export async function inputTaken(event: Promise<unknown>): Promise<void> {
  try {
    await event;
  } catch (e) {
    if (!(e instanceof TargetClosedError && e.sent)) throw e;
  }
}
