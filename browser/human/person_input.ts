/**
 * The person's input during a takeover (issue 15): mouse, wheel, keys and typing from the web
 * console's live view, replayed into the session's active tab as trusted input. Sent on the
 * tab's own session: Chromium routes mouse events by coordinates to the frame under them
 * (out-of-process iframes included) and key events to the focused frame.
 *
 * Unlike the agent's `Keyboard`/`Mouse` (cdp/input.ts), which synthesize events from key
 * names on a US layout, these replay what the person's browser saw: their `key`, `code` and
 * `text` (their layout, their dead keys), their modifiers. The layout table gives only the
 * virtual key code Blink's editing bindings need (Backspace, arrows, Enter); Enter types `\r`
 * (as cdp/input.ts sends it: a form's implicit submission and a textarea's newline need it).
 *
 * @module
 */
import { isModifierName, MODIFIER_BITS, US_KEYBOARD_LAYOUT } from "../../cdp/keyboard_layout.ts";
import type { Page } from "../../cdp/page.ts";
import { ToolError } from "../tool_error.ts";

/** A modifier key held during an event. */
export type Modifier = "Alt" | "Control" | "Meta" | "Shift";

/** One input event from the person (CSS px of the top-level viewport). */
export type PersonEvent =
  | {
    type: "mouse";
    action: "move" | "down" | "up";
    x: number;
    y: number;
    /** @default "left" (for down/up) */
    button?: "left" | "right" | "middle";
    /** @default 1 */
    clickCount?: number;
    modifiers?: Modifier[];
  }
  | { type: "wheel"; x: number; y: number; deltaX: number; deltaY: number; modifiers?: Modifier[] }
  | {
    type: "key";
    action: "down" | "up";
    /** `KeyboardEvent.key` (`a`, `A`, `Enter`, `é`). */
    key: string;
    /** `KeyboardEvent.code` (`KeyA`, `Enter`). */
    code?: string;
    /** The text the key types, when it types one. */
    text?: string;
    modifiers?: Modifier[];
  }
  | { type: "text"; text: string };

const BUTTONS = { left: 1, right: 2, middle: 4 } as const;
const KEY_CODES = new Map<string, number>();
for (const d of US_KEYBOARD_LAYOUT) {
  if (!KEY_CODES.has(d.code)) KEY_CODES.set(d.code, d.keyCode);
  if (!KEY_CODES.has(d.key)) KEY_CODES.set(d.key, d.keyCode);
}

function bad(what: string): ToolError {
  return new ToolError(
    "invalid-argument",
    `Invalid input event: ${what}`,
    "send mouse {action, x, y}, wheel {x, y, deltaX, deltaY}, key {action, key} or text {text}",
  );
}

function num(v: unknown, name: string): number {
  if (typeof v !== "number" || !Number.isFinite(v) || Math.abs(v) > 100_000) {
    throw bad(`"${name}" must be a finite number`);
  }
  return v;
}

function modifierBits(v: unknown): number {
  if (v === undefined) return 0;
  if (!Array.isArray(v)) throw bad(`"modifiers" must be a list`);
  let bits = 0;
  for (const m of v) {
    if (typeof m !== "string" || !isModifierName(m)) throw bad(`unknown modifier ${String(m)}`);
    bits |= MODIFIER_BITS[m];
  }
  return bits;
}

/**
 * Checks an event as a viewer sent it (JSON of any shape).
 *
 * @throws ToolError `invalid-argument` naming what is wrong.
 */
export function parsePersonEvent(raw: unknown): PersonEvent {
  if (!raw || typeof raw !== "object") throw bad("an object is expected");
  const e = raw as Record<string, unknown>;
  switch (e.type) {
    case "mouse": {
      if (e.action !== "move" && e.action !== "down" && e.action !== "up") {
        throw bad(`mouse "action" must be move, down or up`);
      }
      const button = e.button ?? "left";
      if (typeof button !== "string" || !(button in BUTTONS)) throw bad(`unknown button`);
      const clickCount = e.clickCount ?? 1;
      if (
        !Number.isInteger(clickCount) || (clickCount as number) < 1 || (clickCount as number) > 3
      ) {
        throw bad(`"clickCount" must be 1, 2 or 3`);
      }
      modifierBits(e.modifiers);
      return {
        type: "mouse",
        action: e.action,
        x: num(e.x, "x"),
        y: num(e.y, "y"),
        button: button as "left",
        clickCount: clickCount as number,
        ...(e.modifiers ? { modifiers: e.modifiers as Modifier[] } : {}),
      };
    }
    case "wheel":
      modifierBits(e.modifiers);
      return {
        type: "wheel",
        x: num(e.x, "x"),
        y: num(e.y, "y"),
        deltaX: num(e.deltaX ?? 0, "deltaX"),
        deltaY: num(e.deltaY ?? 0, "deltaY"),
        ...(e.modifiers ? { modifiers: e.modifiers as Modifier[] } : {}),
      };
    case "key": {
      if (e.action !== "down" && e.action !== "up") throw bad(`key "action" must be down or up`);
      if (typeof e.key !== "string" || !e.key || e.key.length > 32) throw bad(`"key" is missing`);
      if (e.code !== undefined && (typeof e.code !== "string" || e.code.length > 32)) {
        throw bad(`"code" must be a string`);
      }
      if (e.text !== undefined && (typeof e.text !== "string" || e.text.length > 8)) {
        throw bad(`"text" of a key is at most a few characters`);
      }
      modifierBits(e.modifiers);
      return {
        type: "key",
        action: e.action,
        key: e.key,
        ...(e.code ? { code: e.code as string } : {}),
        ...(e.text ? { text: e.text as string } : {}),
        ...(e.modifiers ? { modifiers: e.modifiers as Modifier[] } : {}),
      };
    }
    case "text":
      if (typeof e.text !== "string" || !e.text || e.text.length > 10_000) {
        throw bad(`"text" must be 1 to 10000 characters`);
      }
      return { type: "text", text: e.text };
    default:
      throw bad(`unknown type ${JSON.stringify(String(e.type)).slice(0, 40)}`);
  }
}

/** The buttons each tab's person holds down now (the `buttons` bitmask events carry). */
const held = new WeakMap<Page, number>();

/**
 * Replays one of the person's events into `page`.
 * CDP: `Input.dispatchMouseEvent`, `Input.dispatchKeyEvent`, `Input.insertText`.
 */
export async function dispatchPersonEvent(page: Page, e: PersonEvent): Promise<void> {
  if (e.type === "text") {
    await page.send("Input.insertText", { text: e.text });
    return;
  }
  const modifiers = modifierBits(e.modifiers);
  if (e.type === "key") {
    const keyCode = KEY_CODES.get(e.code ?? "") ?? KEY_CODES.get(e.key) ?? 0;
    const text = e.action === "down" && !(modifiers & (MODIFIER_BITS.Control | MODIFIER_BITS.Meta))
      ? (e.text ?? (e.key.length === 1 ? e.key : e.key === "Enter" ? "\r" : undefined))
      : undefined;
    await page.send("Input.dispatchKeyEvent", {
      type: e.action === "up" ? "keyUp" : text ? "keyDown" : "rawKeyDown",
      modifiers,
      key: e.key,
      code: e.code ?? "",
      windowsVirtualKeyCode: keyCode,
      nativeVirtualKeyCode: keyCode,
      ...(text ? { text, unmodifiedText: text } : {}),
    });
    return;
  }
  let buttons = held.get(page) ?? 0;
  if (e.type === "wheel") {
    await page.send("Input.dispatchMouseEvent", {
      type: "mouseWheel",
      x: e.x,
      y: e.y,
      deltaX: e.deltaX,
      deltaY: e.deltaY,
      modifiers,
      buttons,
      button: "none",
      pointerType: "mouse",
    });
    return;
  }
  const button = e.button ?? "left";
  if (e.action === "down") buttons |= BUTTONS[button];
  if (e.action === "up") buttons &= ~BUTTONS[button];
  held.set(page, buttons);
  await page.send("Input.dispatchMouseEvent", {
    type: e.action === "move"
      ? "mouseMoved"
      : e.action === "down"
      ? "mousePressed"
      : "mouseReleased",
    x: e.x,
    y: e.y,
    modifiers,
    buttons,
    button: e.action === "move" ? (buttons ? button : "none") : button,
    clickCount: e.action === "move" ? 0 : e.clickCount ?? 1,
    pointerType: "mouse",
  });
}
