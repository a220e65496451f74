/**
 * Evaluation in a tab's frames (`Page.evaluate`, `Page.call` in `page.ts`):
 * an expression or a self-contained function with JSON arguments, in
 * browxai's isolated world of a frame or (for an expression) the page's own
 * world; the value comes back as JSON, a thrown exception as an
 * {@link EvaluationError}.
 *
 * CDP: `Runtime.evaluate`, `Runtime.callFunctionOn`.
 *
 * @module
 */
import type { CdpSession } from "./connection.ts";
import { EvaluationError, exceptionText } from "./page_errors.ts";

/** What evaluation needs of a tab (a `Page`): its session, its frames and their worlds. */
export interface EvalTab {
  readonly session: CdpSession;
  readonly mainFrameId: string;
  frame(frameId: string): { session: CdpSession } | undefined;
  mainContext(frameId: string): number | undefined;
  utilityContext(frameId: string): Promise<{ session: CdpSession; contextId: number }>;
}

/** Options of {@link evaluateIn} (`Page.evaluate`). */
export interface EvaluateOptions {
  frameId?: string;
  world?: "utility" | "main";
  timeoutMs?: number;
  userGesture?: boolean;
  signal?: AbortSignal | undefined;
}

/** `Page.evaluate` of `page`; see there. */
export async function evaluateIn(
  page: EvalTab,
  expression: string,
  options: EvaluateOptions = {},
): Promise<unknown> {
  const frameId = options.frameId ?? page.mainFrameId;
  const frame = page.frame(frameId);
  const session = frame?.session ?? page.session;
  let contextId: number | undefined;
  if (options.world === "main") contextId = page.mainContext(frameId);
  else contextId = (await page.utilityContext(frameId)).contextId;
  const r = await session.send("Runtime.evaluate", {
    expression,
    ...(contextId !== undefined ? { contextId } : {}),
    returnByValue: true,
    awaitPromise: true,
    userGesture: options.userGesture ?? false,
    ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
  }, { timeoutMs: (options.timeoutMs ?? 30_000) + 1000, signal: options.signal });
  if (r.exceptionDetails) throw new EvaluationError(exceptionText(r.exceptionDetails));
  return r.result.value;
}

/** `Page.call` of `page`; see there. */
export async function callIn<T>(
  page: EvalTab,
  call: { fn: (...args: never[]) => unknown; args: unknown[] },
  options: { frameId?: string; timeoutMs?: number; signal?: AbortSignal | undefined } = {},
): Promise<T> {
  const { fn, args } = call;
  const frameId = options.frameId ?? page.mainFrameId;
  const { session, contextId } = await page.utilityContext(frameId);
  const r = await session.send("Runtime.callFunctionOn", {
    functionDeclaration: fn.toString(),
    executionContextId: contextId,
    arguments: args.map((value) => ({ value })),
    returnByValue: true,
    awaitPromise: true,
  }, { timeoutMs: options.timeoutMs ?? 30_000, signal: options.signal });
  if (r.exceptionDetails) throw new EvaluationError(exceptionText(r.exceptionDetails));
  return r.result.value as T;
}

/**
 * Like {@link evaluateIn}, but when the expression's value is a function (`() => document.title`,
 * the form other browser tools take), calls it with no arguments in the same world and returns
 * its value instead, the promise awaited; `called` says which happened. `timeoutMs` (ms) covers
 * both steps; Chromium itself stops only the first (the call has no script timeout in CDP).
 *
 * CDP: `Runtime.evaluate` (by reference), `Runtime.callFunctionOn` (by value),
 * `Runtime.releaseObject`.
 *
 * @throws EvaluationError with the exception text when the script or the function throws.
 */
export async function evaluateOrCallIn(
  page: EvalTab,
  expression: string,
  options: EvaluateOptions = {},
): Promise<{ value: unknown; called: boolean }> {
  const frameId = options.frameId ?? page.mainFrameId;
  const session = page.frame(frameId)?.session ?? page.session;
  const contextId = options.world === "main"
    ? page.mainContext(frameId)
    : (await page.utilityContext(frameId)).contextId;
  const budget = options.timeoutMs ?? 30_000;
  const deadline = Date.now() + budget;
  const r = await session.send("Runtime.evaluate", {
    expression,
    ...(contextId !== undefined ? { contextId } : {}),
    // By reference: a function does not survive serialisation (it would come back as nothing).
    returnByValue: false,
    awaitPromise: true,
    userGesture: options.userGesture ?? false,
    timeout: budget,
  }, { timeoutMs: budget + 1000, signal: options.signal });
  if (r.exceptionDetails) throw new EvaluationError(exceptionText(r.exceptionDetails));
  const { objectId } = r.result;
  // Primitives carry their value already; objects are read back by value (as evaluateIn would).
  if (!objectId) return { value: r.result.value, called: false };
  const called = r.result.type === "function";
  try {
    const c = await session.send("Runtime.callFunctionOn", {
      functionDeclaration: called
        ? 'function () { "use strict"; return this(); }'
        : 'function () { "use strict"; return this; }',
      objectId,
      returnByValue: true,
      awaitPromise: true,
      userGesture: options.userGesture ?? false,
    }, { timeoutMs: Math.max(1, deadline - Date.now()) + 1000, signal: options.signal });
    if (c.exceptionDetails) throw new EvaluationError(exceptionText(c.exceptionDetails));
    return { value: c.result.value, called };
  } finally {
    session.send("Runtime.releaseObject", { objectId }).catch(() => {});
  }
}
