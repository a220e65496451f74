/// <reference lib="dom" />
/**
 * Page-side hit testing and the press guard, installed in browxai's isolated
 * world after `action_lib.ts` (it uses `describeElement`).
 *
 * - {@link PageApi.hitAccepted}: the one rule of what may receive a pointer
 *   meant for an element: the element or something inside it, or a `<label>`
 *   of it whose part under the pointer is not itself a control (a label
 *   holding a "Delete" button does not forward that button's click).
 * - `hitTest` (the element's own frame) and `frameHit` (an ancestor frame: the
 *   point, mapped through the `<iframe>`'s real box, transforms included, must
 *   land on that `<iframe>`).
 * - The press guard: with `arm`, a passing hit test also installs a one-shot
 *   capturing listener on `window` for the press's events; the first trusted
 *   one whose target the rule refuses (or, in an ancestor frame, any one: a
 *   press for a child frame's element never reaches this document) is stopped
 *   (`preventDefault` + `stopImmediatePropagation`), with every later event of
 *   the press. A capturing listener on the element itself checks each event again once the
 *   page's capturing listeners above it ran. `pressVerdict` reads and removes both.
 * - What the ref was shown as (`shown`, with `arm`): frameworks re-use a row's nodes for
 *   another item while an action waits (a virtual list on the action's own scroll, a
 *   re-render on pointerover, under a cover): the armed hit test, and the guard at the
 *   press's first event, check the element's role and context (`contextOf`) are still the
 *   shown ones, and its name unless a hover may have changed it (Follow → Unfollow is the same
 *   control, said in the result; a name another ref of its role was shown with, or a new name
 *   of a row that reads nothing else, is another item).
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";
import type { HitResult, ShownAs } from "./page_types.ts";

/** Adds the hit rule, the hit tests and the press guard to the utility api. */
export function installHitLib(api: PageApi): void {
  const { parentOf, parentElOf, shadowRootOf, rectOf, closestOf, matchesOf, rootNodeOf } = api.dom;
  const { listenOf, unlistenOf } = api.dom;
  const describeEl = (el: Element): string => api.describeElement(el);

  // The element as it is now, when it is no longer what the ref was shown as (role or
  // context); undefined when it still is. `during`: asked once the action's own input ran (a
  // press's handlers, a field's input events), which may change its row's counts and prices.
  const changedFrom = (el: Element, shown: ShownAs, during = false): ShownAs | undefined => {
    const role = api.refRole(el);
    const name = api.nameOf(el);
    const context = api.contextOf(el, role, name);
    // A row whose times or counters ticked ("3s ago", "5/140") is still what the agent was
    // shown (as between calls, resolve.ts), unless it now reads exactly as another row a ref
    // of this role and name was shown in; before the action's input, a price, count or amount
    // that changed is not (a red team's row read "Transfer $99,999" where "$10" was shown);
    // after it, the action's own effect is (a press that counts presses).
    const alike = (during ? api.contextSkeleton : api.contextSteady) as (t: string) => string;
    const sameText = context[1] === shown.context[1] ||
      (alike(context[1]) === alike(shown.context[1]) &&
        !(shown.others ?? []).includes(context[1]));
    const same = role === shown.role && context[0] === shown.context[0] && sameText;
    if (!same) return { role, name, context };
    // A hover may rename a control (Follow → Unfollow), but not to what another ref of its
    // role was shown as, nor rename one whose row reads nothing else (its name is its item).
    const renamed = name !== shown.name && !TEXT_ENTRY.has(role) &&
      ((shown.names ?? []).includes(name) || (ROWS.has(context[0]) && !shown.context[1]));
    return renamed ? { role, name, context, renamed } : undefined;
  };
  const TEXT_ENTRY = new Set(["textbox", "searchbox", "combobox", "spinbutton"]);
  const ROWS = new Set(["list item", "row", "option", "article", "label", "item"]);

  // What counts as a control of its own: a hit on one inside a label is not the label's.
  const CONTROL = "button, a[href], input, select, textarea, summary, iframe, [onclick], " +
    "[role=button], [role=link], [role=checkbox], [role=radio], [role=switch], " +
    "[role=menuitem], [role=tab], [role=option], [contenteditable]:not([contenteditable=false])";

  const composedContains = (root: Element, node: Element | null): boolean => {
    for (let n: Node | null = node; n; n = parentOf(n) ?? (n as ShadowRoot).host ?? null) {
      if (n === root) return true;
    }
    return false;
  };

  api.hitAccepted = (el: Element, hit: Element) => {
    if (composedContains(el, hit)) return true;
    const label = closestOf(hit, "label") as HTMLLabelElement | null;
    if (!label || label.control !== el) return false;
    // The label forwards its click to the element unless the hit is a control inside it.
    for (let n: Element | null = hit; n && n !== label; n = parentElOf(n)) {
      if (matchesOf(n, CONTROL)) return false;
    }
    return true;
  };

  const deepElementFromPoint = (x: number, y: number): Element | null => {
    let el = document.elementFromPoint(x, y);
    // Open shadow roots, and closed ones the server handed over (api.shadowOf).
    for (let root = el && api.shadowOf(el); el && root; root = api.shadowOf(el)) {
      const inner = root.elementFromPoint(x, y);
      if (!inner || inner === el) break;
      el = inner;
    }
    return el;
  };
  // Shared with the parts installed after the acting group (cover_kind_lib.ts).
  api.composedContains = composedContains;
  api.deepElementFromPoint = deepElementFromPoint;

  api.pinnedCoverAt = (el: Element, x: number, y: number) => {
    const hit = deepElementFromPoint(x, y);
    if (!hit || api.hitAccepted(el, hit)) return null;
    for (let n: Element | null = hit; n && n !== document.body && n !== document.documentElement;) {
      const position = getComputedStyle(n).position;
      if (position === "fixed" || position === "sticky") {
        // A box that holds the element scrolls with it; one over most of the view is an
        // overlay (a dialog's backdrop), dismissed, not scrolled clear of.
        if (composedContains(n, el)) return null;
        const r = rectOf(n);
        const big = r.width * r.height >= innerWidth * innerHeight / 2;
        return big ? null : { el: n, position };
      }
      n = parentElOf(n) ?? ((rootNodeOf(n) as ShadowRoot).host ?? null);
    }
    return null;
  };

  // The press guard of this world (at most one: a new arm replaces it).
  type Guard = {
    el: Element;
    outer: boolean;
    seen: boolean;
    checked: boolean;
    bad?: { coveredBy: string; gone: boolean; changed?: ShownAs; during?: boolean };
    shown: ShownAs | null;
    clicked: boolean;
    clickedElsewhere?: string;
    events: string[];
    /** The press's trusted events that reached the element (a listener on it). */
    reached: string[];
    name?: string;
    /** The checkbox the press toggles (the element, or its label's), and its state before. */
    box?: HTMLInputElement;
    boxWas?: boolean;
    /** Trusted clicks the press dispatched (two toggle a box back: not the page's doing). */
    clicks: number;
    listener: (ev: Event) => void;
    atElement: (ev: Event) => void;
    timer: ReturnType<typeof setTimeout> | undefined;
  };
  const EVENTS = [
    "pointerdown",
    "mousedown",
    "pointerup",
    "mouseup",
    "click",
    "auxclick",
    "dblclick",
    "contextmenu",
  ];
  const CLICKS = new Set(["click", "auxclick", "dblclick", "contextmenu"]);
  // An event's real target: a closed shadow root hides its inside from the event path
  // (retargeted to its host), so the element at the event's point, as the hit test found it.
  const targetOf = (ev: Event): Element | null => {
    const first = ev.composedPath()[0] as Node | undefined;
    const t = first instanceof Element ? first : first?.parentElement ?? null;
    if (t && api.shadowOf(t) && !shadowRootOf(t) && ev instanceof MouseEvent) {
      return deepElementFromPoint(ev.clientX, ev.clientY) ?? t;
    }
    return t;
  };
  let guard: Guard | undefined;
  const disarm = () => {
    if (!guard) return;
    for (const t of EVENTS) {
      api.offFirst(t, guard.listener);
      unlistenOf(guard.el, t, guard.atElement, true);
    }
    clearTimeout(guard.timer);
    guard = undefined;
  };
  const arm = (el: Element, outer: boolean, shown: ShownAs | null) => {
    disarm();
    const g: Guard = {
      el,
      outer,
      seen: false,
      checked: false,
      shown,
      clicked: false,
      events: [],
      reached: [],
      clicks: 0,
      listener: () => {},
      atElement: () => {},
      timer: undefined,
    };
    g.listener = (ev: Event) => {
      if (!ev.isTrusted) return;
      g.seen = true;
      if (!g.events.includes(ev.type)) g.events.push(ev.type);
      // A label's click sends one of its own to its box: the press's clicks are the label's.
      if (ev.type === "click" && (g.box === el || targetOf(ev) !== g.box)) g.clicks++;
      // Like Playwright: the first event decides (a control that re-renders on pointerdown
      // still gets its click); after a refusal every event of the press is stopped.
      if (!g.checked) {
        g.checked = true;
        const t = targetOf(ev);
        if (outer || !t || !api.hitAccepted(el, t)) {
          g.bad = { coveredBy: t ? describeEl(t) : "nothing", gone: !el.isConnected };
        } else if (g.shown) {
          // Re-used between the hit test and the press: stopped like a cover.
          const changed = changedFrom(el, g.shown);
          if (changed) g.bad = { coveredBy: describeEl(el), gone: false, changed };
          else {
            const name = api.nameOf(el);
            if (name !== g.shown.name) g.name = name;
          }
        }
      }
      // The event that runs the page's handlers: the press's first event checked the element,
      // but the press itself may have re-rendered it (a mousedown handler, a blur that commits
      // an edit and re-sorts an unkeyed list): the element must still be the shown item here.
      if (!g.bad && !g.clicked && !outer && CLICKS.has(ev.type)) {
        g.clicked = true;
        const changed = g.shown ? changedFrom(el, g.shown, true) : undefined;
        if (changed) g.bad = { coveredBy: describeEl(el), gone: false, changed, during: true };
        else {
          const t = targetOf(ev);
          // Not stopped (the page's own doing), but said: the click did not reach the element.
          if (t && !api.hitAccepted(el, t)) g.clickedElsewhere = describeEl(t);
        }
      }
      if (g.bad) {
        ev.preventDefault();
        ev.stopImmediatePropagation();
      }
    };
    // Again on the element itself, once the page's capturing listeners above it ran (a
    // delegated listener on the document that re-renders the list on pointerdown or click):
    // the element must still be the shown item when the event reaches it. What reached it
    // tells a press the page swallowed on the way (pressVerdict's `reached`).
    g.atElement = (ev: Event) => {
      if (!ev.isTrusted) return;
      if (!g.reached.includes(ev.type)) g.reached.push(ev.type);
      if (g.bad || outer || !g.shown) return;
      const changed = changedFrom(el, g.shown, true);
      if (!changed) return;
      g.bad = { coveredBy: describeEl(el), gone: false, changed, during: true };
      ev.preventDefault();
      ev.stopImmediatePropagation();
    };
    // The guard is one of the world's first listeners (first_listeners.ts): a page's own
    // window listener runs after it, so it cannot keep the press from the guard. Not on the
    // element for a frame: its element is in another document.
    for (const t of EVENTS) {
      api.onFirst(t, g.listener);
      if (!outer) listenOf(el, t, g.atElement, true);
    }
    // A checkbox's state before the press: one its click left as it was, the page kept so
    // (a handler's preventDefault, or one that set it back).
    const box = outer
      ? null
      : el instanceof HTMLInputElement
      ? el
      : (closestOf(el, "label") as HTMLLabelElement | null)?.control;
    if (box instanceof HTMLInputElement && box.type === "checkbox") {
      g.box = box;
      g.boxWas = box.checked;
    }
    // Never outlive the press by long: a stale guard would stop the next click.
    g.timer = setTimeout(disarm, 10_000);
    guard = g;
  };

  api.hitTest = (
    el: Element,
    x: number,
    y: number,
    armPress?: boolean,
    shown?: ShownAs | null,
  ): HitResult => {
    const hit = deepElementFromPoint(x, y);
    if (!hit || !api.hitAccepted(el, hit)) {
      // An ancestor that clips the element there explains it better than what is on top.
      const clip = api.clipAt(el, x, y);
      if (clip) return clip;
      // Hit testing passes inert elements by: what it finds behind is not covering them.
      const inert = api.inertOf(el);
      if (inert) return { inert };
      return { coveredBy: hit ? describeEl(hit) : "nothing (the point is outside the page)" };
    }
    if (armPress) {
      const changed = shown ? changedFrom(el, shown) : undefined;
      if (changed) return { changed };
      arm(el, false, shown ?? null);
    }
    return "ok";
  };

  api.frameMap = (frame: Element) => {
    const r = rectOf(frame);
    const s = getComputedStyle(frame);
    const w = (frame as HTMLElement).offsetWidth, h = (frame as HTMLElement).offsetHeight;
    // offsetWidth is the untransformed border box; the client rect is transformed.
    const scaleX = w > 0 ? r.width / w : 1, scaleY = h > 0 ? r.height / h : 1;
    return {
      x: r.left + (frame.clientLeft + parseFloat(s.paddingLeft)) * scaleX,
      y: r.top + (frame.clientTop + parseFloat(s.paddingTop)) * scaleY,
      scaleX,
      scaleY,
    };
  };

  api.frameHit = (frame: Element, x: number, y: number, armPress?: boolean) => {
    const m = api.frameMap(frame);
    const px = m.x + x * m.scaleX, py = m.y + y * m.scaleY;
    const hit = deepElementFromPoint(px, py);
    if (hit !== frame) {
      return {
        x: px,
        y: py,
        hit: { coveredBy: hit ? describeEl(hit) : "nothing (the point is outside the page)" },
      };
    }
    if (armPress) arm(frame, true, null);
    return { x: px, y: py, hit: "ok" as const };
  };

  api.refChanged = changedFrom;

  api.pressVerdict = (el: Element) => {
    const g = guard;
    if (!g || g.el !== el) return { armed: false, seen: false };
    disarm();
    return {
      armed: true,
      seen: g.seen,
      events: g.events,
      ...(g.outer ? {} : { reached: g.reached }),
      ...(g.bad ? { bad: g.bad } : {}),
      ...(g.name !== undefined ? { name: g.name } : {}),
      ...(g.clickedElsewhere ? { clickedElsewhere: g.clickedElsewhere } : {}),
      ...(g.box && !g.bad && !g.clickedElsewhere && g.clicks % 2 === 1 &&
          g.box.checked === g.boxWas
        ? { boxKept: g.boxWas }
        : {}),
    };
  };
}
