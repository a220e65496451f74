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
import { installSnapshotLib } from "./snapshot_lib.ts";

const PARTS: Array<(api: Record<string, unknown>) => void> = [installSnapshotLib, installActionLib];

/** The install expression: evaluates to the api object, installing it once per world. */
export const INSTALL_SOURCE = `globalThis.__browxai || (() => {
  const api = {};
  ${PARTS.map((p) => `(${p.toString()})(api);`).join("\n")}
  Object.defineProperty(globalThis, "__browxai", { value: api, enumerable: false });
  return api;
})()`;

const installed = new WeakMap<CdpSession, Set<number>>();

async function contextFor(
  page: Page,
  frameId: string,
): Promise<{ session: CdpSession; contextId: number }> {
  const ctx = await page.utilityContext(frameId);
  let set = installed.get(ctx.session);
  if (!set) installed.set(ctx.session, set = new Set());
  if (!set.has(ctx.contextId)) {
    const r = await ctx.session.send("Runtime.evaluate", {
      expression: INSTALL_SOURCE + ", true",
      contextId: ctx.contextId,
      returnByValue: true,
    });
    if (r.exceptionDetails) throw new EvaluationError(exceptionText(r.exceptionDetails));
    set.add(ctx.contextId);
  }
  return ctx;
}

/**
 * Calls `__browxai[method](...args)` in the utility world of a frame and
 * returns the JSON result. CDP: `Runtime.evaluate`.
 *
 * @throws EvaluationError when the page-side code throws.
 */
export async function callUtility<T>(
  page: Page,
  frameId: string,
  method: string,
  args: unknown[] = [],
  options: { timeoutMs?: number } = {},
): Promise<T> {
  const { session, contextId } = await contextFor(page, frameId);
  const r = await session.send("Runtime.evaluate", {
    expression: `globalThis.__browxai.${method}(...${JSON.stringify(args)})`,
    contextId,
    returnByValue: true,
    awaitPromise: true,
  }, { timeoutMs: options.timeoutMs ?? 30_000 });
  if (r.exceptionDetails) throw new EvaluationError(exceptionText(r.exceptionDetails));
  return r.result.value as T;
}

/** A remote object living in a frame's utility world. */
export interface RemoteHandle {
  session: CdpSession;
  frameId: string;
  objectId: string;
}

/**
 * Calls `__browxai[method](...args)` and returns the result as a remote
 * object (for elements), or undefined when it returned null/undefined.
 */
export async function callUtilityHandle(
  page: Page,
  frameId: string,
  method: string,
  args: unknown[] = [],
): Promise<RemoteHandle | undefined> {
  const { session, contextId } = await contextFor(page, frameId);
  const r = await session.send("Runtime.evaluate", {
    expression: `globalThis.__browxai.${method}(...${JSON.stringify(args)})`,
    contextId,
    returnByValue: false,
    awaitPromise: true,
  });
  if (r.exceptionDetails) throw new EvaluationError(exceptionText(r.exceptionDetails));
  if (!r.result.objectId) return undefined;
  return { session, frameId, objectId: r.result.objectId };
}

/**
 * Calls `__browxai[method](element, ...args)` on a handle; returns JSON.
 * CDP: `Runtime.callFunctionOn`.
 */
export async function callOnHandle<T>(
  handle: RemoteHandle,
  method: string,
  args: unknown[] = [],
): Promise<T> {
  const r = await handle.session.send("Runtime.callFunctionOn", {
    functionDeclaration: `function(...a) { return globalThis.__browxai.${method}(this, ...a); }`,
    objectId: handle.objectId,
    arguments: args.map((value) => ({ value })),
    returnByValue: true,
    awaitPromise: true,
  });
  if (r.exceptionDetails) throw new EvaluationError(exceptionText(r.exceptionDetails));
  return r.result.value as T;
}

/** Releases a remote object. Best effort. CDP: `Runtime.releaseObject`. */
export function releaseHandle(handle: RemoteHandle): void {
  handle.session.send("Runtime.releaseObject", { objectId: handle.objectId }).catch(() => {});
}
