import { assertEquals, assertIncludes, assertThrows, assertTrue } from "../tests/_assert.ts";
import { eventually } from "../tests/_util.ts";
import type { CdpSession } from "./connection.ts";
import { Keyboard, parseKeyCombo } from "./input.ts";
import { Mouse } from "./mouse_input.ts";
import {
  describeKey,
  lookupKey,
  MODIFIER_BITS,
  suggestKey,
  US_KEYBOARD_LAYOUT,
} from "./keyboard_layout.ts";

// ---------------------------------------------------------------- pure tests

Deno.test("parseKeyCombo() splits modifiers from the key and canonicalises names", () => {
  assertEquals(parseKeyCombo("Enter"), { modifiers: [], key: "Enter" });
  assertEquals(parseKeyCombo("Control+a"), { modifiers: ["Control"], key: "a" });
  assertEquals(parseKeyCombo("Shift+ArrowLeft"), { modifiers: ["Shift"], key: "ArrowLeft" });
  assertEquals(parseKeyCombo("Control+Shift+K"), { modifiers: ["Control", "Shift"], key: "K" });
  assertEquals(parseKeyCombo("Meta+Enter"), { modifiers: ["Meta"], key: "Enter" });
  assertEquals(parseKeyCombo("a"), { modifiers: [], key: "a" });
  assertEquals(parseKeyCombo("A"), { modifiers: [], key: "A" });
  assertEquals(parseKeyCombo("$"), { modifiers: [], key: "$" });
  assertEquals(parseKeyCombo("ctrl+shift+esc"), { modifiers: ["Control", "Shift"], key: "Escape" });
  assertEquals(parseKeyCombo("Cmd+Return"), { modifiers: ["Meta"], key: "Enter" });
  assertEquals(parseKeyCombo("Option+Up"), { modifiers: ["Alt"], key: "ArrowUp" });
  assertEquals(parseKeyCombo(" Control + a "), { modifiers: ["Control"], key: "a" });
  assertEquals(parseKeyCombo("Control+Control+a"), { modifiers: ["Control"], key: "a" });
  assertEquals(parseKeyCombo("+"), { modifiers: [], key: "+" });
  assertEquals(parseKeyCombo("Control++"), { modifiers: ["Control"], key: "+" });
  assertEquals(parseKeyCombo("Control+Plus"), { modifiers: ["Control"], key: "+" });
  assertEquals(parseKeyCombo(" "), { modifiers: [], key: " " });
  assertEquals(parseKeyCombo("Shift"), { modifiers: [], key: "Shift" });
  assertEquals(parseKeyCombo("KeyA"), { modifiers: [], key: "KeyA" });
});

Deno.test("parseKeyCombo() rejects empty, malformed and unknown combos with RangeError", () => {
  for (const bad of ["", "  ", "++", "a++b", "Control+", "+a"]) {
    assertThrows(() => parseKeyCombo(bad), RangeError);
  }
  const e = assertThrows(() => parseKeyCombo("Entr"), RangeError);
  assertIncludes(e.message, 'Unknown key: "Entr"');
  assertIncludes(e.message, '"Enter"');
  assertIncludes(e.message, "use names like Enter, Tab, ArrowLeft, a, Control+a");
  assertIncludes(assertThrows(() => parseKeyCombo("Ctrl+Foo"), RangeError).message, '"Foo"');
  assertIncludes(
    assertThrows(() => parseKeyCombo("a+b"), RangeError).message,
    'Not a modifier: "a" in "a+b"',
  );
  assertEquals(suggestKey("Ctl"), "Control");
  assertEquals(suggestKey("Xyzzy"), undefined);
});

Deno.test("the US layout types every printable ASCII character as itself", () => {
  for (let c = 0x20; c < 0x7f; c++) {
    const ch = String.fromCharCode(c);
    const resolved = lookupKey(ch);
    assertTrue(resolved, `no key for ${JSON.stringify(ch)}`);
    assertEquals(describeKey(resolved, 0).text, ch);
    assertEquals(describeKey(resolved, 0).key, ch);
    assertEquals(resolved.definition.location, 0, `main block for ${JSON.stringify(ch)}`);
  }
  const codes = new Set(US_KEYBOARD_LAYOUT.map((k) => k.code));
  assertEquals(codes.size, US_KEYBOARD_LAYOUT.length, "codes are unique");
});

Deno.test("the US layout gives key, code, keyCode, text and location", () => {
  const d = (name: string, mods = 0) => describeKey(lookupKey(name)!, mods);
  assertEquals(d("a"), {
    key: "a",
    code: "KeyA",
    keyCode: 65,
    text: "a",
    unmodifiedText: "a",
    location: 0,
  });
  assertEquals(d("A").key, "A");
  assertEquals(d("A").code, "KeyA");
  assertEquals(d("a", MODIFIER_BITS.Shift).text, "A");
  assertEquals(d("1", MODIFIER_BITS.Shift).key, "!");
  assertEquals(d("$").code, "Digit4");
  assertEquals(d("a", MODIFIER_BITS.Control).text, "", "Control suppresses text");
  assertEquals(d("a", MODIFIER_BITS.Control).unmodifiedText, "a");
  assertEquals(d("Enter").text, "\r");
  assertEquals(d("Enter").keyCode, 13);
  assertEquals(d("Tab").text, "");
  assertEquals(d("Backspace").keyCode, 8);
  assertEquals(d("Delete").keyCode, 46);
  assertEquals(d(" ").code, "Space");
  assertEquals(d("Space").text, " ");
  assertEquals(d("ArrowLeft").keyCode, 37);
  assertEquals(d("PageDown").keyCode, 34);
  for (let i = 1; i <= 12; i++) assertEquals(d(`F${i}`).keyCode, 111 + i);
  assertEquals(d("Shift").location, 1);
  assertEquals(d("ShiftRight").location, 2);
  assertEquals(d("Meta").keyCode, 91);
  assertEquals(d("Numpad5"), {
    key: "5",
    code: "Numpad5",
    keyCode: 101,
    text: "5",
    unmodifiedText: "5",
    location: 3,
  });
  assertEquals(d("NumpadEnter").key, "Enter");
  assertEquals(d("+").code, "Equal", "the main block wins over the numpad");
  for (
    const [alias, key] of [
      ["Ctrl", "Control"],
      ["Cmd", "Meta"],
      ["Command", "Meta"],
      ["Option", "Alt"],
      ["Esc", "Escape"],
      ["Return", "Enter"],
      ["Up", "ArrowUp"],
      ["down", "ArrowDown"],
      ["ENTER", "Enter"],
      ["\n", "Enter"],
      ["\t", "Tab"],
    ]
  ) assertEquals(d(alias!).key, key, alias);
  assertEquals(lookupKey("é"), undefined);
  assertEquals(lookupKey("ctrl")?.name, "Control");
});

/** A session that records what is sent and answers `{}`. */
function recordingSession() {
  const sent: { method: string; params: Record<string, unknown> }[] = [];
  const session = {
    send(method: string, params: Record<string, unknown>) {
      sent.push({ method, params });
      return Promise.resolve({});
    },
  } as unknown as CdpSession;
  return { session, sent };
}

Deno.test("Keyboard.press() holds modifiers around the key with the right event types", async () => {
  const { session, sent } = recordingSession();
  const kb = new Keyboard(session);
  await kb.press("Control+a");
  assertEquals(
    sent.map((s) => [s.params.type, s.params.key, s.params.modifiers, s.params.text ?? null]),
    [
      ["rawKeyDown", "Control", 2, ""],
      ["rawKeyDown", "a", 2, ""],
      ["keyUp", "a", 2, null],
      ["keyUp", "Control", 0, null],
    ],
  );
  assertEquals(sent[1]!.params.commands, ["selectAll"]);
  assertEquals(kb.modifiers(), 0);
  sent.length = 0;
  await kb.press("Shift+a");
  assertEquals(sent[1]!.params, {
    type: "keyDown",
    modifiers: 8,
    key: "A",
    code: "KeyA",
    windowsVirtualKeyCode: 65,
    nativeVirtualKeyCode: 65,
    text: "A",
    unmodifiedText: "A",
    autoRepeat: false,
    location: 0,
    isKeypad: false,
  });
  sent.length = 0;
  await kb.down("Shift");
  await kb.press("Shift+Tab");
  assertEquals(sent.length, 3, "an already held modifier is not pressed again");
  assertEquals(kb.modifiers(), MODIFIER_BITS.Shift);
  await kb.up("Shift");
  sent.length = 0;
  await kb.type("aé😀b");
  assertEquals(sent.map((s) => s.method === "Input.insertText" ? s.params.text : s.params.type), [
    "keyDown",
    "keyUp",
    "é😀",
    "keyDown",
    "keyUp",
  ]);
  await assertRejectsRange(() => kb.press("Entr"));
});

async function assertRejectsRange(fn: () => Promise<unknown>) {
  try {
    await fn();
  } catch (e) {
    assertTrue(e instanceof RangeError, `expected RangeError, got ${e}`);
    return;
  }
  throw new Error("expected a RangeError");
}

Deno.test("Mouse.click() sends move, then press/release pairs with rising clickCount", async () => {
  const { session, sent } = recordingSession();
  const mouse = new Mouse(session);
  await mouse.click(10, 20, { clickCount: 2, modifiers: ["Ctrl"] });
  const mouseEvents = sent.filter((s) => s.method === "Input.dispatchMouseEvent");
  assertEquals(
    mouseEvents.map((s) => [s.params.type, s.params.clickCount ?? 0, s.params.buttons]),
    [
      ["mouseMoved", 0, 0],
      ["mousePressed", 1, 1],
      ["mouseReleased", 1, 0],
      ["mousePressed", 2, 1],
      ["mouseReleased", 2, 0],
    ],
  );
  assertTrue(mouseEvents.every((s) => s.params.modifiers === MODIFIER_BITS.Control));
  assertEquals(sent[0]!.params.key, "Control", "the modifier key goes down first");
  assertEquals(sent.at(-1)!.params.type, "keyUp");
  assertEquals(mouse.position, { x: 10, y: 20 });
  sent.length = 0;
  await mouse.down({ button: "right" });
  await mouse.move(30, 40, { steps: 2 });
  assertEquals(mouse.buttons, 2);
  assertEquals(sent.map((s) => [s.params.x, s.params.y, s.params.button]), [
    [10, 20, "right"],
    [20, 30, "right"],
    [30, 40, "right"],
  ]);
  await mouse.up({ button: "right" });
  assertEquals(mouse.buttons, 0);
  await assertRejectsRange(() => mouse.click(NaN, 0));
  await assertRejectsRange(() => mouse.click(0, 0, { modifiers: ["a"] }));
  assertEquals(sent.length, 4, "nothing is sent for invalid arguments");
  await assertRejectsRange(() => mouse.click(0, 0, { clickCount: 0 }));
});

Deno.test("Mouse.click() sends press and release together; with delayMs, the release waits", async () => {
  // Replies held until released: what went out before the press's reply came back.
  const sent: string[] = [];
  const held: Array<() => void> = [];
  const session = {
    send(_method: string, params: Record<string, unknown>) {
      sent.push(String(params.type));
      return new Promise((r) => held.push(() => r({})));
    },
  } as unknown as CdpSession;
  const mouse = new Mouse(session);
  const click = mouse.click(0, 0, { move: false });
  await Promise.resolve();
  assertEquals(sent, ["mousePressed", "mouseReleased"]);
  held.splice(0).forEach((r) => r());
  await click;
  assertEquals(mouse.buttons, 0);
  sent.length = 0;
  const slow = mouse.click(0, 0, { move: false, delayMs: 1 });
  await Promise.resolve();
  assertEquals(sent, ["mousePressed"]);
  held.splice(0).forEach((r) => r());
  await eventually(() => sent.length >= 2, 5000, "the release after the delay");
  assertEquals(sent, ["mousePressed", "mouseReleased"]);
  held.splice(0).forEach((r) => r());
  await slow;
});

Deno.test("Keyboard.press() sends a key's down and up together; with delayMs, the up waits", async () => {
  const sent: string[] = [];
  const held: Array<() => void> = [];
  const session = {
    send(_method: string, params: Record<string, unknown>) {
      sent.push(`${params.type} ${params.key}`);
      return new Promise((r) => held.push(() => r({})));
    },
  } as unknown as CdpSession;
  const kb = new Keyboard(session);
  const press = kb.press("Enter");
  await Promise.resolve();
  assertEquals(sent, ["keyDown Enter", "keyUp Enter"]);
  held.splice(0).forEach((r) => r());
  await press;
  sent.length = 0;
  const slow = kb.press("a", { delayMs: 1 });
  await Promise.resolve();
  assertEquals(sent, ["keyDown a"]);
  held.splice(0).forEach((r) => r());
  await eventually(() => sent.length >= 2, 5000, "the key up after the delay");
  assertEquals(sent, ["keyDown a", "keyUp a"]);
  held.splice(0).forEach((r) => r());
  await slow;
});

Deno.test("answeredAt: stamped when Chromium answers an input event, not when it is sent or fails", async () => {
  const held: Array<(ok: boolean) => void> = [];
  const session = {
    send: () =>
      new Promise((resolve, reject) =>
        held.push((ok) => ok ? resolve({}) : reject(new Error("Target closed")))
      ),
  } as unknown as CdpSession;
  const mouse = new Mouse(session);
  const kb = mouse.keyboard;
  assertEquals([mouse.answeredAt, kb.answeredAt], [0, 0]);
  const click = mouse.click(0, 0, { move: false });
  await Promise.resolve();
  // Sent, not answered yet.
  assertEquals(mouse.answeredAt, 0);
  const before = Date.now();
  held.splice(0).forEach((answer) => answer(true));
  await click;
  assertTrue(mouse.answeredAt >= before, "the release's answer");
  assertEquals(kb.answeredAt, 0);
  const typing = kb.insertText("é");
  held.splice(0).forEach((answer) => answer(true));
  await typing;
  assertTrue(kb.answeredAt >= before);
  // A failed send leaves the last answer's time.
  const last = kb.answeredAt;
  const failed = kb.press("Enter").catch(() => "failed");
  held.splice(0).forEach((answer) => answer(false));
  assertEquals(await failed, "failed");
  assertEquals(kb.answeredAt, last);
});

Deno.test("Mouse.click(move: false) presses where the pointer is, sending no move", async () => {
  const { session, sent } = recordingSession();
  const mouse = new Mouse(session);
  // Fractional points: the move lands exactly there, so the equality check holds.
  await mouse.move(0.1, 0.7);
  await mouse.move(60.3, 40.1, { steps: 3 });
  assertEquals(mouse.position, { x: 60.3, y: 40.1 });
  sent.length = 0;
  await mouse.click(60.3, 40.1, { move: false });
  assertEquals(sent.map((s) => s.params.type), ["mousePressed", "mouseReleased"]);
  assertTrue(sent.every((s) => s.params.x === 60.3 && s.params.y === 40.1));
  // Elsewhere: refused before anything is sent.
  await assertRejectsRange(() => mouse.click(10, 10, { move: false }));
  assertEquals(sent.length, 2);
});

Deno.test("Mouse.forgetButton() clears a held button without sending anything", async () => {
  const { session, sent } = recordingSession();
  const mouse = new Mouse(session);
  await mouse.down();
  await mouse.down({ button: "middle" });
  sent.length = 0;
  mouse.forgetButton("left");
  assertEquals([mouse.buttons, sent.length], [4, 0]);
  await mouse.move(5, 5);
  assertEquals(sent[0]!.params.button, "middle", "the button still held drags");
  mouse.forgetButton("middle");
  await mouse.move(6, 6);
  assertEquals([mouse.buttons, sent[1]!.params.button], [0, "none"]);
});
