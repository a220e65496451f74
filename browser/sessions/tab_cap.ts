/**
 * The cap on the tabs a page opens (red team s14 #10): Chromium runs with
 * `--disable-popup-blocking` (an agent's click must open what a person's would), so one click on a
 * page looping `window.open()` opened 178+ tabs and left the session unusable (a snapshot timed
 * out). A session keeps at most {@link MAX_TABS} open: a tab a page opens beyond that is closed
 * as soon as it attached and resumed (its first request meets the navigation guard like any
 * tab's), and the acting call's result says so.
 *
 * @module
 */

/** Most tabs a session keeps open (its own and those its pages open). */
export const MAX_TABS = 20;

/** Tabs refused by the cap, remembered so a late attach of one is not taken as a new tab. */
export class TabCap {
  #refused = new Set<string>();

  /**
   * Whether a tab a page is opening (`targetId`) is refused with `open` tabs open or opening
   * already; a refused one is remembered (see {@link refused}).
   */
  refuses(targetId: string, open: number): boolean {
    if (open < MAX_TABS) return false;
    this.#refused.add(targetId);
    // A page refused thousands of times: the oldest ids are long closed.
    if (this.#refused.size > 1000) this.#refused.delete(this.#refused.values().next().value!);
    return true;
  }

  /** True when the cap refused `targetId` (it is being closed). */
  refused(targetId: string): boolean {
    return this.#refused.has(targetId);
  }
}
