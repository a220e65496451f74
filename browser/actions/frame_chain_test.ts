import { assertEquals, assertIncludes } from "../../tests/_assert.ts";
import { isUpright } from "./frame_chain.ts";
import { pressOutcome } from "./element_steps.ts";

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
    { warnings: undefined },
  );
  assertEquals(pressOutcome([{ armed: false, seen: false }]), { warnings: undefined });
  const covered = pressOutcome([
    { armed: true, seen: false },
    { armed: true, seen: true, bad: { coveredBy: 'button#overlay "Buy now"', gone: false } },
  ]).error!;
  assertEquals(covered.code, "covered");
  assertEquals(covered.details, { coveredBy: 'button#overlay "Buy now"' });
  assertIncludes(covered.message, "around the element's frame");
  assertIncludes(covered.message, "the press was stopped before it reached the page's elements");
  const gone = pressOutcome([
    { armed: true, seen: true, bad: { coveredBy: 'button "Delete"', gone: true } },
  ]).error!;
  assertEquals(gone.code, "ref-gone");
  assertIncludes(gone.message, 'button "Delete" was there instead;');
});

const SHOWN = {
  ref: "e7",
  role: "button",
  name: "Delete",
  context: ["list item", "INV-1003"] as [string, string],
};

Deno.test("press verdicts: a row re-used before the press's first event is ref-gone, naming both items", () => {
  const now = {
    role: "button",
    name: "Delete",
    context: ["list item", "INV-1004"] as [string, string],
  };
  const { error } = pressOutcome(
    [{ armed: true, seen: true, bad: { coveredBy: 'button "Delete"', gone: false, changed: now } }],
    SHOWN,
    "click",
  );
  assertEquals(error?.code, "ref-gone");
  assertIncludes(error!.message, `("INV-1004" instead of "INV-1003")`);
  assertIncludes(error!.message, "the press was stopped before it reached the page's elements");
});

Deno.test("press verdicts: a press that went through says a changed name and a missing click", () => {
  const renamed = pressOutcome(
    [{
      armed: true,
      seen: true,
      events: ["pointerdown", "mousedown", "pointerup", "mouseup", "click"],
      name: "Delete account",
    }],
    { ...SHOWN, name: "Undo" },
    "click",
  );
  assertEquals(renamed.error, undefined);
  assertIncludes(
    renamed.warnings!.join(),
    `shown as button "Undo", read "Delete account" when pressed`,
  );
  // A text field's name follows what is typed: not worth a word.
  assertEquals(
    pressOutcome(
      [{ armed: true, seen: true, name: "Email" }],
      { ...SHOWN, role: "textbox" },
      "click",
    )
      .warnings,
    undefined,
  );
  const noClick = pressOutcome(
    [{ armed: true, seen: true, events: ["pointerdown", "mousedown"] }],
    undefined,
    "click",
  );
  assertIncludes(
    noClick.warnings!.join(),
    "got the press (pointerdown, mousedown) but no click followed",
  );
  // A right press expects contextmenu, which came.
  assertEquals(
    pressOutcome(
      [{ armed: true, seen: true, events: ["mousedown", "contextmenu"] }],
      undefined,
      "contextmenu",
    )
      .warnings,
    undefined,
  );
});
