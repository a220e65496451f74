/**
 * Timeouts set through a same-origin child frame's window, for the timer watch's page script
 * (`page_timers_script.ts`): a parent's click handler that calls
 * `iframe.contentWindow.setTimeout(() => location.href = …, 200)` sets its timer in the child's
 * window, whose watch saw no input and does not count it (a red team's page escaped the action
 * window that way). The child's watch hands such a timeout to its parent's watch, which counts
 * it when it would count one of its own (its input, its counted work), and so on up.
 *
 * @module
 */

/**
 * The script's part, put inside its function after `countTimeout` (it uses `apply`, `W`, `KEY`,
 * `dispatch`, `NativeCustomEvent`, the map built-ins, `pending` and `countTimeout`) and before
 * the wrappers. It defines:
 *
 * - `via(native, self, args, key)`: counts a child's timeout (set with the child's `native`
 *   setTimeout, kept in `pending` under `key`) here, else asks this watch's parent; its id, or
 *   undefined when no watch counts it (what a child's watch calls);
 * - `forget(key)`: the child cleared it (what a child's watch calls);
 * - `toParent(native, self, args)`: this window's timeout, to its parent's watch; its id, or
 *   undefined when the parent does not count it (or there is none: a top or cross-origin one);
 * - `forgetAbove(id)`: `clearTimeout(id)` of a timeout the parent counted.
 *
 * The parent's `via` and `forget` are asked for at the document's start, before the page's
 * scripts, through the parent's watch's listener (`page_timers_channel.ts`: an event of the
 * key's type whose detail is a function it calls with them); a cross-origin parent's window
 * throws and leaves none.
 */
export function pageTimersUp(): string {
  return `
  // ---- Timeouts through a same-origin child's window (page_timers_up.ts).
  let upVia, upForget;
  if (W.top !== W) {
    try {
      const ask = { __proto__: null, detail: (v, f) => { upVia = v; upForget = f; } };
      apply(dispatch, W.parent, [new NativeCustomEvent(KEY, ask)]);
    } catch {}
  }
  const up = typeof upVia === "function" && typeof upForget === "function";
  // This window's timeouts the parent counted: id -> their key there.
  const adopted = new Map();
  const via = (native, self, args, key) => {
    const id = countTimeout(native, self, args, key);
    return id !== undefined || !up ? id : upVia(native, self, args, key);
  };
  const forget = (key) => {
    apply(mapDelete, pending, [key]);
    if (up) upForget(key);
  };
  const toParent = (native, self, args) => {
    if (!up) return undefined;
    const key = {};
    const id = upVia(native, self, args, key);
    if (id === undefined) return undefined;
    // Ids of ran timeouts stay (never cleared): a bound keeps a page's many timers from piling up.
    if (apply(mapSize, adopted, []) > 256) apply(mapClear, adopted, []);
    apply(mapSet, adopted, [id, key]);
    return id;
  };
  const forgetAbove = (id) => {
    const key = up && apply(mapGet, adopted, [id]);
    if (!key) return;
    apply(mapDelete, adopted, [id]);
    upForget(key);
  };
`;
}
