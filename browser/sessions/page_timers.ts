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
 * CDP: `Page.addScriptToEvaluateOnNewDocument` (`runImmediately`), `Runtime.evaluate` in
 * browxai's utility world (arm, pending, disarm: an event the watch's listener hears, see
 * `page_timers_channel.ts`; the page cannot reach the watch).
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import type { Page } from "../../cdp/page.ts";
import { pageTimersScript } from "./page_timers_script.ts";
import { askExpression, readAnswer, type TimerCommand } from "./page_timers_channel.ts";

/**
 * A fresh key for the timer watch of one session (the event type its listener hears, 32 hex
 * digits): pages cannot know it beforehand or guess it, nothing of the page shows it, and two
 * sessions of one server cannot be linked by it.
 */
export function newTimerKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Scripts by key (one per session). */
const sources = new Map<string, string>();

/** Waiting for a timer to run: past its due time by this much, ms (the page runs it late). */
export const TIMER_SLACK_MS = 15;
/** How long one page question may take before it counts as "nothing known", ms. */
const ASK_TIMEOUT_MS = 1000;
/** Arming holds the input: a page too busy to answer this soon is acted on unarmed, ms. */
const ARM_TIMEOUT_MS = 300;
/**
 * A child frame's answer is waited for this long at most, ms; one that does not answer (busy,
 * gone, no watch in it) leaves the watch: the page's other frames never hold an action.
 */
const CHILD_ASK_TIMEOUT_MS = 150;

/**
 * Puts the script on a page or frame target (call while it waits for the debugger, so
 * every document gets it before its scripts run). Failures are ignored: without it an
 * action only closes its window sooner.
 */
export function installPageTimers(session: CdpSession, key: string): void {
  let source = sources.get(key);
  if (!source) {
    if (sources.size > 1000) sources.clear();
    sources.set(key, source = pageTimersScript(key));
  }
  session.send("Page.addScriptToEvaluateOnNewDocument", { source, runImmediately: true })
    .catch(() => {});
}

/** The timers one action armed, in the frames it acts on (and the page's other frames). */
export class PageTimers {
  #page: Page;
  #key: string;
  #frames: string[];
  #children: string[];
  #ownRequests = 0;

  private constructor(page: Page, key: string, frames: string[], children: string[] = []) {
    this.#page = page;
    this.#key = key;
    this.#frames = frames;
    this.#children = children;
  }

  /**
   * Arms the watch in `frames` of `page` (main world) for `ms`, and returns it. A frame that
   * does not answer (gone, busy past {@link ARM_TIMEOUT_MS}) is skipped.
   *
   * @param options.children Other frames of the page to arm (a cross-origin child the action
   *   reaches by a message): armed without waiting for their answer; each is asked with the
   *   others, for {@link CHILD_ASK_TIMEOUT_MS} at most, and leaves the watch when it does not
   *   answer.
   */
  static async arm(
    page: Page,
    key: string,
    options: {
      frames: readonly string[];
      children?: readonly string[] | undefined;
      ms: number;
      signal?: AbortSignal | undefined;
    },
  ): Promise<PageTimers> {
    const unique = [...new Set(options.frames)];
    const children = [...new Set(options.children ?? [])].filter((f) => !unique.includes(f));
    const arm: TimerCommand = { arm: options.ms };
    // Sent before the action's input, answered in order before any later question.
    for (const frameId of children) {
      void ask(page, key, frameId, arm, options.signal, CHILD_ASK_TIMEOUT_MS);
    }
    const armed = await Promise.all(
      unique.map((frameId) => ask(page, key, frameId, arm, options.signal, ARM_TIMEOUT_MS)),
    );
    return new PageTimers(page, key, unique.filter((_, i) => armed[i] !== undefined), children);
  }

  /**
   * Watches `frames` of `page` without arming them: the documents an action loads there arm
   * themselves from their start until just after their load (`page_timers_script.ts`).
   */
  static watch(page: Page, key: string, frames: readonly string[]): PageTimers {
    return new PageTimers(page, key, [...new Set(frames)]);
  }

  /**
   * How long until it is worth asking again, ms: the soonest counted timer of the armed
   * frames is due then, plus {@link TIMER_SLACK_MS} (the page runs timers late), or a frame
   * said to look again then (a request in flight, work that just ended: no slack); `undefined`
   * when none is pending (or no frame answered: a document that navigated away answers as
   * unarmed).
   *
   * @param deadline Epoch ms: a frame that has not answered by then is not waited for (a page
   *   busy in a long script holds the question until it yields, past the call's time).
   */
  async nextDue(signal?: AbortSignal, deadline = Infinity): Promise<number | undefined> {
    if (!this.#frames.length && !this.#children.length) return undefined;
    const timeoutMs = Math.max(1, Math.min(ASK_TIMEOUT_MS, deadline - Date.now()));
    const children = this.#children;
    const [answers, childAnswers] = await Promise.all([
      Promise.all(
        this.#frames.map((frameId) =>
          ask(this.#page, this.#key, frameId, "pending", signal, timeoutMs)
        ),
      ),
      Promise.all(
        children.map((frameId) =>
          ask(
            this.#page,
            this.#key,
            frameId,
            "pending",
            signal,
            Math.min(timeoutMs, CHILD_ASK_TIMEOUT_MS),
          )
        ),
      ),
    ]);
    // A child that did not answer is not asked again (nor disarmed: it was never armed, or
    // its document is gone).
    this.#children = children.filter((_, i) => childAnswers[i] !== undefined);
    answers.push(...childAnswers);
    let next: number | undefined;
    let own = 0;
    for (const a of answers) {
      const p = a as
        | { n?: unknown; nextMs?: unknown; lookAgain?: unknown; own?: unknown }
        | undefined;
      if (typeof p?.own === "number" && p.own > 0) own += p.own;
      if (typeof p?.n !== "number" || p.n <= 0 || typeof p.nextMs !== "number") continue;
      // A due time is waited for a little past (the page runs timers late); a look-again time
      // (requests in flight, work that just ended) is not.
      next = Math.min(next ?? Infinity, p.nextMs + (p.lookAgain === true ? 0 : TIMER_SLACK_MS));
    }
    // A question cut short at the deadline (no frame answered) knows nothing new: the requests
    // last seen unanswered still are.
    if (answers.some((a) => a !== undefined)) this.#ownRequests = own;
    return next;
  }

  /**
   * How many requests the action's input started were still unanswered at the last
   * {@link nextDue} (its frames' answers; 0 before any).
   */
  get ownRequests(): number {
    return this.#ownRequests;
  }

  /** Stops counting in the armed frames (not waited for). */
  disarm(): void {
    for (const frameId of [...this.#frames, ...this.#children]) {
      void ask(this.#page, this.#key, frameId, "disarm");
    }
    this.#frames = [];
    this.#children = [];
  }
}

/**
 * How long until the latest short timeout the frame's document set is due, ms (0: none due; see
 * `soon` in `page_timers_script.ts`), or undefined when its watch did not answer (none in the
 * document, or a page too busy for {@link CHILD_ASK_TIMEOUT_MS}). CDP: `Runtime.evaluate`.
 */
export function timeoutsDue(
  page: Page,
  key: string,
  frameId: string,
  signal?: AbortSignal,
): Promise<number | undefined> {
  return dueIn(page, { key, frameId, command: "soon" }, signal);
}

/**
 * How long until the latest longer timeout (over `SOON_MAX_MS`, up to `LATER_MAX_MS`) the
 * frame's document set is due, ms (0: none due; `later` in `page_timers_script.ts`), or
 * undefined when its watch did not answer. CDP: `Runtime.evaluate`.
 */
export function laterTimeoutsDue(
  page: Page,
  key: string,
  frameId: string,
  signal?: AbortSignal,
): Promise<number | undefined> {
  return dueIn(page, { key, frameId, command: "later" }, signal);
}

/** The watch's answer to `soon` or `later`, ms, or undefined (no answer). */
async function dueIn(
  page: Page,
  to: { key: string; frameId: string; command: "soon" | "later" },
  signal?: AbortSignal,
): Promise<number | undefined> {
  const ms = await ask(page, to.key, to.frameId, to.command, signal, CHILD_ASK_TIMEOUT_MS);
  return typeof ms === "number" ? ms : undefined;
}

/**
 * Sends a command to the frame's watch (`page_timers_channel.ts`); its answer (`null` for
 * arm and disarm, the counts for pending), or `undefined` when there is no watch in the
 * document or it did not answer.
 */
async function ask(
  page: Page,
  key: string,
  frameId: string,
  command: TimerCommand,
  signal?: AbortSignal,
  timeoutMs = ASK_TIMEOUT_MS,
): Promise<unknown> {
  try {
    // From the utility world: the page changes neither its CustomEvent nor its dispatchEvent.
    // Runtime.evaluate's own timeout counts from when the script starts: a page busy in a
    // long script holds the question until then. The wait ends at timeoutMs whatever the page.
    const timeout = AbortSignal.timeout(timeoutMs);
    const stop = signal ? AbortSignal.any([signal, timeout]) : timeout;
    // Finding the frame's utility world may take a round trip of its own (a world made on
    // demand): the whole question ends at timeoutMs.
    if (stop.aborted) return undefined;
    let unlisten = () => {};
    const stopped = new Promise<undefined>((resolve) => {
      const end = () => resolve(undefined);
      stop.addEventListener("abort", end, { once: true });
      unlisten = () => stop.removeEventListener("abort", end);
    });
    const asked = page.evaluate(askExpression(key, command), { frameId, timeoutMs, signal: stop })
      .catch(() => undefined);
    try {
      return readAnswer(command, await Promise.race([asked, stopped]));
    } finally {
      unlisten();
    }
  } catch {
    return undefined;
  }
}
