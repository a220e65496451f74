import { assertEquals, assertIncludes } from "../../tests/_assert.ts";
import { isUpright } from "./frame_chain.ts";
import { pressOutcome } from "./actionability.ts";

Deno.test("frame chain: only an upright rectangle maps by offset and scale", () => {
  assertEquals(isUpright([0, 0, 400, 0, 400, 300, 0, 300]), true);
  // scale(.5) from a 10,20 origin: still upright.
  assertEquals(isUpright([10, 20, 210, 20, 210, 170, 10, 170]), true);
  // rotate(3deg), rotate(180deg) (corners swapped), skewX.
  assertEquals(isUpright([0, 0, 399.5, 20.9, 383.8, 320.5, -15.7, 299.6]), false);
  assertEquals(isUpright([400, 300, 0, 300, 0, 0, 400, 0]), false);
  assertEquals(isUpright([0, 0, 400, 0, 460, 300, 60, 300]), false);
});

Deno.test("press verdicts: none stopped is fine; a stop says covered or ref-gone, and where", () => {
  assertEquals(
    pressOutcome([{ armed: true, seen: true }, { armed: true, seen: false }]),
    undefined,
  );
  assertEquals(pressOutcome([{ armed: false, seen: false }]), undefined);
  const covered = pressOutcome([
    { armed: true, seen: false },
    { armed: true, seen: true, bad: { coveredBy: 'button#overlay "Buy now"', gone: false } },
  ])!;
  assertEquals(covered.code, "covered");
  assertEquals(covered.details, { coveredBy: 'button#overlay "Buy now"' });
  assertIncludes(covered.message, "around the element's frame");
  assertIncludes(covered.message, "the press was stopped");
  const gone = pressOutcome([
    { armed: true, seen: true, bad: { coveredBy: 'button "Delete"', gone: true } },
  ])!;
  assertEquals(gone.code, "ref-gone");
  assertIncludes(gone.message, 'button "Delete" was there instead;');
});
