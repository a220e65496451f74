/**
 * Same-origin child frames, for the timer watch's page script (`page_timers_script.ts`): a
 * parent's click handler that calls `iframe.contentWindow.setTimeout(…)` or
 * `requestAnimationFrame(…)`, through an iframe it kept or one it just made (a fresh realm
 * whose watch never saw an input), sets its work in the child's window. Red teams escaped the
 * action window both ways.
 *
 * So every same-origin child's watch links to its parent's at its document's start (before the
 * page's scripts: the initial `about:blank` of an iframe the page just appended included). From
 * then on the child counts, beside its own work, the work the parent's watch would count (the
 * parent's input, its counted callbacks and their continuations, and so on up); its counted
 * callbacks run as the parent's counted work too (what they start in the parent's realm is one
 * level deeper there); and while the parent is armed by an action, the parent's `pending()`
 * adds its live children's (so the question browxai asks the frame it acts on sees them; in its
 * document's start too, which counts what the page sets through a child then). The parent's
 * `arm` and `disarm` start its children's counts over.
 *
 * @module
 */

/**
 * Past this many linked children, the dead ones (removed, navigated) are dropped as a child
 * links (then past twice as many live ones). Live children are never refused: a page that made
 * many frames first must not hide the next one's work.
 */
export const PRUNE_CHILDREN = 64;

/**
 * The script's part, put inside its function after `levelNow`, `ended` and `fromStart` (it uses
 * `apply`, `W`, `KEY`, `doc`, `dispatch`, `NativeCustomEvent`, `now`, `max`, `depth`, `armedUntil`) and
 * before the wrappers. It defines:
 *
 * - `up`: this window has a same-origin parent whose watch it linked to;
 * - `armed()`: this watch or one above it counts work now;
 * - `upLevel()`: the level the parent's watch gives new work now (0: not the action's);
 * - `upRun(level, fn)`: runs `fn` as counted work of that level in the parent's watch too;
 * - `upEnded(level)`: counted work of that level just ended (a continuation moment up there);
 * - `link(child)`: what the parent's listener calls with a child's `{ pending, reset, alive }`;
 *   returns this watch's side (`level`, `armed`, `run`, `ended`, and `heard`: the sets of
 *   `page_timers_waits.ts` that note who listens, shared by the linked frames, since a page can
 *   listen on one realm's signal with another realm's `addEventListener`; `waitOf`: a counted
 *   abort wait of a signal, for a child realm's `AbortSignal.any`);
 * - `childrenPending(out)`: adds the live children's `pending()` to `out` (`{ n, next, again,
 *   own }`); `resetChildren()`: starts their counts over.
 *
 * The handshake goes through the parent's watch's listener (`page_timers_channel.ts`): an
 * event of the key's type whose detail is a function the parent calls with `link`; a
 * cross-origin parent's window throws and leaves none. The page never holds either side.
 */
export function pageTimersUp(): string {
  return `
  // ---- Same-origin child frames (page_timers_up.ts).
  const children = new Set();
  const S0 = Set.prototype, childAdd = S0.add, childDelete = S0.delete, childForEach = S0.forEach;
  const childCount = Object.getOwnPropertyDescriptor(S0, "size").get;
  // This watch's side, handed to a child that links.
  const armedHere = () => now() <= armedUntil || (up && upSide.armed());
  const runHere = (level, fn) => {
    const outer = depth;
    depth = level;
    try { return fn(); } finally { depth = outer; ended(level); }
  };
  let pruneAt = ${PRUNE_CHILDREN};
  const link = (child) => {
    if (apply(childCount, children, []) >= pruneAt) {
      pruneChildren();
      pruneAt = max(${PRUNE_CHILDREN}, apply(childCount, children, []) * 2);
    }
    apply(childAdd, children, [child]);
    return {
      __proto__: null, level: () => levelNow(), armed: armedHere, run: runHere,
      ended: (l) => ended(l), heard: () => waitsHeard, waitOf: (target) => waitOf(target),
    };
  };
  const pruneChildren = () => {
    const dead = [];
    apply(childForEach, children, [(c) => { if (!c.alive()) dead[dead.length] = c; }]);
    for (let i = 0; i < dead.length; i++) apply(childDelete, children, [dead[i]]);
  };
  const childrenPending = (out) => {
    pruneChildren();
    apply(childForEach, children, [(c) => {
      const p = c.pending();
      if (!p || !p.n) return;
      out.n += p.n;
      out.own += p.own;
      if (p.lookAgain) out.again = min(out.again, p.nextMs);
      else out.next = min(out.next, p.nextMs);
    }]);
  };
  const resetChildren = () => {
    pruneChildren();
    apply(childForEach, children, [(c) => c.reset()]);
  };
  // The link up, asked for at this document's start.
  let upSide;
  if (W.top !== W) {
    try {
      const me = {
        __proto__: null,
        pending: () => control.pending(),
        reset: () => control.reset(),
        alive: () => { try { return W.document === doc && W.parent !== null; } catch { return false; } },
      };
      const ask = { __proto__: null, detail: (linkUp) => { upSide = linkUp(me); } };
      apply(dispatch, W.parent, [new NativeCustomEvent(KEY, ask)]);
    } catch {}
  }
  const up = !!upSide;
  const armed = armedHere;
  const upLevel = () => (up ? upSide.level() : 0);
  const upRun = (level, fn) => (up ? upSide.run(level, fn) : fn());
  const upEnded = (level) => { if (up) upSide.ended(level); };
`;
}
