/**
 * What `fill` says when the field did not keep the value it was given: the browser cut it at
 * the field's `maxlength` (a warning: the rest is there), or refused it (a number field drops
 * letters, a date field a value not in its format: a failure, saying what the field accepts).
 * Once the page settled, what the field holds is read by the result's element probe (no
 * round trip of its own) and judged ({@link valueOutcome}, {@link selectOutcome}): a page that
 * emptied the field or put back what it held fails the action; one that rewrote the value (a
 * phone field formatting digits) gets a warning saying what the field holds.
 *
 * @module
 */
import type { ElementInfo, FieldKept } from "../injected/page_types.ts";
import type { ElementCheck, ElementProbe } from "./action_result.ts";
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

/**
 * A page-side "the field rejected the value (a date field)" with what that type accepts added
 * (`; it accepts YYYY-MM-DD, e.g. 2026-12-31`), as `fill` says it; other messages as they are.
 */
export function withAcceptedFormat(message: string): string {
  const type = /the field rejected the value \(a ([\w-]+) field\)/.exec(message)?.[1];
  const format = type && ACCEPTS[type];
  return format ? `${message}; it accepts ${format}` : message;
}

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

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/**
 * Why a value in the right format for a date, month, time or datetime-local field is still
 * refused: the day, month or time does not exist (`2026-02-30`: "February 2026 has 28 days").
 * Undefined when the format is wrong, or nothing is amiss that this can tell.
 */
export function impossibleValue(type: string, value: string): string | undefined {
  const clock = (h: string, m: string) =>
    Number(h) > 23 ? `there is no hour ${h}` : Number(m) > 59 ? `there is no minute ${m}` : "";
  const day = (y: string, mo: string, d: string) => {
    const m = Number(mo);
    if (m < 1 || m > 12) return `there is no month ${mo}`;
    const days = new Date(Date.UTC(Number(y), m, 0)).getUTCDate();
    return Number(d) < 1 || Number(d) > days ? `${MONTHS[m - 1]} ${y} has ${days} days` : "";
  };
  let m: RegExpExecArray | null;
  let why = "";
  if (type === "date" && (m = /^(\d{4,})-(\d\d)-(\d\d)$/.exec(value))) {
    why = day(m[1]!, m[2]!, m[3]!);
  } else if (type === "month" && (m = /^(\d{4,})-(\d\d)$/.exec(value))) {
    why = day(m[1]!, m[2]!, "01");
  } else if (type === "time" && (m = /^(\d\d):(\d\d)(:\d\d(\.\d+)?)?$/.exec(value))) {
    why = clock(m[1]!, m[2]!);
  } else if (
    type === "datetime-local" &&
    (m = /^(\d{4,})-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(:\d\d(\.\d+)?)?$/.exec(value))
  ) why = day(m[1]!, m[2]!, m[3]!) || clock(m[4]!, m[5]!);
  return why || undefined;
}

/**
 * The `invalid-argument` failure of a value the field refused: names the field's type, the
 * value given (never a secret field's), what the field holds now and what it accepts; with
 * `restored`, that the field was left as it was (what it held before was put back).
 */
export function rejectedValue(value: string, kept: FieldKept, restored = false): ToolError {
  const given = kept.value === undefined ? "the value" : JSON.stringify(value);
  const holds = kept.value === undefined
    ? ""
    : kept.value
    ? `it holds ${JSON.stringify(kept.value)}`
    : "it is empty";
  const now = holds ? ` (${holds})` : "";
  // The right format for a day that does not exist: said so, not blamed on the format (never
  // for a secret field's value, which is not quoted either).
  const impossible = kept.value === undefined ? undefined : impossibleValue(kept.type, value);
  const why = impossible ? `its format is right, but ${impossible}` : `it accepts ${accepts(kept)}`;
  return new ToolError(
    "invalid-argument",
    restored
      ? `Cannot fill: the ${kept.type} field rejected ${given}: ${why}. ` +
        `The field was left as it was${holds ? `: ${holds}` : ""}`
      : `Cannot fill: the ${kept.type} field rejected ${given}${now}: ${why}`,
    impossible ? `pass a ${kept.type} that exists` : "pass a value in the format the field accepts",
    { fieldType: kept.type, ...(restored ? { restored: true } : {}) },
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

/** A value as a message quotes it: JSON, cut to 80 characters. */
function quoted(value: string): string {
  return JSON.stringify(value.length > 80 ? value.slice(0, 80) + "…" : value);
}

/** Whitespace runs as one space, ends trimmed: an editable's `innerText` against the text. */
function spaced(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The element probe's cut of an editable's text, characters (`element_facts_lib.ts`). */
const EDITABLE_TEXT_CUT = 200;

/** What a fill gave and what the field held before it (`prepareFill`). */
export interface FillAsked {
  /** The value the field should hold now (the value given, or what its maxlength kept). */
  value: string;
  /** What the field held before, when short and not secret. */
  was?: string | undefined;
  /** A secret field: the probe shows `••••` for any value; values are not quoted. */
  secret?: boolean | undefined;
  /** A contenteditable: the probe reads its `innerText` (whitespace as laid out, cut). */
  editable?: boolean | undefined;
}

/** Whether the field's `now` is the value asked (an editable's text as laid out, cut). */
function holdsAsked(asked: FillAsked, now: string): boolean {
  if (now === asked.value) return true;
  if (!asked.editable) return now === asked.value.replace(/\r\n?/g, "\n");
  const want = spaced(asked.value);
  const have = spaced(now);
  return have === want || (now.length >= EDITABLE_TEXT_CUT && want.startsWith(have));
}

const REFUSED_HINT = "snapshot to read the field's label and hints for the value it takes, " +
  "then fill that; if the page takes only real keys, click the field and use type";

/**
 * What a fill left in the field once the page's handlers ran (`element` from the result's
 * probe): the failure when the page emptied the field or put back what it held before (an
 * `input` handler clearing it, a `beforeinput` handler preventing the edit), a warning when
 * the field holds another value (the page or a one-line field rewrote it), else nothing.
 * Nothing is judged of an element gone or not read, or of a secret field that is not empty.
 */
export function valueOutcome(
  asked: FillAsked,
  element: ElementProbe | undefined,
): ElementCheck | undefined {
  const now = element?.value;
  if (typeof now !== "string" || element?.stillAttached === false) return undefined;
  if (holdsAsked(asked, now) || (asked.secret && now !== "")) return undefined;
  const given = asked.secret ? "the value" : quoted(asked.value);
  if ((asked.editable ? spaced(now) : now) === "") {
    return {
      error: new ToolError(
        "invalid-argument",
        `Cannot fill: the field is empty after ${given} went in: a page script emptied it (an input handler refusing the value)`,
        REFUSED_HINT,
      ),
    };
  }
  if (asked.was !== undefined && holdsAsked({ ...asked, value: asked.was }, now)) {
    return {
      error: new ToolError(
        "invalid-argument",
        `Cannot fill: the field holds what it held before (${
          quoted(now)
        }), not ${given}: the page undid or refused the edit (an input or beforeinput handler)`,
        REFUSED_HINT,
      ),
    };
  }
  const why = !asked.editable && /[\r\n]/.test(asked.value) &&
      now === asked.value.replace(/[\r\n]/g, "")
    ? "a one-line field drops line breaks"
    : "the page changed it (an input handler formatting or filtering the value)";
  return { warning: `the field holds ${quoted(now)}, not the ${given} filled: ${why}` };
}

/** What a select chose (`selectOption`): the option's value and label, the value before. */
export interface SelectAsked {
  value: string;
  label: string;
  was?: string | undefined;
}

/**
 * What a select left once the page's handlers ran: the failure when the select holds another
 * option than the one chosen (a `change` handler set it back), with `selected` saying the
 * option it holds; else nothing.
 */
export function selectOutcome(
  asked: SelectAsked,
  element: ElementProbe | undefined,
): ElementCheck | undefined {
  const now = element?.value;
  if (typeof now !== "string" || element?.stillAttached === false || now === asked.value) {
    return undefined;
  }
  const label = typeof element?.displayText === "string" ? element.displayText : now;
  const how = now === asked.was ? "set it back to" : "changed it to";
  return {
    error: new ToolError(
      "invalid-argument",
      `Cannot select: ${quoted(asked.label)} was chosen, then the page ${how} ${
        quoted(label)
      } (its change or input handler)`,
      "snapshot to see why the page does not take that option (another field may need a value first), or choose another",
    ),
    fields: { selected: { value: now, label } },
  };
}

/**
 * The warning of a value a field kept that its validation refuses (`element.validity`, read by
 * the probe: out of `min`/`max`, off `step`): the value is set, the form it is in is not sent
 * until it is fixed; says what the field takes. Undefined when the field holds a valid value.
 */
export function rangeOutcome(element: ElementProbe | undefined): ElementCheck | undefined {
  const v = element?.validity as ElementInfo["validity"];
  if (!v || typeof element?.value !== "string") return undefined;
  const { issue, min, max, step, near } = v;
  const bounds = min && max ? `from ${min} to ${max}` : min ? `from ${min}` : `up to ${max}`;
  const why = issue === "rangeOverflow"
    ? `above its max ${max}`
    : issue === "rangeUnderflow"
    ? `below its min ${min}`
    : `off its step ${step ?? "1"}${min ? ` (counted from ${min})` : ""}`;
  const takes = issue === "stepMismatch"
    ? near?.length ? `; the nearest values on its step: ${near.join(" and ")}` : ""
    : `; it takes values ${bounds}`;
  return {
    warning: `the field holds ${
      quoted(element.value)
    }, ${why}: the value is set, but the browser's validation (${issue}) stops its form from being sent${takes}`,
  };
}
