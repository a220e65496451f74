/**
 * The page-side library browxai installs in its isolated world of every
 * frame (`globalThis.__browxai`), and the Deno-side helpers to call it.
 *
 * Which parts go when (the core with a world's first call, each on-demand group with the
 * first call of one of its methods) is `library_parts.ts`; this file sends them and calls.
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import { EvaluationError, exceptionText, type Page } from "../../cdp/page.ts";
import type {
  ArgList,
  ArgsAfter,
  HandleResultMethod,
  OnElementMethod,
  PageArgs,
  PageResult,
  ValueMethod,
} from "./page_api_views.ts";
import type { ShownAs } from "./page_types.ts";
import {
  callOnElement,
  groupMark,
  installAndCall,
  lazyOf,
  type LazyParts,
} from "./library_parts.ts";

export { INSTALL_SOURCE, preludeFor } from "./library_parts.ts";

/** What a call answers when the world has no library yet (a new document or context). */
const MISSING = "__browxai_missing__";

/** What a call of an on-demand group's method answers when the world has the core only. */
const MISSING_GROUP = "__browxai_missing_group__";

/** The mark (`UtilityWorld.marks`) of a world the library was sent to. */
const CORE_MARK = "browxai:core";

/** Marks a world an on-demand group (and the groups it needs) was sent to. */
function markGroup(marks: Set<string> | undefined, lazy: LazyParts): void {
  for (const flag of lazy.flags) marks?.add(groupMark(flag));
}

/** Whether an on-demand group was sent to the world of `marks`. */
function hasGroup(marks: Set<string> | undefined, lazy: LazyParts): boolean {
  return marks?.has(groupMark(lazy.flag)) === true;
}

/**
 * Evaluates `__browxai[method](...args)` in a frame's utility world. The
 * library is installed on demand: in a fresh world (`UtilityWorld.fresh`: made by this tab, or
 * a new document's, which holds only its first listeners) the library goes with the first
 * call, in one command; elsewhere a call into a world without it
 * (or without the method's on-demand group) answers {@link MISSING} ({@link MISSING_GROUP}),
 * and the call is made again with what is missing installed first. (Context ids are not a
 * safe cache key: a cross-process navigation can reuse them; the world's marks end with it.)
 * CDP: `Runtime.evaluate` (a call), `Runtime.callFunctionOn` (install and call).
 */
async function evaluateInWorld(
  page: Page,
  frameId: string,
  method: string,
  args: unknown[],
  returnByValue: boolean,
  options: { timeoutMs: number; signal?: AbortSignal | undefined },
) {
  const { timeoutMs, signal } = options;
  const lazy = lazyOf(method);
  const { session, contextId, world } = await page.utilityContext(frameId);
  const marks = world?.marks;
  const installing = (core: boolean) =>
    session.send("Runtime.callFunctionOn", {
      functionDeclaration: installAndCall(core, lazy, marks),
      executionContextId: contextId,
      arguments: [{ value: method }, { value: args }],
      returnByValue,
      awaitPromise: true,
    }, { timeoutMs, signal });
  const hasCore = marks?.has(CORE_MARK) === true;
  let r;
  // A fresh world holds no library yet: skip the probe, send the library with the call.
  if (world?.fresh === true && !hasCore) r = await installing(true);
  // The core went to this world, the method's group not: send it with the call.
  else if (hasCore && lazy && !hasGroup(marks, lazy)) r = await installing(false);
  else {
    const call = `globalThis.__browxai.${method}(...${JSON.stringify(args)})`;
    const missing = `!globalThis.__browxai ? ${JSON.stringify(MISSING)}`;
    r = await session.send("Runtime.evaluate", {
      expression: lazy
        ? `${missing} : !globalThis.__browxai.${lazy.flag} ? ${
          JSON.stringify(MISSING_GROUP)
        } : ${call}`
        : `${missing} : ${call}`,
      contextId,
      returnByValue,
      awaitPromise: true,
    }, { timeoutMs, signal });
    if (!r.exceptionDetails && lazy && r.result.value === MISSING_GROUP) {
      r = await installing(false);
    }
  }
  // No core after all (an install sent ahead failed): the whole library, with the call.
  if (!r.exceptionDetails && r.result.value === MISSING) r = await installing(true);
  marks?.add(CORE_MARK);
  if (lazy) markGroup(marks, lazy);
  if (r.exceptionDetails) throw new EvaluationError(exceptionText(r.exceptionDetails));
  return { session, result: r.result, marks };
}

/**
 * Starts installing the core library in a frame's utility world ahead of its first call: a
 * navigation that shows no snapshot starts it as it answers, so the agent's first read of the
 * page finds the library there (sent per document, it was most of a first snapshot's time).
 * A world that has it, or is getting it, is left alone; a failure is ignored (the first call
 * then finds it missing and installs it). The text sent is the one a first call sends
 * ({@link installAndCall}): compiled once per renderer.
 * CDP: `Page.createIsolatedWorld` (a new world), `Runtime.callFunctionOn`.
 *
 * @returns a promise that settles (never rejects) once the page answered the install (at once
 *   when the world has it or is getting it): a caller may wait for it, or not.
 */
export function preinstallLibrary(page: Page, frameId: string = page.mainFrameId): Promise<void> {
  return (async () => {
    const { session, contextId, world } = await page.utilityContext(frameId);
    if (world.marks.has(CORE_MARK)) return;
    // Marked before it is sent: a call that comes meanwhile probes (its probe runs after this
    // install, in order) instead of sending the library again.
    world.marks.add(CORE_MARK);
    await session.send("Runtime.callFunctionOn", {
      functionDeclaration: installAndCall(true, undefined),
      executionContextId: contextId,
      arguments: [{ value: null }, { value: [] }],
      returnByValue: true,
    });
  })().catch(() => {});
}

/** Options of {@link callUtility}. */
export interface CallOptions {
  /** How long to wait for the page, ms (default 30000). */
  timeoutMs?: number;
  /** The call's signal: the page call is abandoned (`AbortError`) when it aborts. */
  signal?: AbortSignal | undefined;
}

/** {@link callUtility}'s `args` (optional when the method needs none) and options. */
type UtilityArgs<A> = [] extends A ? [args?: A, options?: CallOptions]
  : [args: A, options?: CallOptions];

/**
 * Calls `__browxai[method](...args)` in the utility world of a frame and
 * returns the JSON result; `args` and the result are typed by
 * {@link PageApi}. CDP: `Runtime.evaluate`.
 *
 * @throws EvaluationError when the page-side code throws; AbortError (cdp/errors.ts) when
 *   `options.signal` aborts.
 */
export async function callUtility<K extends ValueMethod>(
  page: Page,
  frameId: string,
  method: K,
  ...rest: UtilityArgs<PageArgs<K>>
): Promise<PageResult<K>> {
  const [args = [], options = {}]: [unknown[]?, CallOptions?] = rest;
  const { result } = await evaluateInWorld(
    page,
    frameId,
    method,
    args,
    true,
    { timeoutMs: options.timeoutMs ?? 30_000, signal: options.signal },
  );
  return result.value as PageResult<K>;
}

/** A remote object living in a frame's utility world. */
export interface RemoteHandle {
  session: CdpSession;
  frameId: string;
  objectId: string;
  /**
   * The call's signal, for the page calls made on this handle ({@link callOnHandle}): they
   * are abandoned (`AbortError`) when it aborts. See {@link withSignal}.
   */
  signal?: AbortSignal | undefined;
  /**
   * The marks of the handle's world (`UtilityWorld.marks`) when known: an on-demand group
   * the world lacks then goes with the handle's first call of one of its methods, and one it
   * has is not probed for. Unknown: a call of a group's method probes for it first.
   */
  marks?: Set<string> | undefined;
  /**
   * The ref the handle was resolved from, and what the agent was shown (role, name, context):
   * an armed hit test and the press guard check the element is still that (`hitTest`'s
   * `shown`). Absent for selectors and refs without a recorded context. `elsewhere(context)`:
   * another ref of the same role and name was shown in that context (the registry's
   * `shownElsewhere`): an element now there was re-used for another item.
   */
  shown?:
    | (ShownAs & { ref: string; elsewhere?: (context: [string, string]) => boolean })
    | undefined;
}

/**
 * What a handle's element was shown as, in the form page calls take it (`refChanged`,
 * `prepareFill`, `hitTest`): role, name, context and the look-alike rows (`others`); null
 * for a handle without a recorded context (a selector's).
 */
export function shownForPage(handle: RemoteHandle): ShownAs | null {
  const s = handle.shown;
  if (!s) return null;
  return {
    role: s.role,
    name: s.name,
    context: s.context,
    ...(s.others ? { others: s.others } : {}),
    ...(s.names ? { names: s.names } : {}),
  };
}

/** The same handle, its page calls bound to `signal` (the call's); the handle itself when none. */
export function withSignal(handle: RemoteHandle, signal: AbortSignal | undefined): RemoteHandle {
  return signal ? { ...handle, signal } : handle;
}

/**
 * Calls `__browxai[method](...args)` (a method answering an element) and
 * returns the result as a remote object, or undefined when it returned
 * null/undefined. CDP: `Runtime.evaluate`.
 */
export async function callUtilityHandle<K extends HandleResultMethod>(
  page: Page,
  frameId: string,
  method: K,
  ...rest: UtilityArgs<PageArgs<K>>
): Promise<RemoteHandle | undefined> {
  const [args = [], options = {}]: [unknown[]?, CallOptions?] = rest;
  const { session, result, marks } = await evaluateInWorld(page, frameId, method, args, false, {
    timeoutMs: options.timeoutMs ?? 30_000,
    signal: options.signal,
  });
  if (!result.objectId) return undefined;
  return { session, frameId, objectId: result.objectId, marks };
}

/**
 * Calls `__browxai[method](element, ...args)` on a handle (the element is
 * the method's first parameter); returns JSON, typed by {@link PageApi}.
 * CDP: `Runtime.callFunctionOn`.
 *
 * @throws EvaluationError when the page-side code throws; AbortError (cdp/errors.ts) when
 *   the handle's `signal` aborts.
 */
export async function callOnHandle<K extends OnElementMethod & ValueMethod>(
  handle: RemoteHandle,
  method: K,
  ...rest: ArgList<ArgsAfter<K, 1>>
): Promise<PageResult<K>> {
  const [args = []]: [unknown[]?] = rest;
  const r = await onElement(handle, method, args, true);
  return r.result.value as PageResult<K>;
}

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
  const r = await onElement(handle, method, args, false);
  if (!r.result.objectId) return undefined;
  return {
    session: handle.session,
    frameId: handle.frameId,
    objectId: r.result.objectId,
    marks: handle.marks,
  };
}

/**
 * Calls `__browxai[method](element, ...args)` on a handle. A method of an on-demand group
 * goes with the group when the handle's world is known to lack it (once per world), alone
 * when it is known to have it, else with a probe for it (answering {@link MISSING}: called
 * again with the group). The function's text is one per group (compiled once per renderer).
 * CDP: `Runtime.callFunctionOn`.
 *
 * @throws EvaluationError when the page-side code throws; AbortError on the handle's signal.
 */
async function onElement(
  handle: RemoteHandle,
  method: string,
  args: unknown[],
  returnByValue: boolean,
) {
  const lazy = lazyOf(method);
  const call = (how: "call" | "probe" | "install") =>
    handle.session.send("Runtime.callFunctionOn", {
      functionDeclaration: callOnElement(
        how === "call" ? undefined : lazy,
        how === "probe",
        handle.marks,
      ),
      objectId: handle.objectId,
      arguments: [{ value: method }, ...args.map((value) => ({ value }))],
      returnByValue,
      awaitPromise: true,
    }, { signal: handle.signal });
  let r;
  if (!lazy || hasGroup(handle.marks, lazy)) r = await call("call");
  else if (handle.marks) r = await call("install");
  else {
    r = await call("probe");
    if (!r.exceptionDetails && r.result.value === MISSING) r = await call("install");
  }
  if (r.exceptionDetails) throw new EvaluationError(exceptionText(r.exceptionDetails));
  if (lazy) markGroup(handle.marks, lazy);
  return r;
}

/** The page side of {@link nextFrame}: self-contained (its source is sent). */
function awaitNextFrame(): Promise<boolean> {
  return new Promise<boolean>((r) => {
    requestAnimationFrame(() => r(true));
    setTimeout(() => r(false), 100);
  });
}

/**
 * Resolves after the frame's next animation frame: true, or false after 100 ms when frames
 * are paused (a hidden tab). Needs no library in the world, so a document that is not read
 * (a navigation with `snapshot: "none"`) does not pay for sending it.
 * CDP: `Runtime.callFunctionOn` in the frame's utility world.
 *
 * @throws EvaluationError / ProtocolError when the frame cannot run it; AbortError on `signal`.
 */
export function nextFrame(
  page: Page,
  frameId: string,
  options: CallOptions = {},
): Promise<boolean> {
  return page.call<boolean>(awaitNextFrame, [], {
    frameId,
    timeoutMs: options.timeoutMs ?? 30_000,
    signal: options.signal,
  });
}

/** Releases a remote object. Best effort. CDP: `Runtime.releaseObject`. */
export function releaseHandle(handle: RemoteHandle): void {
  handle.session.send("Runtime.releaseObject", { objectId: handle.objectId }).catch(() => {});
}
