/**
 * Progress of a wait: the time waited so far of the time it may take, reported while it waits.
 *
 * @module
 */
import type { Progress } from "./call_context.ts";

/** How often a wait reports its elapsed time, ms. */
export const ELAPSED_PROGRESS_MS = 500;

/**
 * Reports `elapsed ms` of `timeoutMs` with `message` (what is waited on) through `progress`,
 * at once and every {@link ELAPSED_PROGRESS_MS} until disposed (`using`). A no-op without a
 * `progress` function.
 */
export function elapsedProgress(
  progress: Progress | undefined,
  timeoutMs: number,
  message: string,
): Disposable {
  if (!progress) return { [Symbol.dispose]() {} };
  const started = Date.now();
  const tell = () => progress(Math.min(Date.now() - started, timeoutMs), timeoutMs, message);
  tell();
  const timer = setInterval(tell, ELAPSED_PROGRESS_MS);
  return { [Symbol.dispose]: () => clearInterval(timer) };
}
