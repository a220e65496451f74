/**
 * What the form tools share: calls into the page-side form libraries
 * (`browser/injected/form_*_lib.ts`) with one or two element handles, element
 * and submit-control resolution, the draft check, and clicking a form's
 * submit control (or pressing Enter in a field, for `fill`) while watching
 * whether the form was really sent.
 *
 * @module
 */
import { checkSelectorAttributes } from "../actions/secret_query.ts";
import { queryFrames } from "../actions/frame_query.ts";
import { selectorError } from "../actions/target.ts";
import { EvaluationError, exceptionText, type Page } from "../../cdp/page.ts";
import { ToolError } from "../tool_error.ts";
import {
  callOnHandle,
  callUtility,
  preludeFor,
  releaseHandle,
  type RemoteHandle,
} from "../injected/mod.ts";
import type { PageFailure } from "../injected/page_types.ts";
import type {
  ArgList,
  ArgsAfter,
  HandleResultMethod,
  OnElementMethod,
  OnTwoElementsMethod,
  PageResult,
  ValueMethod,
} from "../injected/page_api.ts";
import { inputOf } from "../actions/devices.ts";
import { pointerAction } from "../actions/pointer.ts";
import type { PerformContext } from "../actions/run_action.ts";
import type { TargetSpec } from "../actions/target.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import { resolveRef } from "../snapshot/resolve.ts";
import { isWriteMethod } from "../network_writes.ts";
import { pause, poll } from "../poll.ts";

/**
 * A page-side failure: `{ error, code }` with `code` a ToolError code (page_types.ts; passing
 * `code` to `ToolError` makes the compiler check the page's codes are ToolError codes).
 */
export type { PageFailure };

/** True when a page-side result is a {@link PageFailure}. */
export function isFailure(v: unknown): v is PageFailure {
  return !!v && typeof v === "object" && typeof (v as PageFailure).error === "string";
}

/** A ref as agents pass it (`e12`, or a picked `p3`). */
export const REF = /^[ep]\d+$/;

export { selectorError };

/**
 * Calls `__browxai[method](element, ...args)` (a method answering an
 * element) and returns the result as a handle (undefined for null). CDP:
 * `Runtime.callFunctionOn`.
 */
export async function callOnHandleForHandle<K extends OnElementMethod & HandleResultMethod>(
  handle: RemoteHandle,
  method: K,
  ...rest: ArgList<ArgsAfter<K, 1>>
): Promise<RemoteHandle | undefined> {
  const [args = []]: [unknown[]?] = rest;
  const r = await handle.session.send("Runtime.callFunctionOn", {
    functionDeclaration: `function(...a) { ${
      preludeFor(method)
    } return globalThis.__browxai.${method}(this, ...a); }`,
    objectId: handle.objectId,
    arguments: args.map((value) => ({ value })),
    returnByValue: false,
  });
  if (r.exceptionDetails) throw new EvaluationError(exceptionText(r.exceptionDetails));
  if (!r.result.objectId) return undefined;
  return { session: handle.session, frameId: handle.frameId, objectId: r.result.objectId };
}

/**
 * Calls `__browxai[method](a, b, ...args)` with two elements of one document
 * and returns the JSON result. CDP: `Runtime.callFunctionOn`.
 *
 * @throws ToolError invalid-argument when the two live in different frames.
 */
export async function callOnHandles<K extends OnTwoElementsMethod & ValueMethod>(
  a: RemoteHandle,
  b: RemoteHandle,
  method: K,
  ...rest: ArgList<ArgsAfter<K, 2>>
): Promise<PageResult<K>> {
  const [args = []]: [unknown[]?] = rest;
  if (a.session !== b.session || a.frameId !== b.frameId) {
    throw new ToolError(
      "invalid-argument",
      "The publish control and the submit control are in different frames",
      "pass two controls of the same form",
    );
  }
  const r = await a.session.send("Runtime.callFunctionOn", {
    functionDeclaration: `function(b, ...a) { ${
      preludeFor(method)
    } return globalThis.__browxai.${method}(this, b, ...a); }`,
    objectId: a.objectId,
    arguments: [{ objectId: b.objectId }, ...args.map((value) => ({ value }))],
    returnByValue: true,
    awaitPromise: true,
  });
  if (r.exceptionDetails) throw new EvaluationError(exceptionText(r.exceptionDetails));
  return r.result.value as PageResult<K>;
}

/**
 * Resolves a ref (`e12`) or a selector (CSS or `text=…`) in the active tab: a
 * selector's match in the main frame, else in the first child frame that has
 * one (snapshot order, as action selectors: `queryFrames`).
 *
 * @throws ToolError ref-gone | not-found | invalid-argument
 */
export async function resolveElement(
  session: BrowserSession,
  page: Page,
  refOrSelector: string,
): Promise<RemoteHandle> {
  if (REF.test(refOrSelector)) return await resolveRef(page, session.refs, refOrSelector);
  const { handle } = await queryFrames(page, session.refs, refOrSelector, {
    skip: (url) => session.navGuard?.frameNote(url, page.url) !== undefined,
  }).catch((e) => selectorError(e, refOrSelector));
  if (!handle) {
    throw new ToolError(
      "not-found",
      `No element matches "${refOrSelector}"`,
      "call read_form for the form's fields and controls, or take a snapshot for refs",
    );
  }
  return handle;
}

/**
 * The target of a form's submit control: a ref, a submit button's text as
 * read_form reports it in `submitText` ("Submit"), or a selector.
 *
 * @throws ToolError not-found
 */
export async function submitTarget(page: Page, submit: string): Promise<TargetSpec> {
  if (REF.test(submit)) return { ref: submit };
  await checkSelectorAttributes(page, page.mainFrameId, submit);
  const selector = await callUtility(page, page.mainFrameId, "formSubmitControl", [
    submit,
  ]);
  if (!selector) {
    throw new ToolError(
      "not-found",
      `No submit control matches "${submit}" (by its text or as a selector)`,
      "call read_form: submitText lists the form's submit controls with their selectors",
    );
  }
  return { selector };
}

/** One publish control as the page-side library reports it. */
export interface DraftControl {
  name: string;
  type: string;
  state: "draft" | "public" | "unknown";
  options: Array<
    { value: string; label: string; selected: boolean; means: string | null; selector: string }
  >;
}

/** The draft state of a form (`none`: it has no publish control). */
export interface DraftState {
  state: "draft" | "public" | "unknown" | "none";
  drafts: DraftControl[];
  form: string | null;
}

/** The draft state of the form an element belongs to. */
export async function draftStateOf(handle: RemoteHandle): Promise<DraftState> {
  return await callOnHandle(handle, "formDraftState");
}

/** Reads the draft state of the form a submit target sends. */
export async function draftStateAt(
  session: BrowserSession,
  page: Page,
  target: TargetSpec,
): Promise<DraftState> {
  const handle = await resolveElement(session, page, target.ref ?? target.selector!);
  try {
    return await draftStateOf(handle);
  } finally {
    releaseHandle(handle);
  }
}

/** `name=value ("label")` of each selected option, for messages. */
export function describeDrafts(s: DraftState): string {
  return s.drafts.map((d) => {
    const o = d.options.find((x) => x.selected);
    if (!o) return `${d.name}: nothing selected`;
    const v = d.type === "checkbox" ? o.value : `${d.name}=${o.value}`;
    return `${v}${o.label ? ` ("${o.label}")` : ""} means ${o.means ?? "unknown"}`;
  }).join("; ");
}

/**
 * Refuses unless the form's publish controls are all on their draft setting.
 *
 * @throws ToolError refused
 */
export function requireDraft(s: DraftState): void {
  if (s.state === "draft") return;
  const [message, hint] = s.state === "public"
    ? [
      `Refused: the form is armed to publish (${
        describeDrafts(s)
      }); save_draft only sends a form whose publish control is on its draft setting`,
      "set the publish control back to its draft option (fill_form), or use publish if a human approved making it public",
    ]
    : s.state === "none"
    ? [
      "Refused: the form has no publish/draft control, so nothing tells whether sending it publishes",
      "read_form shows the form's controls; if sending it is an ordinary submit, click the submit control",
    ]
    : [
      `Refused: cannot tell whether the form is a draft (${describeDrafts(s)})`,
      "select the publish control's draft option (read_form lists its options under drafts), then call again",
    ];
  throw new ToolError("refused", message, hint, { draftState: s.state });
}

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

/**
 * Presses Enter in the resolved field (`fill` with `submit`) and tells
 * whether its form was submitted: a `submit` event reached the form (also
 * when the page takes it over with `preventDefault`, an SPA's submit), the
 * tab asked to navigate, or a write request went out. A field outside any
 * form is the page's business: Enter is pressed and nothing is judged.
 *
 * @returns Fields for the ActionResult: `submitted: true`, nothing (no
 *   form), or `submitted: false` with a warning when the page's own key
 *   handler took Enter over.
 * @throws ToolError `not-actionable` (details `submitted: false`, `invalid`
 *   with each field's `validationMessage`) when the form was not submitted:
 *   the browser's validation stopped it, or Enter does not send this form.
 */
export async function pressEnterAndWatch(c: PerformContext): Promise<Record<string, unknown>> {
  const { session, page, target } = c;
  const { keyboard } = inputOf(page);
  if (target?.kind !== "element") {
    await keyboard.press("Enter", { signal: c.signal });
    return {};
  }
  const watch = await callOnHandle(target.handle, "formWatchSubmit");
  if (!watch?.form) {
    await keyboard.press("Enter", { signal: c.signal });
    return {};
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
        // The page took the submit over: an app that sends it itself does so at once (or
        // re-renders: an SPA that keeps the item); one whose own validation said no sends
        // nothing. All are the page's submit: say which.
        if (st.changed) return { submitted: true };
        await leftBy();
        return leaving.navigated || leaving.wrote ? { submitted: true } : {
          submitted: true,
          warnings: [
            "the page's submit handler cancelled the browser's submission and no request or " +
            "navigation followed: check the delta for what it did (a validation message?)",
          ],
        };
      }
      if (st.invalid.length) {
        throw new ToolError(
          "not-actionable",
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
    "not-actionable",
    `The form was not sent: ${why}; ${after}`,
    outcome.invalid?.length
      ? "fill the fields named (fill_form), then call again"
      : "read_form to check the form, then call again",
    outcome.invalid ? { invalid: outcome.invalid } : {},
  );
}
