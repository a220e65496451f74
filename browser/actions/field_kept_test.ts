import { assertEquals, assertIncludes } from "../../tests/_assert.ts";
import { impossibleValue, selectOutcome, valueOutcome, withAcceptedFormat } from "./field_kept.ts";
import type { ElementCheck } from "./action_result.ts";

const errorText = (c: ElementCheck | undefined) =>
  c && "error" in c ? `${c.error.code}: ${c.error.message}` : "";

Deno.test("valueOutcome: the value kept, or not read: nothing", () => {
  assertEquals(valueOutcome({ value: "hi" }, { value: "hi" }), undefined);
  assertEquals(valueOutcome({ value: "hi" }, {}), undefined);
  assertEquals(valueOutcome({ value: "hi" }, { stillAttached: false }), undefined);
  assertEquals(valueOutcome({ value: "a\r\nb" }, { value: "a\nb" }), undefined);
  // An editable's text as laid out, and cut by the probe past 200 characters.
  assertEquals(valueOutcome({ value: "a  b\n", editable: true }, { value: "a b" }), undefined);
  const long = "x".repeat(300);
  assertEquals(
    valueOutcome({ value: long, editable: true }, { value: long.slice(0, 200) }),
    undefined,
  );
  // A secret field shows a mask for any value: only an empty one is known.
  assertEquals(valueOutcome({ value: "pw", secret: true }, { value: "••••" }), undefined);
});

Deno.test("valueOutcome: emptied or put back fails, rewritten warns", () => {
  const emptied = valueOutcome({ value: "hello" }, { value: "" });
  assertEquals(errorText(emptied).startsWith("invalid-argument: "), true);
  assertIncludes(errorText(emptied), 'the field is empty after "hello" went in');
  const secret = valueOutcome({ value: "hunter2", secret: true }, { value: "" });
  assertIncludes(errorText(secret), "empty after the value went in");
  const back = valueOutcome({ value: "new", was: "old", editable: true }, { value: "old\n" });
  assertIncludes(errorText(back), 'holds what it held before ("old\\n"), not "new"');
  const cleared = valueOutcome({ value: "", was: "kept" }, { value: "kept" });
  assertIncludes(errorText(cleared), 'held before ("kept"), not ""');
  assertEquals(valueOutcome({ value: "hi", was: "x" }, { value: "HI" }), {
    warning: 'the field holds "HI", not the "hi" filled: the page changed it (an input handler ' +
      "formatting or filtering the value)",
  });
  const oneLine = valueOutcome({ value: "a\nb" }, { value: "ab" });
  assertIncludes(oneLine && "warning" in oneLine ? oneLine.warning : "", "drops line breaks");
});

Deno.test("selectOutcome: the option kept, or another one held", () => {
  assertEquals(selectOutcome({ value: "l", label: "Large" }, { value: "l" }), undefined);
  assertEquals(selectOutcome({ value: "l", label: "Large" }, {}), undefined);
  const back = selectOutcome(
    { value: "l", label: "Large", was: "s" },
    { value: "s", displayText: "Small" },
  );
  assertIncludes(errorText(back), '"Large" was chosen, then the page set it back to "Small"');
  assertEquals(back && "error" in back ? back.fields : undefined, {
    selected: { value: "s", label: "Small" },
  });
  const other = selectOutcome({ value: "l", label: "Large", was: "s" }, { value: "m" });
  assertIncludes(errorText(other), 'then the page changed it to "m"');
});

Deno.test("impossibleValue: a day, month or time that does not exist, format right", () => {
  assertEquals(impossibleValue("date", "2026-02-30"), "February 2026 has 28 days");
  assertEquals(impossibleValue("date", "2028-02-29"), undefined);
  assertEquals(impossibleValue("date", "2026-13-01"), "there is no month 13");
  assertEquals(impossibleValue("date", "12/24/2026"), undefined);
  assertEquals(impossibleValue("month", "2026-00"), "there is no month 00");
  assertEquals(impossibleValue("time", "24:10"), "there is no hour 24");
  assertEquals(impossibleValue("datetime-local", "2026-04-31T10:00"), "April 2026 has 30 days");
  assertEquals(impossibleValue("text", "2026-02-30"), undefined);
});

Deno.test("field kept: a page-side refusal gets the type's format; other messages stay", () => {
  assertEquals(
    withAcceptedFormat("the field rejected the value (a time field); it was left as it was"),
    "the field rejected the value (a time field); it was left as it was; it accepts HH:MM or " +
      "HH:MM:SS (24-hour), e.g. 14:30",
  );
  assertEquals(withAcceptedFormat("no field named x"), "no field named x");
  assertEquals(
    withAcceptedFormat("the field rejected the value (a text field)"),
    "the field rejected the value (a text field)",
  );
});
