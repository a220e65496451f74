/**
 * What `fill` says when the field did not keep the value it was given: the browser cut it at
 * the field's `maxlength` (a warning: the rest is there), or refused it (a number field drops
 * letters, a date field a value not in its format: a failure, saying what the field accepts).
 * The page's own rewriting (a phone field formatting digits) is the page's: the result's
 * `element.value` shows it, nothing more is said.
 *
 * @module
 */
import type { FieldKept } from "../injected/page_types.ts";
import { ToolError } from "../tool_error.ts";

/** What each input type whose value the browser checks accepts, as the failure says it. */
const ACCEPTS: Record<string, string> = {
  number: "a number such as 42 or -1.5",
  date: "YYYY-MM-DD, e.g. 2026-12-31",
  time: "HH:MM or HH:MM:SS (24-hour), e.g. 14:30",
  "datetime-local": "YYYY-MM-DDTHH:MM, e.g. 2026-12-31T14:30",
  month: "YYYY-MM, e.g. 2026-12",
  week: "YYYY-Www, e.g. 2026-W49",
  color: "#rrggbb, e.g. #ff8800",
};

/** What a field of `kept.type` accepts, from its type and its `min`/`max`. */
function accepts(kept: FieldKept): string {
  if (kept.type === "range") {
    return `a number from ${kept.min || "0"} to ${kept.max || "100"}`;
  }
  const base = ACCEPTS[kept.type] ?? "another value";
  const bounds = kept.min && kept.max
    ? ` from ${kept.min} to ${kept.max}`
    : kept.min
    ? ` from ${kept.min}`
    : kept.max
    ? ` up to ${kept.max}`
    : "";
  return base + bounds;
}

/**
 * The `invalid-argument` failure of a value the field refused: names the field's type, the
 * value given (never a secret field's), what the field holds now and what it accepts.
 */
export function rejectedValue(value: string, kept: FieldKept): ToolError {
  const given = kept.value === undefined ? "the value" : JSON.stringify(value);
  const now = kept.value === undefined
    ? ""
    : kept.value
    ? ` (it holds ${JSON.stringify(kept.value)})`
    : " (it is empty)";
  return new ToolError(
    "invalid-argument",
    `Cannot fill: the ${kept.type} field rejected ${given}${now}: it accepts ${accepts(kept)}`,
    "pass a value in the format the field accepts",
    { fieldType: kept.type },
  );
}

/**
 * After typing `value` into a text field: the failure when the browser refused it (a number
 * field kept other characters than given), the warning when its `maxlength` cut it, else
 * nothing.
 */
export function keptOutcome(
  value: string,
  kept: FieldKept | null,
): { error: ToolError } | { warning: string } | undefined {
  if (!kept) return undefined;
  if (kept.type === "number" && kept.value !== undefined && kept.value !== value) {
    return { error: rejectedValue(value, kept) };
  }
  if (kept.maxLength >= 0 && value.length > kept.maxLength && kept.length < value.length) {
    return {
      warning:
        `the field kept ${kept.length} of ${value.length} characters (maxlength ${kept.maxLength})`,
    };
  }
  return undefined;
}
