/**
 * The error of an action whose input the page had not finished handling when timeoutMs ran
 * out (`run_action.ts`): what held the page — a page script (stopped, when a stop was sent), or
 * what the action itself sent (a fill's huge value) — and the way out.
 *
 * @module
 */
import { ToolError } from "../tool_error.ts";

/** What {@link performTimeout} says. */
export interface PerformTimeoutFacts {
  /** The action (`fill`, `click`, …). */
  type: string;
  /** The action's own timeout (type: the characters typed): its message leads. */
  own?: ToolError | undefined;
  /** A stop was sent to the script that held the page (`stopBusyScript`). */
  stopped: boolean;
  /** What the action sent that may by itself hold the page (`ActionSpec.heavyInput`). */
  heavyInput?: string | undefined;
}

/** The `timeout` error of an action the page had not finished handling. */
export function performTimeout(facts: PerformTimeoutFacts): ToolError {
  const { type, own, stopped, heavyInput } = facts;
  const cause = heavyInput
    ? `${heavyInput}, more than the page could take in within the time (the browser was still ` +
      "laying it out and running the page's input handlers); the page may be left half-updated"
    : `a script was still running (the ${type} may have started it)${
      stopped
        ? " and a stop was sent to it (one that loops through dialogs may run on for seconds); the page may be left half-updated"
        : ""
    }`;
  return new ToolError(
    "timeout",
    `${
      own ? `${own.message}: ` : ""
    }the page did not finish handling the ${type} within timeoutMs: ${cause}`,
    heavyInput
      ? "send a smaller value (or upload_file for a file's content); reload if the page looks wrong"
      : "navigate elsewhere or reload if the page looks wrong, or call again with a larger timeoutMs",
    own?.details,
  );
}
