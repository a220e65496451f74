/**
 * The real {@link ElementSteps} of an element handle (page calls in its frame's utility world,
 * up the frame chain for a subframe), what a press's guards report ({@link pressOutcome}), and
 * {@link waitActionable}, the actionability wait on a handle. The schedule and the covered
 * check they run under are `actionability.ts`.
 *
 * @module
 */
import type { PressVerdict, ShownAs } from "../injected/page_types.ts";
import type { Page } from "../../cdp/page.ts";
import { ToolError } from "../tool_error.ts";
import { callOnHandle, type RemoteHandle, shownForPage, withSignal } from "../injected/mod.ts";
import { chainHit, chainMap, clearGuard, IDENTITY, ownerChain } from "./frame_chain.ts";
import { reusedDuringAction } from "../snapshot/resolve.ts";
import { EDITABLE_ROLES } from "../snapshot/refs.ts";
import { inputOf } from "./devices.ts";
import {
  type ActionabilityOptions,
  type ActionPoint,
  coveredAt,
  type ElementSteps,
  type Hit,
  type PressOutcome,
  untilActionable,
} from "./actionability.ts";

/**
 * The actionability steps of an element handle, run in its frame's utility
 * world (`probe`, `scrollIntoViewIfNeeded`, `stableBox`, `hitTest`); `signal` (the call's)
 * abandons a step's page call when it aborts (a page stuck in a script answers none).
 * In a subframe, the hit test and the offset go up the frame chain (frame_chain.ts).
 * CDP: `Runtime.callFunctionOn`; `DOM.getFrameOwner`, `DOM.resolveNode`,
 * `DOM.getContentQuads` for subframes.
 */
export function elementSteps(
  page: Page,
  element: RemoteHandle,
  signal?: AbortSignal,
): ElementSteps {
  const handle = withSignal(element, signal);
  const inMain = handle.frameId === page.mainFrameId;
  // What the element must still be: the ref as shown, or its row as the pointer's arrival
  // changed it (a hover accepted by `coveredAt`), for every later attempt of this action.
  // With the rows that read like it but for counts (`others`): a re-use into one of them keeps
  // the skeleton, and only they tell it (a long row's "… line 3" now "… line 4").
  let shown: ShownAs | undefined = shownForPage(handle) ?? undefined;
  // The owner <iframe> handles, resolved once per action.
  let owners: Promise<RemoteHandle[]> | undefined;
  const chain = () => owners ??= ownerChain(page, handle.frameId, signal);
  // The hit test `ready` took at the box's center, for the next unarmed hit test there.
  let taken: { x: number; y: number; hit: Hit } | undefined;
  const steps: ElementSteps = {
    probe: (checks) => callOnHandle(handle, "probe", [checks]),
    scrollIntoView: async () => {
      await callOnHandle(handle, "scrollIntoViewIfNeeded", [!inMain]);
    },
    stableBox: () => callOnHandle(handle, "stableBox"),
    ready: async (checks, hit) => {
      taken = undefined;
      const tell = steps.onRoleName;
      const r = await callOnHandle(handle, "readyBox", [
        checks,
        !inMain,
        hit,
        shown ?? null,
        tell !== undefined,
      ]);
      if (tell && r.roleName) {
        steps.onRoleName = undefined;
        tell(r.roleName);
      }
      if (r.state === "ok" && r.hit !== undefined) {
        taken = { x: r.box.x + r.box.width / 2, y: r.box.y + r.box.height / 2, hit: r.hit };
      }
      return r;
    },
    shown: handle.shown,
    frameId: handle.frameId,
    coverKind: (x, y) => callOnHandle(handle, "coverKind", [x, y]).catch(() => null),
    arrived: false,
    accept: (now) => {
      if (shown) shown = { ...shown, context: now.context };
    },
    hitTest: async (x, y, arm) => {
      const early = taken;
      taken = undefined;
      const own = early && !arm && early.x === x && early.y === y
        ? early.hit
        : await callOnHandle(handle, "hitTest", [
          x,
          y,
          arm ?? false,
          arm ? (shown ?? null) : null,
        ]);
      if (own !== "ok" || inMain) return own;
      const up = await chainHit(await chain(), x, y, arm ?? false);
      if (up !== "ok" && arm) await clearGuard(handle);
      return up;
    },
    frameOffset: async () => inMain ? IDENTITY : await chainMap(await chain()),
    revealByHover: async () => {
      const at = await callOnHandle(handle, "hoverReveal");
      if (!at) return undefined;
      const off = inMain ? IDENTITY : await chainMap(await chain());
      const [x, y] = [off.x + at.x * off.scaleX, off.y + at.y * off.scaleY];
      await inputOf(page).mouse.move(x, y, { signal });
      return at.what;
    },
    pressVerdict: async (expect) => {
      const levels = [handle, ...(inMain ? [] : await chain())];
      const verdicts = await Promise.all(levels.map((h) => callOnHandle(h, "pressVerdict")));
      return pressOutcome(verdicts, handle.shown, expect);
    },
  };
  return steps;
}

/**
 * Reads the press guards' verdicts (the element's frame first, then each
 * ancestor's): the press went elsewhere when a guard stopped it; else what the result says of
 * the press: a name changed as the pointer arrived ("Undo" read "Delete account" when pressed:
 * pressed, and said, since hover labels such as Follow → Unfollow are the same control), a
 * press whose `expect` event (`click` for a left press) never reached the page (a new tab
 * opened on mousedown took the release), or one whose `expect` event the page stopped before
 * it reached the element (swallowed by a listener of its own on the way).
 *
 * @param shown what the element's ref was shown as (the handle's), when resolved from a ref.
 * @returns `error` when the press was stopped: the `covered` (or `ref-gone`: the element
 *   replaced, or re-used for another item) error saying nothing reached the page's elements.
 */
export function pressOutcome(
  verdicts: readonly PressVerdict[],
  shown?: ShownAs & { ref: string },
  expect?: string,
): PressOutcome {
  const i = verdicts.findIndex((v) => v.bad);
  if (i < 0) return { warnings: pressWarnings(verdicts[0], shown, expect) };
  const bad = verdicts[i]!.bad!;
  const where = i === 0 ? "" : " (in the page around the element's frame)";
  // The guard's listener runs before the page's (first_listeners.ts, in a document that
  // started after the tab attached): none of the page's listeners saw the stopped event.
  const stopped = "the press was stopped before it reached the page's elements";
  if (bad.changed && shown) {
    const outcome = bad.during
      ? `its click was stopped (the page saw the press begin: ${
        verdicts[i]!.events?.filter((e) => e !== "click").join(", ") || "pointerdown"
      })`
      : stopped;
    return {
      error: bad.during
        ? reusedDuringAction(
          shown,
          bad.changed,
          outcome,
          "during the press (a handler of the press, or a blur that committed an edit, re-rendered the list)",
        )
        : reusedDuringAction(shown, bad.changed, outcome),
    };
  }
  if (bad.gone || bad.changed) {
    return {
      error: new ToolError(
        "ref-gone",
        `Did not click: the element was replaced just before the press, ${bad.coveredBy} was there instead${where}; ${stopped}`,
        "take a new snapshot and use the new ref",
        { coveredBy: bad.coveredBy },
      ),
    };
  }
  return {
    error: new ToolError(
      "covered",
      `Did not click: at the press, ${bad.coveredBy} was under the pointer instead of the element${where}; ${stopped}`,
      "take a new snapshot and retry",
      { coveredBy: bad.coveredBy },
    ),
  };
}

/** What a press that went through leaves to say (see {@link pressOutcome}). */
function pressWarnings(
  own: PressVerdict | undefined,
  shown: (ShownAs & { ref: string }) | undefined,
  expect: string | undefined,
): string[] | undefined {
  if (!own?.armed) return undefined;
  const out: string[] = [];
  if (own.name !== undefined && shown && !EDITABLE_ROLES.has(shown.role)) {
    out.push(
      `${shown.ref}, shown as ${shown.role} ${JSON.stringify(shown.name)}, read ${
        JSON.stringify(own.name)
      } when pressed (its name changed as the pointer arrived): check that this is what was meant`,
    );
  }
  if (own.clickedElsewhere) {
    out.push(
      `the press began on the element but its click landed on ${own.clickedElsewhere} (the page changed under the pointer during the press): the element's click handlers did not run`,
    );
  }
  if (own.boxKept !== undefined) {
    out.push(
      own.boxKept
        ? "the page stopped the uncheck: the checkbox stayed checked (a click handler of the page cancelled the click or checked it again)"
        : "the page stopped the check: the checkbox stayed unchecked (a click handler of the page cancelled the click or unchecked it again)",
    );
  }
  const events = own.events ?? [];
  // The window saw the click (browxai's first listener) but the element did not: the page's
  // own listener on the way (the window, an ancestor) stopped it.
  if (
    expect && own.reached && events.includes(expect) && !own.reached.includes(expect) &&
    !own.clickedElsewhere
  ) {
    out.push(
      `the page swallowed the ${expect}: a listener of its own (on the window or around the element) stopped it before it reached the element, so the element got no ${expect} event and its ${expect} handlers did not run`,
    );
  } else if (
    expect && events.some((e) => e === "mousedown" || e === "pointerdown") &&
    !events.includes(expect)
  ) {
    out.push(
      `the element got the press (${
        events.join(", ")
      }) but no ${expect} followed: the page changed or lost the pointer between press and release (a tab opened on mousedown?), so its ${expect} handlers did not run`,
    );
  }
  return out.length ? out : undefined;
}

/**
 * Waits until the element is actionable and returns the action point (its
 * center) in top-level viewport coordinates. With `hitTest`, the point must
 * receive the pointer (checked {@link coveredAt} `before` the pointer moves).
 *
 * @throws ToolError ref-gone (detached) | not-visible | not-enabled |
 *   not-editable | covered (names the covering element) | timeout;
 *   `options.signal`'s reason when it aborted.
 */
export function waitActionable(
  page: Page,
  handle: RemoteHandle,
  options: ActionabilityOptions,
): Promise<ActionPoint> {
  const el = elementSteps(page, handle, options.signal);
  el.onRoleName = options.roleName;
  return untilActionable(
    el,
    { ...options, hitsFirst: options.hitTest === true },
    options.hitTest ? (p) => coveredAt(el, p, { stage: "before" }) : undefined,
  );
}
