/**
 * The failure of an action on an inert element, worded once for the probe (`fill`, `press`)
 * and the hit test (`click`, `hover`) of `actionability.ts`.
 *
 * @module
 */
import { ToolError } from "../tool_error.ts";

/**
 * The `not-actionable` failure of an inert element (`why` from the page's `inertOf`: behind
 * an open modal dialog, inside an inert container): it takes no click, focus or typing.
 */
export function inertError(why: string): ToolError {
  const modal = why.startsWith("behind the open modal dialog");
  return new ToolError(
    "not-actionable",
    `The element is inert (${why}): it takes no clicks, focus or typing, so nothing was done`,
    modal
      ? "close the dialog first (its own controls stay actionable), then retry"
      : "do what the page waits for before it enables that part (take a new snapshot: " +
        "inert controls show [inert] and no ref)",
    { inert: why },
  );
}
