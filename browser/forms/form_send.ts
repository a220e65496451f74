/**
 * Sending a form while watching whether it was really sent: clicking its submit control
 * (`publish`, `save_draft`) or pressing Enter in a field (`fill` with `submit`), then telling
 * a real submission (a navigation, a write request, a submit event the page took over) from
 * one the browser's validation or the page stopped.
 *
 * @module
 */
import { pageTaskTurn } from "../actions/focus.ts";
import type { Page } from "../../cdp/page.ts";
import { ToolError } from "../tool_error.ts";
import { callOnHandle, callUtility, type RemoteHandle } from "../injected/mod.ts";
import type { PageResult } from "../injected/page_api_views.ts";
import { inputOf } from "../actions/devices.ts";
import { pointerAction } from "../actions/pointer.ts";
import type { PerformContext } from "../actions/action_spec.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import { isWriteMethod } from "../network_writes.ts";
import { pause, poll } from "../poll.ts";

/** How long to wait after the click for a sign that the form left, ms. */
const SEND_WAIT_MS = 2000;

/** Whether clicking the submit control sent the form, and how. */
export interface SendOutcome {
  sent: boolean;
  /** `form` (the browser submits it), `navigation`, `request` (a script sent a write). */
  how?: "form" | "navigation" | "request";
  /** Fields the browser's validation stopped on (`name: message`). */
  invalid?: string[];
  /** Why nothing left, when nothing did. */
  detail?: string;
}

/**
 * Clicks the resolved submit control like `click` (pointer there, hit test,
 * press) and waits up to ~2 s for the form to leave: a submit event the
 * page let through, a navigation of the tab, or a write request.
 *
 * @throws ToolError covered when something else is at the click point.
 */
export async function clickAndWatch(c: PerformContext): Promise<SendOutcome> {
  const { session, page, target, point, elementPoint } = c;
  if (target?.kind !== "element" || !point || !elementPoint) {
    throw new ToolError("invalid-argument", "No submit control to click", "pass submit");
  }
  await callOnHandle(target.handle, "formWatchSubmit");
  const leaving = watchLeaving(session, page);
  try {
    await pointerAction(page, target.handle, {
      press: {},
      enabled: true,
      deadline: c.deadline,
      signal: c.signal,
      start: elementPoint,
      what: "the submit control",
    });
    let outcome: SendOutcome | undefined;
    let submitted = false;
    await poll(async () => {
      let st:
        | { submitted: boolean; settled: boolean; prevented: boolean; invalid: string[] }
        | null;
      try {
        st = await callOnHandle(target.handle, "formSubmitState");
      } catch {
        outcome = { sent: true, how: "navigation" }; // The document is gone: the form left.
        return true;
      }
      if (!st) outcome = { sent: true, how: "navigation" };
      else if (st.submitted && st.settled && !st.prevented) outcome = { sent: true, how: "form" };
      else if (leaving.navigated) outcome = { sent: true, how: "navigation" };
      else if (leaving.wrote) outcome = { sent: true, how: "request" };
      else if (st.invalid.length) outcome = { sent: false, invalid: st.invalid };
      else submitted = st.submitted;
      return outcome !== undefined;
    }, {
      timeoutMs: Math.min(c.deadline, Date.now() + SEND_WAIT_MS) - Date.now(),
      intervalMs: 50,
      maxIntervalMs: 50,
      signal: c.signal,
    });
    return outcome ?? {
      sent: false,
      detail: submitted
        ? "the page stopped the submission and sent nothing"
        : "no submission reached the form",
    };
  } finally {
    leaving.off();
  }
}

/**
 * Watches a tab for signs that a form left some other way than a submit
 * event: its main frame asked to navigate, or a write request (POST, PUT,
 * PATCH, DELETE) went out. CDP events `Page.frameRequestedNavigation`,
 * `Network.requestWillBeSent`. Call `off()` when done.
 */
function watchLeaving(session: BrowserSession, page: Page) {
  const seen = { navigated: false, wrote: false, off: () => {} };
  const off = session.listen({
    event(p, method, params, _session) {
      if (p !== page) return;
      if (method === "Page.frameRequestedNavigation" && params.frameId === page.mainFrameId) {
        seen.navigated = true;
      }
      if (method === "Network.requestWillBeSent" && isWriteMethod(params.request.method)) {
        seen.wrote = true;
      }
    },
  });
  seen.off = () => void off();
  return seen;
}

/** How long to wait after Enter for a sign that the form left, ms. */
const ENTER_WAIT_MS = 500;

/** Why Enter did not send a form (page-side `formEnterBlocker`). */
interface EnterBlocker {
  kind: "multiline" | "disabled-button" | "no-button";
  button?: string;
  fields?: string[];
}

/** A submission watch started ahead of Enter ({@link startEnterWatch}). */
export type EnterWatch = Promise<PageResult<"formWatchSubmit">>;

/**
 * Starts the submission watch of the field Enter will be pressed in, to go out beside the
 * fill's first page call (the page answers them in order: no round trip of its own, where
 * asking it between the value and Enter cost one). Hand it to {@link pressEnterAndWatch};
 * when the fill fails before Enter, {@link dropEnterWatch}. What the page's own checks report
 * while the value goes in is not Enter's verdict: the watch forgets it at Enter's keydown.
 * CDP: `Runtime.callFunctionOn` (`formWatchSubmit`).
 */
export function startEnterWatch(handle: RemoteHandle): EnterWatch {
  const watch = callOnHandle(handle, "formWatchSubmit");
  // Awaited later, or dropped: a failure meanwhile must not go unhandled.
  watch.catch(() => {});
  return watch;
}

/** Removes a watch {@link startEnterWatch} started when Enter will not be pressed. */
export function dropEnterWatch(handle: RemoteHandle, watch: EnterWatch): void {
  void watch.then((w) => w?.form ? callOnHandle(handle, "formUnwatchSubmit") : undefined)
    .catch(() => {});
}

/**
 * Presses Enter in the resolved field (`fill` with `submit`) and tells
 * whether its form was submitted: a `submit` event reached the form (also
 * when the page takes it over with `preventDefault`, an SPA's submit), the
 * tab asked to navigate, or a write request went out. A field outside any
 * form is the page's business: Enter is pressed and nothing is failed, but
 * a warning says so when nothing at all answered the key (judged on the
 * whole window: `warningsUnlessChanged`).
 *
 * @returns Fields for the ActionResult: `submitted: true` (a request or
 *   navigation followed, or a submit the page let go), the no-form warning,
 *   `submitted: false` with a warning when the page's own key handler took
 *   Enter over, or `submitted: false` when its submit handler cancelled the
 *   submission and nothing was sent (a warning unless the delta shows what
 *   the page did).
 * @param options.beforeEnter Awaited once the page's task turn passed, before Enter: it may
 *   throw to keep Enter from being pressed (fill: the page emptied the field).
 * @throws ToolError `not-actionable` (details `submitted: false`, `invalid`
 *   with each field's `validationMessage`) when the form was not submitted:
 *   the browser's validation stopped it, or Enter does not send this form; what
 *   `beforeEnter` throws.
 */
export async function pressEnterAndWatch(
  c: PerformContext,
  started?: EnterWatch,
  options: { beforeEnter?: (() => Promise<void>) | undefined } = {},
): Promise<Record<string, unknown>> {
  const { session, page, target } = c;
  const { keyboard } = inputOf(page);
  if (target?.kind !== "element") {
    await keyboard.press("Enter", { signal: c.signal });
    return {};
  }
  const watch = await (started ?? callOnHandle(target.handle, "formWatchSubmit"));
  // The value went in just now: what its input events deferred runs before Enter acts on it.
  try {
    await pageTaskTurn(page, target.handle.frameId, { signal: c.signal, field: target.handle });
    await options.beforeEnter?.();
  } catch (e) {
    if (watch?.form) callOnHandle(target.handle, "formUnwatchSubmit").catch(() => {});
    throw e;
  }
  if (!watch?.form) {
    // No delta will show whether anything answered: the frame's DOM change counter will (the
    // key's own `change` event on the field is no answer).
    const frameId = target.handle.frameId;
    const generation = c.snapshotMode === "none"
      ? await callUtility(page, frameId, "domGeneration", [], { signal: c.signal })
        .catch(() => undefined)
      : undefined;
    await keyboard.press("Enter", { signal: c.signal });
    // The page's business, unless it did nothing at all: then the agent must hear it.
    return {
      warningsUnlessChanged: [
        "Enter changed nothing but the field: it is in no form and nothing answered the key " +
        "(no request, navigation, dialog or other change); send it another way, e.g. click " +
        "its button",
      ],
      ...(generation === undefined ? {} : {
        unchangedCheck: async () =>
          (await callUtility(page, frameId, "domGeneration", [], { signal: c.signal })) ===
            generation,
      }),
    };
  }
  const leaving = watchLeaving(session, page);
  try {
    await keyboard.press("Enter", { signal: c.signal });
    // A submit event (and the validation that may stop it) comes with the key itself; a
    // script that sends the form on its own key handler gets a moment to do it.
    const until = Math.min(c.deadline, Date.now() + ENTER_WAIT_MS);
    /** Waits until the page navigated, wrote or re-rendered after the submit, or `until`. */
    const leftBy = () =>
      poll(async () =>
        leaving.navigated || leaving.wrote ||
        (await callOnHandle(target.handle, "formSubmitState").catch(() => null))?.changed ===
          true, {
        timeoutMs: until - Date.now(),
        intervalMs: 50,
        maxIntervalMs: 50,
        signal: c.signal,
      });
    // Each page-side read resends the form library (tens of KB): one now, one after the wait.
    for (let last = false;; last = true) {
      let st: {
        submitted: boolean;
        prevented?: boolean;
        settled?: boolean;
        invalid: string[];
        keyPrevented?: boolean;
        changed?: boolean;
      } | null;
      try {
        st = await callOnHandle(target.handle, "formSubmitState");
        // The page's verdict on a submit event is read a task after it (settled).
        for (let i = 0; i < 5 && st?.submitted && !st.settled; i++) {
          await pause(20, c.signal);
          st = await callOnHandle(target.handle, "formSubmitState");
        }
      } catch (e) {
        if (c.signal?.aborted) throw e;
        return { submitted: true }; // The document is gone: the form left.
      }
      if (!st || leaving.navigated || leaving.wrote) return { submitted: true };
      if (st.submitted) {
        if (!st.prevented) return { submitted: true };
        // The page took the submit over: an app that sends it itself does so at once; one
        // that keeps the item (an SPA) or whose own validation said no re-renders and sends
        // nothing. A re-render ends the wait (what follows, the window still sees); the
        // result says whether anything left (decided on the whole window). `submitted` means
        // sent (s17: `true` read as success when the page's own check said no).
        if (!st.changed) await leftBy();
        return leaving.navigated || leaving.wrote ? { submitted: true } : {
          submitted: false,
          // Said unless the delta shows what the page did (a new item): an SPA's every add
          // repeated it (240 characters each on angularjs TodoMVC).
          warningsUnlessShown: [
            "the page's submit handler cancelled the browser's submission and no request or " +
            "navigation followed: the page handled the form itself; check the delta for what " +
            "it did (a new item, or a validation message)",
          ],
        };
      }
      if (st.invalid.length) {
        throw new ToolError(
          "form-invalid",
          `Enter did not send the form: the browser's validation stopped it (${
            st.invalid.join("; ")
          }); the value was filled`,
          "fill the field(s) named with a value they accept (the message says what is wrong), then submit again",
          { submitted: false, invalid: st.invalid },
        );
      }
      if (last) {
        if (st.keyPrevented) {
          return {
            submitted: false,
            warnings: [
              "Enter did not send the form: the page's key handler took Enter over; check the delta for what it did",
            ],
          };
        }
        const blocker = await callOnHandle(
          target.handle,
          "formEnterBlocker",
        ).catch(() => null);
        throw enterNotSent(blocker);
      }
      await leftBy();
    }
  } finally {
    leaving.off();
    callOnHandle(target.handle, "formUnwatchSubmit").catch(() => {});
  }
}

function enterNotSent(blocker: EnterBlocker | null): ToolError {
  const [why, hint] = blocker?.kind === "multiline"
    ? [
      "in a multi-line field Enter adds a line break (now part of the value)",
      "fill it again without submit, then click the form's submit button with submits: true",
    ]
    : blocker?.kind === "disabled-button"
    ? [
      `its submit button (${blocker.button}) is disabled`,
      "fill the other required fields until the page enables it, then click it with submits: true",
    ]
    : blocker?.kind === "no-button"
    ? [
      `it has no submit button and ${blocker.fields?.length} text fields (${
        blocker.fields?.join(", ")
      }), and a browser sends such a form only from a button`,
      "click the control that sends the form with submits: true (read_form lists the form's controls)",
    ]
    : [
      "no submit event reached the form",
      "read_form to check the form, then click its submit control with submits: true",
    ];
  return new ToolError(
    "not-actionable",
    `Enter did not send the form: ${why}; the value was filled`,
    hint,
    { submitted: false },
  );
}

/** The error for a form that did not leave. */
export function notSent(outcome: SendOutcome, after: string): ToolError {
  const why = outcome.invalid?.length
    ? `the browser's validation stopped it (${outcome.invalid.join("; ")})`
    : outcome.detail ?? "nothing was sent";
  return new ToolError(
    outcome.invalid?.length ? "form-invalid" : "not-actionable",
    `The form was not sent: ${why}; ${after}`,
    outcome.invalid?.length
      ? "fill the fields named (fill_form), then call again"
      : "read_form to check the form, then call again",
    outcome.invalid ? { invalid: outcome.invalid } : {},
  );
}

/**
 * Watches the form a clicked control sends (a click declared `submits`), for the browser's
 * own validation: `check()` after the click answers the error to raise when validation
 * stopped the form (each field with its message), else undefined. No form: nothing to watch.
 * CDP: `Runtime.callFunctionOn` (`formWatchSubmit`, `formSubmitState`, `formUnwatchSubmit`).
 */
export async function watchClickedForm(
  handle: RemoteHandle,
): Promise<{ check(): Promise<ToolError | undefined>; off(): void }> {
  const watch = await callOnHandle(handle, "formWatchSubmit").catch(() => null);
  const off = () => void callOnHandle(handle, "formUnwatchSubmit").catch(() => {});
  if (!watch?.form) return { check: () => Promise.resolve(undefined), off };
  return {
    async check() {
      const st = await callOnHandle(handle, "formSubmitState").catch(() => null);
      if (!st || st.submitted || !st.invalid.length) return undefined;
      return new ToolError(
        "form-invalid",
        `The click did not send the form: the browser's validation stopped it (${
          st.invalid.join("; ")
        }); the control was clicked`,
        "fill the field(s) named with a value they accept (the message says what is wrong), then click again",
        { submitted: false, invalid: st.invalid },
      );
    },
    off,
  };
}
