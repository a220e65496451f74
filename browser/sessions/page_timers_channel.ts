/**
 * How browxai reaches the timer watch (`page_timers_script.ts`) without the page reaching it:
 * the watch's state lives in a closure of the main-world script and nothing is put on the
 * page's globals (a red team's page found `window.__bx_…` by its name and called its
 * `disarm()` in its click handler, so the late navigation it set up was left out of the
 * click's result).
 *
 * The only way in is an event listener on `window` for a type that is the session's random
 * key: browxai dispatches a `CustomEvent` of that type from its utility world (an isolated
 * world: the page cannot change the `CustomEvent` or `dispatchEvent` it uses), its `detail`
 * the command as a string; the watch answers with a `CustomEvent` of the key plus
 * {@link REPLY_SUFFIX}, its `detail` a string of numbers, which the utility world's listener
 * takes (a string crosses between worlds as it is). No page API lists a window's listeners
 * or their types, so the page can neither call the watch nor overhear it; and nothing in its
 * globals names the watch (no automation tell).
 *
 * A same-origin child frame's watch asks its parent's the same way at its document's start,
 * with a function as `detail` (both main world: the function crosses as it is), which the
 * parent's watch calls with its `link` (`page_timers_up.ts`).
 *
 * @module
 */

/** The reply's event type is the key plus this. */
export const REPLY_SUFFIX = ":r";

/** A command for the watch: arm for `ms`, or one of the two without an argument. */
export type TimerCommand = { arm: number } | "pending" | "disarm" | "soon" | "later";

/**
 * The main-world part, put inside the script's function after everything it uses (`apply`,
 * `W`, `KEY`, `addListener`, `dispatch`, `NativeCustomEvent`, `detailOf`, `startsWith`,
 * `strSlice`, `link`) and the `control` object (`arm`, `disarm`, `pending`, `soon`, `later`).
 * Installs the listener; nothing it does runs page code (built-ins taken at the start, init
 * dictionaries without a prototype, numbers turned to text by concatenation), and an error in
 * it stays in it (a listener's error would reach the page's `onerror`).
 */
export function pageTimersChannel(): string {
  return `
  // ---- The way in (page_timers_channel.ts): a listener for the key's type, nothing global.
  const reply = (text) => {
    apply(dispatch, W, [new NativeCustomEvent(KEY + ${JSON.stringify(REPLY_SUFFIX)}, {
      __proto__: null, detail: text,
    })]);
  };
  apply(addListener, W, [KEY, (event) => {
    try {
      const d = apply(detailOf, event, []);
      // A same-origin child's watch linking to its parent's (page_timers_up.ts).
      if (typeof d === "function") { d(link); return; }
      if (typeof d !== "string") return;
      if (d === "pending") {
        const p = control.pending();
        reply(p.n + " " + p.nextMs + " " + (p.lookAgain ? 1 : 0) + " " + p.own);
      } else if (d === "soon") {
        reply("" + control.soon());
      } else if (d === "later") {
        reply("" + control.later());
      } else if (d === "disarm") {
        control.disarm();
        reply("ok");
      } else if (apply(startsWith, d, ["arm "])) {
        control.arm(+apply(strSlice, d, [4]));
        reply("ok");
      }
    } catch {}
  }]);
`;
}

/**
 * The expression that sends `command` to the watch of `key`, evaluated in browxai's utility
 * world of a frame: its value is the watch's answer as text, or undefined when no watch
 * answered (none in the document: it navigated, or the script was not installed there).
 */
export function askExpression(key: string, command: TimerCommand): string {
  const detail = typeof command === "string" ? command : `arm ${Math.round(command.arm)}`;
  const k = JSON.stringify(key), r = JSON.stringify(key + REPLY_SUFFIX);
  return `(() => { let out; const take = (e) => { out = e.detail; };
addEventListener(${r}, take);
try { dispatchEvent(new CustomEvent(${k}, { detail: ${JSON.stringify(detail)} })); }
finally { removeEventListener(${r}, take); }
return out; })()`;
}

/** What `pending` answers (`page_timers_script.ts`). */
export interface PendingAnswer {
  n: number;
  /** Absent when not finite (nothing to wait for by time). */
  nextMs?: number;
  lookAgain?: true;
  own: number;
}

/**
 * The watch's answer to `command` read from its text: `null` for `arm` and `disarm` done, the
 * counts for `pending`, ms for `soon` and `later`; undefined when there was no answer or it does not read.
 */
export function readAnswer(
  command: TimerCommand,
  text: unknown,
): PendingAnswer | number | null | undefined {
  if (typeof text !== "string") return undefined;
  if (command === "soon" || command === "later") {
    const ms = Number(text);
    return text && Number.isFinite(ms) && ms >= 0 ? ms : undefined;
  }
  if (command !== "pending") return text === "ok" ? null : undefined;
  const parts = text.split(" ").map(Number);
  if (parts.length !== 4 || parts.some((x) => Number.isNaN(x))) return undefined;
  const [n, nextMs, lookAgain, own] = parts as [number, number, number, number];
  return {
    n,
    ...(Number.isFinite(nextMs) ? { nextMs } : {}),
    ...(lookAgain === 1 ? { lookAgain: true as const } : {}),
    own,
  };
}
