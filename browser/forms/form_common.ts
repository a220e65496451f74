/**
 * What the form tools share: calls into the page-side form libraries
 * (`browser/injected/form_*_lib.ts`) with one or two element handles, element
 * and submit-control resolution, and the draft check. Sending a form while
 * watching it is in `form_send.ts`.
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
  OnTwoElementsMethod,
  PageResult,
  ValueMethod,
} from "../injected/page_api_views.ts";
import type { TargetSpec } from "../actions/target.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import { resolveRefChecked } from "../snapshot/resolve.ts";
import { frameNoteOf } from "../frame_note.ts";

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
 * @param notes Receives a ref's warning when its row's numbers read otherwise than shown and
 *   it is acted on all the same (a ticker the agent was told of: `liveValuesNote`).
 * @throws ToolError ref-gone | not-found | invalid-argument
 */
export async function resolveElement(
  session: BrowserSession,
  page: Page,
  refOrSelector: string,
  notes?: string[],
): Promise<RemoteHandle> {
  if (REF.test(refOrSelector)) {
    const { handle, note } = await resolveRefChecked(page, session.refs, refOrSelector);
    if (note) notes?.push(note);
    return handle;
  }
  const { handle } = await queryFrames(page, session.refs, refOrSelector, {
    skip: (url, id) => frameNoteOf(session, page)(url, id) !== undefined,
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
