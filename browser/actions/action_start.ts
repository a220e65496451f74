/**
 * Where an action starts from: the yes a call that may send a form needs, its target resolved (a label standing for its control when
 * the action works on a form control), checked for a bound secret, and the page as the agent
 * last saw it (the before-picture of the delta), asked beside a ref's resolution.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { CallContext } from "../call_context.ts";
import { callOnHandleForHandle, releaseHandle, type RemoteHandle } from "../injected/mod.ts";
import type { SendCandidate } from "../injected/form_types.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import type { CapturedSnapshot } from "../snapshot/capture.ts";
import { type BeforePicture, beforePicture } from "./action_delta.ts";
import { checkFillTarget } from "./secret_query.ts";
import { changedWhileAsked, factsChanges, factsSeed, sendFacts, sendsOf } from "./send_facts.ts";
import { dataShown } from "./send_question.ts";
import type { ConfirmRequest } from "../../policy/confirm.ts";
import { type ResolvedTarget, resolveTarget, type TargetSpec } from "./target.ts";

/** What a person approved a form to send (`confirmSend`), for the navigation guard. */
export interface ApprovedSend {
  /** Where the forms send (`"POST https://host/path"`). */
  sends: readonly string[];
  /** The ways the control acted on sends, with the data (`formSendData`), when read. */
  data?: readonly SendCandidate[] | undefined;
}

/**
 * Asks the confirm hooks of a call that may send a form from the active tab: `publish` when
 * one of its forms is set to publish (sending it publishes, whatever tool sends it; the
 * `publish` tool asks its own), then `submit`, told where the forms send (a page's form may
 * post elsewhere) and what the control acted on sends (its form, destination and fields,
 * masked). A human's yes holds only for the page they were told about: after each answer the
 * page is read again (`send_facts.ts`: the document, each form's action, method, target and
 * field values, and the acted-on control's form, submitter entry and data), and any change
 * fails the call with nothing done (the page may have rewritten its form while the person
 * read). A selector then finds nothing on another document. CDP: `Runtime.evaluate`
 * (`formsSendInfo`, before each question and after a yes), `Runtime.callFunctionOn`
 * (`formSendData`, on the target resolved as `resolveTarget` does).
 *
 * @returns Where the forms send and what the control sends, when a person approved that,
 *   for the navigation guard to hold the submission to (the page may change a form as it is
 *   sent: its click or submit handler); undefined when nobody was asked or the forms could
 *   not be read.
 * @throws ToolError `blocked-by-policy` when a hook says no; `page-changed` when the page
 *   changed while a human was asked.
 */
export async function confirmSend(
  ctx: CallContext,
  session: BrowserSession,
  tool: string,
  spec?: TargetSpec,
): Promise<ApprovedSend | undefined> {
  const page = session.activePage;
  const seed = factsSeed();
  const asks = ctx.config.confirmRequired;
  const data = asks.has("submit") || asks.has("publish");
  const target = page && data && spec
    ? await targetHandle(session, page, spec, ctx.signal)
    : undefined;
  try {
    const read = () => page ? sendFacts(page, seed, { data, target }) : undefined;
    let facts = await read();
    let asked = false;
    /** Asks; after a person's yes, the page must still be the one the question described. */
    const ask = async (request: ConfirmRequest) => {
      const outcome = await ctx.confirm(request);
      if (outcome.decision !== "approved" || !facts) return;
      asked = true;
      const now = (await read())!;
      const changes = factsChanges(facts, now);
      if (changes.length) throw changedWhileAsked(request.hook, changes);
      facts = now;
    };
    if (page && facts?.armed.length) {
      await ask({
        hook: "publish",
        tool,
        session: session.id,
        summary: `send a form set to publish (${facts.armed.join(", ")}) from ${page.url}`,
      });
    }
    const sendsTo = facts?.sendsTo ?? [];
    const mask = (t: string) => ctx.config.secrets?.maskText(t) ?? t;
    const shown = facts && dataShown(facts.data, mask);
    await ask({
      hook: "submit",
      tool,
      session: session.id,
      summary: `send a form from ${facts?.url ?? "the page"}${
        sendsTo.length ? ` (its forms send to: ${sendsTo.join(", ")})` : ""
      }${shown ? `; this sends ${shown}` : ""}`,
    });
    const sends = asked && facts ? sendsOf(facts) : undefined;
    return sends ? { sends, data: facts!.data } : undefined;
  } finally {
    if (target) releaseHandle(target);
  }
}

/**
 * The main-frame element `spec` names, for a question about it (undefined when it names none
 * there now: the action's own resolution then says why). The caller releases it. CDP: as
 * `resolveTarget`.
 */
export async function targetHandle(
  session: BrowserSession,
  page: Page,
  spec: TargetSpec,
  signal: AbortSignal | undefined,
): Promise<RemoteHandle | undefined> {
  if (spec.coords) return undefined;
  const resolved = await resolveTarget(session, page, spec, {
    deadline: Date.now() + TARGET_MS,
    signal,
  }).catch(() => undefined);
  if (resolved?.kind !== "element") return undefined;
  if (resolved.handle.frameId === page.mainFrameId) return resolved.handle;
  releaseHandle(resolved.handle);
  return undefined;
}

/** How long the send question's look for the target may take, ms. */
const TARGET_MS = 2_000;

/** What {@link startAction} is given. */
export interface StartOptions {
  /** The target fields, when the action takes one. */
  target?: TargetSpec | undefined;
  /** A `<label>` target stands for the control it labels (fill, select). */
  toControl?: boolean | undefined;
  /** The action hovers to show a hidden element (`resolveTarget`'s `hoverShown`). */
  hoverShown?: boolean | undefined;
  /** Take the before-picture (a delta is asked for and the document stays). */
  before: boolean;
  /** The call's deadline, epoch ms. */
  deadline: number;
  /** The call's signal (the before-picture's capture takes it). */
  signal?: AbortSignal | undefined;
  /** The signal of the steps before the action (the call's, ended at the deadline). */
  early: AbortSignal;
  /** Maps a step's failure once the deadline passed to the deadline's error. */
  pre: <T>(step: Promise<T>) => Promise<T>;
}

/**
 * Resolves the target and takes the before-picture: the page as the agent last saw it, when
 * nothing changed since (no new capture), taken before the action scrolls its element into
 * view (the scroll moves the page under a resting pointer, and what that hovers is the
 * action's doing, to show in the delta). The picture may take half the time left (without
 * it, the result shows the page whole). It only reads the page: it is asked beside a ref's
 * resolution (one round trip less in sequence) and dropped when the target fails; a
 * selector is looked for first (its search may take seconds of page calls, and finding
 * nothing needs no picture).
 *
 * CDP: as `resolveTarget`, `tabSnapshot`; `Runtime.callFunctionOn` (`labeledControl`).
 *
 * @throws what `resolveTarget` and `checkFillTarget` throw (nothing is left held: the
 *   element handle is released, the capture ended).
 */
export async function startAction(
  session: BrowserSession,
  page: Page,
  options: StartOptions,
): Promise<
  { target: ResolvedTarget | undefined; before: (CapturedSnapshot & BeforePicture) | undefined }
> {
  const { deadline, signal } = options;
  const drop = new AbortController();
  const take = () =>
    beforePicture(
      session,
      page,
      deadline,
      signal ? AbortSignal.any([signal, drop.signal]) : drop.signal,
      "the snapshot before the action",
    );
  let taken = options.before && options.target?.selector === undefined ? take() : undefined;
  taken?.catch(() => {});
  let target: ResolvedTarget | undefined;
  try {
    target = await startTarget(session, page, options, (t) => target = t);
    const before = options.before ? await (taken ??= take()) : undefined;
    return { target, before };
  } catch (e) {
    // Nothing is done: the capture stops, and ends before the session's next call.
    drop.abort();
    await taken?.catch(() => {});
    if (target?.kind === "element") releaseHandle(target.handle);
    throw e;
  }
}

/**
 * The action's target resolved (`resolveTarget`), a label standing for its control, checked
 * for a bound secret (`checkFillTarget`; without a target, the focused field is); `got` is
 * told each handle held, for the caller to release on a failure after. Undefined when the
 * action takes no target.
 */
async function startTarget(
  session: BrowserSession,
  page: Page,
  options: Omit<StartOptions, "before">,
  got: (target: ResolvedTarget) => void,
): Promise<ResolvedTarget | undefined> {
  const pre = options.pre;
  // No target (type, press): the focused field is checked for a bound secret all the same.
  if (!options.target) {
    await pre(checkFillTarget(page, undefined));
    return undefined;
  }
  let target = await pre(
    resolveTarget(session, page, options.target, {
      deadline: options.deadline,
      signal: options.early,
      toControl: options.toControl,
      hoverShown: options.hoverShown,
      refuseAlike: true,
    }),
  );
  got(target);
  if (options.toControl && target.kind === "element" && !target.notLabel) {
    target = await pre(toLabeled(target));
    got(target);
  }
  // A secret bound to origins goes only into frames of those origins.
  await pre(checkFillTarget(page, target));
  return target;
}

/**
 * The target looked up again once its element went away as its own scroll into view made the
 * page re-render it (a virtual list: `scrolledAway`), as {@link startAction} looks it up: a
 * selector matches the re-rendered element, a ref the one element of its role, name and row
 * (`refindGone`, which says so). The caller released the old handle.
 *
 * @throws ToolError as {@link startAction}: ref-gone (a ref whose row is not found again, with
 *   what is there now) | not-found | the deadline's error.
 */
export async function resolveAgain(
  session: BrowserSession,
  page: Page,
  options: Omit<StartOptions, "before">,
): Promise<ResolvedTarget | undefined> {
  let held: ResolvedTarget | undefined;
  try {
    return await startTarget(session, page, options, (t) => held = t);
  } catch (e) {
    if (held?.kind === "element") releaseHandle(held.handle);
    throw e;
  }
}

/**
 * A label's control in its place (the label's handle released), with a note; any other
 * element as it is. CDP: `Runtime.callFunctionOn` (`labeledControl`).
 */
async function toLabeled(
  target: ResolvedTarget & { kind: "element" },
): Promise<ResolvedTarget> {
  const control = await callOnHandleForHandle(target.handle, "labeledControl");
  if (!control) return target;
  releaseHandle(target.handle);
  const note = "the selector matched a label: acted on the control it labels";
  return { ...target, handle: control, note: target.note ? `${target.note}; ${note}` : note };
}
