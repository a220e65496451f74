/**
 * One keyboard and one mouse per tab, so modifier state and pointer
 * position carry over between calls.
 *
 * @module
 */
import { Keyboard } from "../../cdp/input.ts";
import { Mouse } from "../../cdp/mouse_input.ts";
import type { Page } from "../../cdp/page.ts";

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
