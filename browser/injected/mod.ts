/**
 * The page-side library browxai installs in its isolated world of every
 * frame (`globalThis.__browxai`), and the Deno-side helpers to call it.
 *
 * Each part is a self-contained function `(api) => void` that adds methods
 * to the api object; its source text is what gets sent, so it must not use
 * anything from its module scope (Deno strips the types; the body is plain JS).
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import { EvaluationError, exceptionText, type Page } from "../../cdp/page.ts";
import { installActionLib } from "./action_lib.ts";
import type {
  ArgList,
  ArgsAfter,
  HandleResultMethod,
  OnElementMethod,
  PageApi,
  PageArgs,
  PageResult,
  ValueMethod,
} from "./page_api.ts";
import { installHitLib } from "./hit_lib.ts";
import { installCoverLib } from "./cover_lib.ts";
import { installFormEditLib } from "./form_edit_lib.ts";
import { installFormLib } from "./form_lib.ts";
import { installFormPublishLib } from "./form_publish_lib.ts";
import { installFindWordsLib } from "./find_words_lib.ts";
import { installFindPlaceLib } from "./find_place_lib.ts";
import { installFindLib } from "./find_lib.ts";
import { installFindHintLib } from "./find_hint_lib.ts";
import { installMutationLib } from "./mutation_lib.ts";
import { installSanitizeLib } from "./sanitize_lib.ts";
import { installSecretLib } from "./secret_lib.ts";
import { installSnapshotLib } from "./snapshot_lib.ts";
import { installReadLib } from "./read_lib.ts";
import { installControlLib } from "./control_lib.ts";
import { installInspectLib } from "./inspect_lib.ts";

const PARTS: Array<(api: PageApi) => void> = [
  installMutationLib,
  installSnapshotLib,
  installActionLib,
  installHitLib,
  installSecretLib,
  installCoverLib,
  installReadLib,
];

/**
 * Parts only the form tools use (about half the library's bytes): installed
 * on their first call in a world, so every other document does not pay for
 * them (sent per document, they slowed every first snapshot).
 */
const FORM_PARTS: Array<(api: PageApi) => void> = [
  installFormLib,
  installFormPublishLib,
  installSanitizeLib,
  installFormEditLib,
];

/** Parts only `find` (and `plan`, `find_feedback`) use: installed on their first call, as the form parts. */
const FIND_PARTS: Array<(api: PageApi) => void> = [
  installFindWordsLib,
  installFindPlaceLib,
  installFindLib,
  installFindHintLib,
];

/**
 * Parts only the inspecting and control tools use (choose_option, dom_read, styles_read,
 * styles_write): installed on their first call in a world, as the form parts.
 */
const INSPECT_PARTS: Array<(api: PageApi) => void> = [installControlLib, installInspectLib];

/** A group of parts installed on the first call of one of its methods in a world. */
interface LazyParts {
  /** The api's flag (a hidden member) once the group is installed. */
  flag: string;
  /** Whether a method belongs to the group (by its name). */
  has(method: string): boolean;
  /** The expression that adds the group's parts to an installed api, once. */
  source: string;
}

/** The source adding `parts` to an installed api once, marking it with `flag`. */
function lazySource(flag: string, parts: Array<(api: PageApi) => void>): string {
  return `(() => {
  const api = globalThis.__browxai;
  if (api.${flag}) return api;
  ${parts.map((p) => `(${p.toString()})(api);`).join("\n")}
  Object.defineProperty(api, "${flag}", { value: true, enumerable: false });
  return api;
})()`;
}

/** The groups of parts installed on demand, by the names of their methods. */
const LAZY: readonly LazyParts[] = [
  {
    flag: "__forms",
    has: (m) => m.startsWith("form") || m === "sanitizeHtml",
    source: lazySource("__forms", FORM_PARTS),
  },
  {
    flag: "__inspect",
    has: (m) => m.startsWith("control") || m.startsWith("inspect"),
    source: lazySource("__inspect", INSPECT_PARTS),
  },
  {
    flag: "__find",
    has: (m) => m.startsWith("find"),
    source: lazySource("__find", FIND_PARTS),
  },
];

/** The on-demand group a method belongs to, if any. */
function lazyOf(method: string): LazyParts | undefined {
  return LAZY.find((g) => g.has(method));
}

/**
 * Statements to put before a direct call of `__browxai[method]` on a handle
 * (`Runtime.callFunctionOn`): a method of an on-demand group (forms, inspect) in a world that
 * has only the core parts adds them first; other methods need nothing.
 */
export function preludeFor(method: string): string {
  const g = lazyOf(method);
  return g ? `if (!globalThis.__browxai.${g.flag}) ${g.source};` : "";
}

/** The install expression: evaluates to the api object, installing it once per world. */
export const INSTALL_SOURCE = `globalThis.__browxai || (() => {
  const api = {};
  ${PARTS.map((p) => `(${p.toString()})(api);`).join("\n")}
  Object.defineProperty(globalThis, "__browxai", { value: api, enumerable: false });
  return api;
})()`;

/** What a call answers when the world has no library yet (a new document or context). */
const MISSING = "__browxai_missing__";

/** What a call of an on-demand group's method answers when the world has the core only. */
const MISSING_GROUP = "__browxai_missing_group__";

/** The mark (`UtilityWorld.marks`) of a world the library was sent to. */
const CORE_MARK = "browxai:core";

/**
 * The function (a `Runtime.callFunctionOn` declaration, `(method, args)`) that installs the
 * library (`core`: the core parts and `lazy`'s group; else `lazy`'s group only) and then
 * calls `__browxai[method](...args)`; `method` null calls nothing and answers true.
 *
 * Its text is the same for every call of a group, the call's arguments going beside it:
 * V8 keeps compiled scripts per renderer by their text, so the next document of the same
 * process (a navigation on the same site) reuses this one's compiled library, its install
 * and its first walk (measured: about half the renderer time of a first read; a text that
 * held the call's arguments was compiled anew every time).
 */
function installAndCall(core: boolean, lazy: LazyParts | undefined): string {
  const key = `${core}:${lazy?.flag ?? ""}`;
  let text = INSTALL_AND_CALL.get(key);
  if (text === undefined) {
    const install = [core ? INSTALL_SOURCE : "", lazy ? lazy.source : ""].filter(Boolean);
    text = `function(method, args) {
  ${install.join(";\n")};
  return method === null ? true : globalThis.__browxai[method](...args);
}`;
    INSTALL_AND_CALL.set(key, text);
  }
  return text;
}
const INSTALL_AND_CALL = new Map<string, string>();

/**
 * Evaluates `__browxai[method](...args)` in a frame's utility world. The
 * library is installed on demand: in a world this tab just created (nothing ran in it) the
 * library goes with the first call, in one command; elsewhere a call into a world without it
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
      functionDeclaration: installAndCall(core, lazy),
      executionContextId: contextId,
      arguments: [{ value: method }, { value: args }],
      returnByValue,
      awaitPromise: true,
    }, { timeoutMs, signal });
  // A world made here holds nothing yet: skip the probe, send the library with the call.
  const fresh = world?.createdHere === true && !marks?.has(CORE_MARK);
  let r;
  if (fresh) r = await installing(true);
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
    if (!r.exceptionDetails && r.result.value === MISSING) r = await installing(true);
    else if (!r.exceptionDetails && lazy && r.result.value === MISSING_GROUP) {
      r = await installing(false);
    }
  }
  marks?.add(CORE_MARK);
  if (r.exceptionDetails) throw new EvaluationError(exceptionText(r.exceptionDetails));
  return { session, result: r.result };
}

/**
 * Starts installing the core library in a frame's utility world ahead of its first call, and
 * returns at once: a navigation that shows no snapshot starts it as it answers, so the agent's
 * first read of the page finds the library there (sent per document, it was most of a first
 * snapshot's time). A world that has it, or is getting it, is left alone; a failure is
 * ignored (the first call then finds it missing and installs it). The text sent is the one a
 * first call sends ({@link installAndCall}): compiled once per renderer.
 * CDP: `Page.createIsolatedWorld` (a new world), `Runtime.callFunctionOn`.
 */
export function preinstallLibrary(page: Page, frameId: string = page.mainFrameId): void {
  (async () => {
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
  const { session, result } = await evaluateInWorld(page, frameId, method, args, false, {
    timeoutMs: options.timeoutMs ?? 30_000,
    signal: options.signal,
  });
  if (!result.objectId) return undefined;
  return { session, frameId, objectId: result.objectId };
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
  const call = (body: string) =>
    handle.session.send("Runtime.callFunctionOn", {
      functionDeclaration:
        `function(...a) { ${body} return globalThis.__browxai.${method}(this, ...a); }`,
      objectId: handle.objectId,
      arguments: args.map((value) => ({ value })),
      returnByValue: true,
      awaitPromise: true,
    }, { signal: handle.signal });
  // On-demand parts are sent only to a world that lacks them (tens of KB a call otherwise).
  const lazy = lazyOf(method);
  let r = await call(
    lazy ? `if (!globalThis.__browxai.${lazy.flag}) return ${JSON.stringify(MISSING)};` : "",
  );
  if (!r.exceptionDetails && r.result.value === MISSING) r = await call(preludeFor(method));
  if (r.exceptionDetails) throw new EvaluationError(exceptionText(r.exceptionDetails));
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
