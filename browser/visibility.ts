/**
 * Tab visibility: background or foreground a session's tab (the `tab_visibility` tool), to
 * reproduce bugs that only fire while a tab is hidden (throttled timers, paused
 * `requestAnimationFrame`, on-return `visibilitychange` / `focus` handlers).
 *
 * Two layers, both applied on every call:
 *
 * - **Synthetic** (deterministic): a fixed script in the page's main world
 *   overrides `document.visibilityState` / `hidden` (and the `webkit` aliases)
 *   and `document.hasFocus()`, and dispatches `visibilitychange` then `blur`
 *   (on window) on the way out, `visibilitychange` then `focus` on the way
 *   back: the order Chromium itself uses for the real steps below.
 * - **Real** (best effort): a blank scratch tab of the same browser context
 *   is brought to front (`Page.bringToFront`), then focus emulation is
 *   switched off for the tab (`Emulation.setFocusEmulationEnabled`: while on,
 *   Chromium keeps a page visible and focused whatever is in front, see
 *   `Page.attach`). Whether the browser really hid the tab is measured in
 *   browxai's isolated world, which the main-world override does not reach
 *   (`Runtime.evaluate`). Under headless Chromium 156 it does: rAF stops.
 *
 * When the real change happens, the page gets Chromium's own (trusted) events
 * and the script (`visibility_script.ts`) sends only the ones that did not come, so the page
 * sees each event once per transition either way.
 *
 * @module
 */
import { ToolError } from "./tool_error.ts";
import { pause, poll } from "./poll.ts";
import type { Page } from "../cdp/page.ts";
import type { BrowserSession } from "./sessions/browser_session.ts";
import { SessionSlot } from "./sessions/session_slots.ts";
import { VISIBILITY_SCRIPT } from "./visibility_script.ts";

/**
 * Longest `holdMs`, ms. A call's budget is 30 s (+5 s grace, see
 * `mcp/call_budget.ts`), and the two transitions around the hold take up to
 * a few seconds on a loaded machine; longer holds are two calls.
 */
export const MAX_HOLD_MS = 25_000;

/** How long to wait for the browser to really hide / show the tab, ms. */
const REAL_WAIT_MS = 1000;

/** What one session has in background: the tab, and the scratch tab in front of it. */
interface Backgrounded {
  tab: Page;
  scratch: Page | undefined;
}

/** Per session; one backgrounded tab at a time. */
const BACKGROUNDED = new SessionSlot<Backgrounded>("backgrounded tab");

/**
 * The blank tab tab_visibility brought to front over a backgrounded one, while it is still
 * blank (an agent that used it made it a tab of its own); `tabs` leaves it out.
 */
export function scratchTab(session: BrowserSession): Page | undefined {
  const scratch = session.slots.get(BACKGROUNDED)?.scratch;
  return scratch && !scratch.isClosed && scratch.url === "about:blank" ? scratch : undefined;
}

/** The session's tabs as `tabs` shows and indexes them (tab_visibility's blank tab left out). */
export function shownTabs(session: BrowserSession): Page[] {
  const scratch = scratchTab(session);
  return session.tabs.filter((p) => p !== scratch);
}

/** True while `page` of `session` is in background by tab_visibility (until foreground). */
export function inBackground(session: BrowserSession, page: Page): boolean {
  const held = session.slots.get(BACKGROUNDED);
  return !!held && held.tab === page && !page.isClosed;
}

/**
 * Runs {@link VISIBILITY_SCRIPT} in the main world of the tab's main frame
 * (`Runtime.evaluate`), retrying briefly while a navigation swaps contexts.
 *
 * @throws the last evaluation error after three tries.
 */
async function pageScript<T>(page: Page, action: string): Promise<T> {
  let last: unknown;
  for (let i = 0; i < 3; i++) {
    try {
      return await page.evaluate(`(${VISIBILITY_SCRIPT})(${JSON.stringify(action)})`, {
        world: "main",
        timeoutMs: 5000,
      }) as T;
    } catch (e) {
      last = e;
      await pause(100);
    }
  }
  throw last;
}

/** The browser's own view of the tab, read in the isolated world (the override cannot reach it). */
interface RealState {
  visibility: string;
  focused: boolean;
}

async function realState(page: Page): Promise<RealState | undefined> {
  try {
    const [visibility, focused] = await page.evaluate(
      "[document.visibilityState, document.hasFocus()]",
      { timeoutMs: 2000 },
    ) as [string, boolean];
    return { visibility, focused };
  } catch {
    return undefined;
  }
}

/**
 * Polls {@link realState} until the tab is really hidden and unfocused
 * (`hidden`) or visible and focused, for up to {@link REAL_WAIT_MS}: both
 * trusted events have been dispatched by then. Returns the last reading.
 */
async function waitReal(page: Page, hidden: boolean): Promise<RealState | undefined> {
  let state: RealState | undefined;
  await poll(async () => {
    state = await realState(page);
    return !!state && (state.visibility === "hidden") === hidden && state.focused === !hidden;
  }, { timeoutMs: REAL_WAIT_MS, intervalMs: 25, maxIntervalMs: 25 });
  return state;
}

/** The part of a result both transitions produce. */
export interface Transition {
  real: boolean;
  note: string;
  warnings: string[];
}

function what(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Sends a tab to background (see the module doc). */
export async function background(s: BrowserSession, page: Page): Promise<Transition> {
  const warnings: string[] = [];
  const held = s.slots.get(BACKGROUNDED);
  if (held && held.tab !== page && !held.tab.isClosed) {
    throw new ToolError(
      "invalid-argument",
      `Another tab of session "${s.id}" is in background: ${held.tab.url}`,
      'call tab_visibility({ state: "foreground" }) first',
    );
  }
  // A page that locked its document (a non-configurable visibilityState, preventExtensions)
  // refuses the synthetic flip: real backgrounding still goes ahead.
  let already = false;
  try {
    already = (await pageScript<{ already: boolean }>(page, "begin-hidden")).already;
  } catch (e) {
    warnings.push(`synthetic flip refused by the page: ${what(e)}`);
  }
  let scratch = held?.scratch && !held.scratch.isClosed ? held.scratch : undefined;
  try {
    if (!scratch) {
      // newTab makes the scratch tab active: give the session its tab back.
      scratch = await s.newTab();
      await s.activate(page);
    }
    s.slots.set(BACKGROUNDED, { tab: page, scratch });
    // Focus emulation keeps the tab visible and focused whatever is in front;
    // switching it off after the scratch tab came to front hides the tab with
    // visibilitychange then blur, in that order every time (the other way
    // round, the order varies).
    await scratch.session.send("Page.bringToFront");
    await page.session.send("Emulation.setFocusEmulationEnabled", { enabled: false });
  } catch (e) {
    s.slots.set(BACKGROUNDED, { tab: page, scratch });
    warnings.push(`real backgrounding failed: ${what(e)}`);
  }
  const real = (await waitReal(page, true))?.visibility === "hidden";
  try {
    await pageScript(page, "flush");
  } catch (e) {
    warnings.push(`synthetic flip incomplete: ${what(e)}`);
  }
  const note = (already ? "Already in background: no events sent again. " : "") +
    hiddenNote(real, s.browser.owned) +
    (real ? " Mouse and key actions are refused until foreground." : "");
  return { real, note, warnings };
}

/** Says which backgrounding the page got (the first sentence must match `real`). */
export function hiddenNote(real: boolean, owned: boolean): string {
  if (!real) {
    return "Synthetic only: the page sees visibilityState hidden, but the browser still " +
      "shows the tab, so timers and requestAnimationFrame run as before.";
  }
  const timers = owned
    ? "timers are not throttled (browxai's Chromium runs with background throttling off)"
    : "timers may be throttled";
  return `Real backgrounding: the browser hid the tab; requestAnimationFrame is paused, ${timers}.`;
}

/** Brings the session's backgrounded (else active) tab back to front. */
export async function foreground(s: BrowserSession): Promise<Transition> {
  const warnings: string[] = [];
  const held = s.slots.get(BACKGROUNDED);
  // A scratch tab the agent has since used (it left about:blank) is a working tab now: kept.
  const scratch = held?.scratch?.url === "about:blank" ? held.scratch : undefined;
  const isScratch = (p: Page | undefined) => p !== undefined && p === scratch;
  let page = held && !held.tab.isClosed ? held.tab : s.activePage;
  if (isScratch(page)) page = s.tabs.findLast((p) => !p.isClosed && !isScratch(p));
  if (!page) {
    if (!held) throw noTab(s);
    if (scratch && !scratch.isClosed) await s.closeTab(scratch);
    s.slots.delete(BACKGROUNDED);
    return {
      real: false,
      note: "The backgrounded tab was closed; the scratch tab is closed too.",
      warnings,
    };
  }
  const real = (await realState(page))?.visibility === "hidden";
  let begin: { had: boolean; already: boolean } | undefined;
  try {
    begin = await pageScript(page, "begin-visible");
  } catch (e) {
    warnings.push(`synthetic flip incomplete: ${what(e)}`);
  }
  // Focus emulation back on shows the tab with visibilitychange then focus
  // (a steady order); then the tab comes to front for real.
  await page.session.send("Emulation.setFocusEmulationEnabled", { enabled: true }).catch((e) =>
    warnings.push(`focus emulation not restored: ${what(e)}`)
  );
  await waitReal(page, false);
  await s.activate(page);
  try {
    await pageScript(page, "flush");
  } catch (e) {
    warnings.push(`synthetic flip incomplete: ${what(e)}`);
  }
  if (scratch && !scratch.isClosed) await s.closeTab(scratch);
  s.slots.delete(BACKGROUNDED);
  let note: string;
  if (!held && begin?.already) note = "Already in foreground: nothing changed.";
  else if (held && begin && !begin.had) {
    note = "The page navigated while in background, so its new document lost the override" +
      (real
        ? "; it was really hidden and got the browser's own visibilitychange and focus."
        : " and was never hidden: no events sent.");
  } else {
    note =
      "Tab in front: visibilityState visible, visibilitychange + focus sent, overrides removed.";
  }
  return { real, note, warnings };
}

export function noTab(s: BrowserSession): ToolError {
  return new ToolError(
    "page-closed",
    `Session "${s.id}" has no open tab`,
    "navigate to a page first",
  );
}
