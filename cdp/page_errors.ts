/**
 * Errors of page-level operations (evaluation, navigation) and the text of
 * a thrown exception.
 *
 * @module
 */
import type { Protocol } from "./types.ts";

/** The page's script threw; `message` is the exception text. */
export class EvaluationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EvaluationError";
  }
}

/** Chromium failed a navigation (`net::ERR_NAME_NOT_RESOLVED`, …). */
export class NavigationError extends Error {
  readonly errorText: string;
  constructor(url: string, errorText: string) {
    super(`Cannot navigate to "${url}": ${errorText}`);
    this.name = "NavigationError";
    this.errorText = errorText;
  }
}

/** The human-readable text of a thrown exception. */
export function exceptionText(d: Protocol.Runtime.ExceptionDetails): string {
  const desc = d.exception?.description ?? d.exception?.value;
  if (desc !== undefined) return String(desc).split("\n    at ")[0]!;
  return d.text;
}
