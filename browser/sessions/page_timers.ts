/**
 * The timer watch: what an action started that is still to run. A click handler that
 * navigates, raises a dialog or re-renders after a `setTimeout` of a few hundred ms does so
 * when the page already looked quiet; the action window asks the page, before it closes,
 * whether timers the action set are still due, and waits for them (see
 * `page_timers_script.ts` for which timers count).
 *
 * Every document of a session's tabs and frames gets the script in its main world before its
 * first script; an action arms it in the frames it acts on, asks it while settling, and
 * disarms it when its window ends.
 *
 * CDP: `Page.addScriptToEvaluateOnNewDocument` (`runImmediately`), `Runtime.evaluate` in the
 * main world (arm, pending, disarm).
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import type { Page } from "../../cdp/page.ts";
import { pageTimersScript } from "./page_timers_script.ts";

/** The name of the page-side object: one per server, so pages cannot know it beforehand. */
const KEY = `__bx_timers_${
  [...crypto.getRandomValues(new Uint8Array(6))].map((b) => b.toString(16).padStart(2, "0"))
    .join("")
}`;
const SOURCE = pageTimersScript(KEY);
/** How long one page question may take before it counts as "nothing known", ms. */
const ASK_TIMEOUT_MS = 1000;

/**
 * Puts the script on a page or frame target (call while it waits for the debugger, so
 * every document gets it before its scripts run). Failures are ignored: without it an
 * action only closes its window sooner.
 */
export function installPageTimers(session: CdpSession): void {
  session.send("Page.addScriptToEvaluateOnNewDocument", { source: SOURCE, runImmediately: true })
    .catch(() => {});
}

/** The timers one action armed, in the frames it acts on. */
export class PageTimers {
  #page: Page;
  #frames: string[];

  private constructor(page: Page, frames: string[]) {
    this.#page = page;
    this.#frames = frames;
  }

  /**
   * Arms the watch in `frames` of `page` (main world) for `ms`, and returns it. A frame that
   * does not answer (gone, busy past {@link ASK_TIMEOUT_MS}) is skipped.
   */
  static async arm(
    page: Page,
    frames: readonly string[],
    ms: number,
    signal?: AbortSignal,
  ): Promise<PageTimers> {
    const unique = [...new Set(frames)];
    const armed = await Promise.all(
      unique.map((frameId) => ask(page, frameId, `.arm(${Math.round(ms)})`, signal)),
    );
    return new PageTimers(page, unique.filter((_, i) => armed[i] !== undefined));
  }

  /**
   * How long until the soonest counted timer of the armed frames is due, ms (0: overdue or
   * running now); `undefined` when none is pending (or no frame answered: a document that
   * navigated away answers as unarmed).
   */
  async nextDue(signal?: AbortSignal): Promise<number | undefined> {
    if (!this.#frames.length) return undefined;
    const answers = await Promise.all(
      this.#frames.map((frameId) => ask(this.#page, frameId, ".pending()", signal)),
    );
    let next: number | undefined;
    for (const a of answers) {
      const p = a as { n?: unknown; nextMs?: unknown } | undefined;
      if (typeof p?.n !== "number" || p.n <= 0 || typeof p.nextMs !== "number") continue;
      next = Math.min(next ?? Infinity, p.nextMs);
    }
    return next;
  }

  /** Stops counting in the armed frames (not waited for). */
  disarm(): void {
    for (const frameId of this.#frames) void ask(this.#page, frameId, ".disarm()");
    this.#frames = [];
  }
}

/** Calls a method of the page-side object; `undefined` when it is missing or did not answer. */
async function ask(
  page: Page,
  frameId: string,
  call: string,
  signal?: AbortSignal,
): Promise<unknown> {
  try {
    return await page.evaluate(
      `(() => { const t = globalThis[${
        JSON.stringify(KEY)
      }]; return t ? (t${call} ?? null) : undefined; })()`,
      { frameId, world: "main", timeoutMs: ASK_TIMEOUT_MS, signal },
    );
  } catch {
    return undefined;
  }
}
