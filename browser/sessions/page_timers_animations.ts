/**
 * Animations, for the timer watch's page script (`page_timers_script.ts`, through
 * `page_timers_sources.ts`): the short CSS transitions, CSS animations and Web Animations that
 * start after an action's input are pending until they end, and what the page's end handlers
 * start is the action's.
 *
 * @module
 */

/** An animation counts when its whole length (delay included) is at most this, ms. */
export const MAX_ANIMATION_MS = 1000;
/** Animations count only this long after the action's first input, ms (a page drawing no frames keeps one "running"). */
export const ANIMATION_WINDOW_MS = 1500;
/** An animation that started this little before the action's first input may be its own (a frame's rounding), ms. */
const START_SLACK_MS = 16;
/** Animations noted in shadow trees per arming, at most. */
const MAX_NOTED = 256;

/**
 * CSS properties whose change can change what an agent sees (visibility, size, place): a
 * transition of another (a hover's colour, a focus ring's shadow) is styling and not waited
 * for. Names without hyphens, lower case.
 */
const VISIBLE_PROPERTIES =
  "^(opacity|visibility|display|contentvisibility|overlay|transform|translate|scale|rotate|" +
  "(max|min)?(height|width)|top|left|right|bottom|inset.*|margin.*|padding.*|clip.*|flex.*|" +
  "grid.*)$";

/**
 * The animations part of the script, put inside `page_timers_sources.ts`'s part (it uses the
 * script's state: `apply`, `ended`, `firstInput`, `armedUntil`, `getter`, `getOwn`, `masked`,
 * `addListener`, `targetOf`, `doc`, …). It defines:
 *
 * - `animationsPending(t, out)`: adds to `out` (`{ n, next }`) the animations still running;
 * - `resetAnimations()`: forgets the animations an earlier arming noted.
 *
 * Which animations count: running ones that started since the action's first input, last at
 * most {@link MAX_ANIMATION_MS} in all and, when CSS, change a property in
 * {@link VISIBLE_PROPERTIES} of an element that is not hovered, focused or active (a hover's own
 * transition is styling); Web Animations always (the page's script started them). They are
 * found by `document.getAnimations()`, which leaves out shadow trees: there, they are noted as
 * they start (`transitionrun`, `animationstart` on every shadow root the page attaches, and
 * `Element.prototype.animate`). A `transitionend` / `animationend` (window or shadow root) of
 * such an animation ends counted work: what the page's handlers start is the action's.
 */
export function pageTimersAnimations(): string {
  return `
  // ---- Animations (page_timers_animations.ts).
  const reTest = RegExp.prototype.test, strReplace = String.prototype.replace;
  const lower = String.prototype.toLowerCase, keysOf = Object.keys;
  const visibleProp = new RegExp(${JSON.stringify(VISIBLE_PROPERTIES)});
  const isVisibleProp = (name) =>
    typeof name === "string" &&
    apply(reTest, visibleProp, [apply(lower, apply(strReplace, name, [/-/g, ""]), [])]);
  const DP = W.Document && W.Document.prototype;
  const getAnimations = DP && DP.getAnimations;
  const EP = W.Element && W.Element.prototype;
  const elementAnimations = EP && EP.getAnimations;
  const AP = W.Animation && W.Animation.prototype;
  const playStateOf = getter(AP, "playState"), startTimeOf = getter(AP, "startTime");
  const effectOf = getter(AP, "effect"), rateOf = getter(AP, "playbackRate");
  const timingOf = W.AnimationEffect && W.AnimationEffect.prototype.getComputedTiming;
  const KP = W.KeyframeEffect && W.KeyframeEffect.prototype;
  const targetOfEffect = getter(KP, "target"), keyframesOf = KP && KP.getKeyframes;
  const transitionPropertyOf = getter(W.CSSTransition && W.CSSTransition.prototype, "transitionProperty");
  const animationNameOf = getter(W.CSSAnimation && W.CSSAnimation.prototype, "animationName");
  const matches = EP && EP.matches;
  const S = Set.prototype, setAdd = S.add, setHas = S.has, setClear = S.clear;
  const setForEach = S.forEach, setSize = getOwn(S, "size").get;
  // Animations noted in shadow trees since the arming's first input.
  const noted = new Set();
  const resetAnimations = () => apply(setClear, noted, []);
  const brand = (get, value) => { try { apply(get, value, []); return true; } catch { return false; } };
  // A hover's, a focus's or a press's own styling: not what the action did to the page.
  const styling = (el) => {
    try { return !!el && apply(matches, el, [":hover, :active, :focus-within"]); } catch {
      return false;
    }
  };
  // A CSS animation or transition that changes what is seen, on an element the pointer or
  // focus is not styling; a Web Animation (the page's script started it) always.
  const significant = (a, effect) => {
    const css = transitionPropertyOf && brand(transitionPropertyOf, a);
    const cssAnimation = !css && animationNameOf && brand(animationNameOf, a);
    if (!css && !cssAnimation) return true;
    if (styling(targetOfEffect && apply(targetOfEffect, effect, []))) return false;
    if (css) return isVisibleProp(apply(transitionPropertyOf, a, []));
    const kfs = keyframesOf ? apply(keyframesOf, effect, []) : [];
    for (let i = 0; i < kfs.length; i++) {
      const keys = keysOf(kfs[i]);
      for (let k = 0; k < keys.length; k++) if (isVisibleProp(keys[k])) return true;
    }
    return false;
  };
  const noting = () => now() <= armedUntil && firstInput !== Infinity &&
    apply(setSize, noted, []) < ${MAX_NOTED};
  // One animation: counted into out when it is the action's and still running.
  const countAnimation = (a, out) => {
    try {
      if (apply(playStateOf, a, []) !== "running") return;
      const start = apply(startTimeOf, a, []);
      if (start !== null && start < firstInput - ${START_SLACK_MS}) return;
      const rate = apply(rateOf, a, []);
      const effect = apply(effectOf, a, []);
      if (!rate || !effect) return;
      const timing = apply(timingOf, effect, []);
      const end = timing.endTime;
      if (!(end <= ${MAX_ANIMATION_MS}) || !significant(a, effect)) return;
      const local = timing.localTime || 0;
      const left = rate > 0 ? (end - local) / rate : local / -rate;
      out.n++;
      out.next = min(out.next, max(0, left));
    } catch { /* an animation gone meanwhile */ }
  };
  const animationsPending = (t, out) => {
    if (firstInput === Infinity || t - firstInput > ${ANIMATION_WINDOW_MS}) return;
    let list = [];
    try { if (getAnimations) list = apply(getAnimations, doc, []); } catch { /* none */ }
    for (let i = 0; i < list.length; i++) countAnimation(list[i], out);
    if (!apply(setSize, noted, [])) return;
    // The document's list has no shadow tree's: those noted as they started (a Web Animation
    // noted in the document is in its list already).
    const listed = new Set();
    for (let i = 0; i < list.length; i++) apply(setAdd, listed, [list[i]]);
    apply(setForEach, noted, [(a) => { if (!apply(setHas, listed, [a])) countAnimation(a, out); }]);
  };
  // An animation's end: what the page's handler starts is the action's when the animation
  // started after the action's first input and was short.
  const elapsedOf = [
    getter(W.TransitionEvent && W.TransitionEvent.prototype, "elapsedTime"),
    getter(W.AnimationEvent && W.AnimationEvent.prototype, "elapsedTime"),
  ];
  const propertyOf = getter(W.TransitionEvent && W.TransitionEvent.prototype, "propertyName");
  const animationEnded = (event) => {
    if (now() > armedUntil || firstInput === Infinity) return;
    let ms = Infinity;
    for (let i = 0; i < elapsedOf.length; i++) {
      const get = elapsedOf[i];
      if (get && brand(get, event)) ms = apply(get, event, []) * 1000;
    }
    if (ms > ${MAX_ANIMATION_MS} || now() - firstInput < ms - ${START_SLACK_MS}) return;
    if (propertyOf && brand(propertyOf, event)) {
      if (!isVisibleProp(apply(propertyOf, event, []))) return;
      if (styling(apply(targetOf, event, []))) return;
    }
    ended(1);
  };
  const END_EVENTS = ["transitionend", "transitioncancel", "animationend", "animationcancel"];
  for (let i = 0; i < END_EVENTS.length; i++) {
    apply(addListener, W, [END_EVENTS[i], animationEnded, { capture: true, passive: true }]);
  }
  // In a shadow tree: its animations as they start (the events do not leave the tree).
  const started = (event) => {
    if (!noting()) return;
    let list;
    try { list = apply(elementAnimations, apply(targetOf, event, []), []); } catch { return; }
    for (let i = 0; i < list.length; i++) apply(setAdd, noted, [list[i]]);
  };
  const nativeAttach = EP && EP.attachShadow;
  if (typeof nativeAttach === "function" && typeof elementAnimations === "function") {
    const more = {
      attachShadow() {
        const root = apply(nativeAttach, this, arguments);
        const options = { capture: true, passive: true };
        apply(addListener, root, ["transitionrun", started, options]);
        apply(addListener, root, ["animationstart", started, options]);
        for (let i = 0; i < END_EVENTS.length; i++) {
          apply(addListener, root, [END_EVENTS[i], animationEnded, options]);
        }
        return root;
      },
    };
    EP.attachShadow = masked(more.attachShadow, nativeAttach);
  }
  const nativeAnimate = EP && EP.animate;
  if (typeof nativeAnimate === "function") {
    const more = {
      animate() {
        const a = apply(nativeAnimate, this, arguments);
        if (noting()) apply(setAdd, noted, [a]);
        return a;
      },
    };
    EP.animate = masked(more.animate, nativeAnimate);
  }
`;
}
