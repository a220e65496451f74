/**
 * Trusted keyboard and mouse input over CDP (`Input.dispatchKeyEvent`,
 * `Input.insertText`, `Input.dispatchMouseEvent`), with US-layout key names
 * (see `keyboard_layout.ts`), modifier state shared between the two devices,
 * and Linux/Windows editing semantics.
 *
 * Editing keys: on Linux, headless Chromium's own (Blink) key bindings already
 * give Control+a select-all, Control+c/x/v copy/cut/paste (headless has an
 * in-process clipboard), Control+z undo, Control+Shift+z / Control+y redo,
 * Backspace/Delete (Control: by word), Home/End, Shift+Arrow selection, Enter
 * (form submission, textarea newline) and Tab (focus) — all verified in
 * `input_test.ts`. The Control shortcuts additionally carry the matching CDP
 * `commands` ({@link EDITING_COMMANDS}) so a Chromium on macOS, whose Blink
 * has no Control bindings, behaves the same; Chromium runs a command once (not
 * on top of its own binding) and not when the page cancels the keydown.
 *
 * @module
 */
import type { CdpSession } from "./connection.ts";
import {
  describeKey,
  EDITING_COMMANDS,
  isModifierName,
  lookupKey,
  MODIFIER_BITS,
  type ModifierName,
  parseKeyCombo,
  resolveKey,
  resolveModifier,
} from "./keyboard_layout.ts";
import type { Protocol } from "./types.ts";

export { EDITING_COMMANDS, parseKeyCombo };
export type { KeyCombo, ModifierName } from "./keyboard_layout.ts";

function sleep(ms: number | undefined): Promise<void> {
  return ms && ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}

/**
 * The caller's cancel, for the events that start something (a key or button press, a move, a
 * wheel, text): once it aborts, no further input is sent (a send fails at once with
 * `AbortError`). Releases of what was pressed are sent without it, so the page is never left
 * with a key or button held down.
 */
export interface InputSignal {
  signal?: AbortSignal | undefined;
}

/**
 * The keyboard of one page. Tracks held keys and the modifier bitmask
 * (Alt=1, Control=2, Meta=4, Shift=8), which every key event — and every
 * event of a {@link Mouse} built on this keyboard — carries.
 *
 * CDP: `Input.dispatchKeyEvent` (`keyDown` with text for printable keys,
 * `rawKeyDown` without for the others or under Control/Alt/Meta, `keyUp`),
 * `Input.insertText`. Errors of `send` (target closed, timeout) propagate.
 */
export class Keyboard {
  #session: CdpSession;
  #modifiers = 0;
  /** `code`s of the keys currently held. */
  #pressed = new Set<string>();

  /** @param session the top-level page session (input goes to the focused frame). */
  constructor(session: CdpSession) {
    this.#session = session;
  }

  /** The held modifiers as a CDP bitmask (Alt=1, Control=2, Meta=4, Shift=8). */
  modifiers(): number {
    return this.#modifiers;
  }

  /** True while the modifier is held (by {@link down} or inside {@link press}). */
  isHeld(modifier: ModifierName): boolean {
    return (this.#modifiers & MODIFIER_BITS[modifier]) !== 0;
  }

  /**
   * Presses a single key and keeps it down (`"Shift"`, `"a"`, `"Enter"`; no
   * combos). A modifier key sets its bit before the event is sent; a key that
   * is already down repeats (`autoRepeat: true`); an editing shortcut carries
   * its {@link EDITING_COMMANDS}.
   *
   * @throws RangeError for an unknown key name; AbortError when `signal` aborted.
   */
  async down(key: string, options: InputSignal = {}): Promise<void> {
    const resolved = resolveKey(key);
    const def = resolved.definition;
    if (isModifierName(def.key)) this.#modifiers |= MODIFIER_BITS[def.key];
    const d = describeKey(resolved, this.#modifiers);
    const autoRepeat = this.#pressed.has(def.code);
    this.#pressed.add(def.code);
    const commands = EDITING_COMMANDS[`${this.#modifiers}:${def.code}`];
    await this.#session.send("Input.dispatchKeyEvent", {
      type: d.text ? "keyDown" : "rawKeyDown",
      modifiers: this.#modifiers,
      key: d.key,
      code: d.code,
      windowsVirtualKeyCode: d.keyCode,
      nativeVirtualKeyCode: d.keyCode,
      text: d.text,
      unmodifiedText: d.unmodifiedText,
      autoRepeat,
      location: d.location,
      isKeypad: d.location === 3,
      ...(commands ? { commands: [...commands] } : {}),
    }, { signal: options.signal });
  }

  /**
   * Releases a key. A modifier key clears its bit before the event is sent.
   *
   * @throws RangeError for an unknown key name.
   */
  async up(key: string): Promise<void> {
    const resolved = resolveKey(key);
    const def = resolved.definition;
    if (isModifierName(def.key)) this.#modifiers &= ~MODIFIER_BITS[def.key];
    this.#pressed.delete(def.code);
    const d = describeKey(resolved, this.#modifiers);
    await this.#session.send("Input.dispatchKeyEvent", {
      type: "keyUp",
      modifiers: this.#modifiers,
      key: d.key,
      code: d.code,
      windowsVirtualKeyCode: d.keyCode,
      nativeVirtualKeyCode: d.keyCode,
      location: d.location,
      isKeypad: d.location === 3,
    });
  }

  /**
   * Presses a combo (`"Enter"`, `"Control+a"`, `"Shift+ArrowLeft"`,
   * `"Control+Shift+K"`, `"$"`): holds the modifiers that are not already
   * held, presses and releases the key (`delayMs` apart), then releases those
   * modifiers in reverse order, even when a step fails. A shifted character
   * (`"A"`, `"$"`) sends its shifted key and text without pressing Shift;
   * `"Shift+a"` presses Shift too.
   *
   * With `signal` aborted, nothing more is pressed; what was pressed is released.
   *
   * @throws RangeError from {@link parseKeyCombo}, before any event is sent; AbortError when
   *   `signal` aborted.
   */
  async press(combo: string, options: { delayMs?: number } & InputSignal = {}): Promise<void> {
    const { modifiers, key } = parseKeyCombo(combo);
    const signal = options.signal;
    const held: ModifierName[] = [];
    try {
      for (const m of modifiers) {
        if (this.isHeld(m)) continue;
        signal?.throwIfAborted();
        held.push(m);
        await this.down(m, { signal });
      }
      await this.#stroke(key, signal, options.delayMs);
    } finally {
      for (const m of held.reverse()) await this.up(m);
    }
  }

  /**
   * One key down and up (`delayMs` apart). Nothing is sent once `signal` aborted; a key whose
   * down was sent is released even when the down failed (an abort drops its reply, not the
   * event), and the down's error is what throws.
   */
  async #stroke(key: string, signal: AbortSignal | undefined, delayMs?: number): Promise<void> {
    signal?.throwIfAborted();
    try {
      await this.down(key, { signal });
    } catch (e) {
      await this.up(key).catch(() => {});
      throw e;
    }
    await sleep(delayMs);
    await this.up(key);
  }

  /**
   * Types text like a user: each character on the layout (ASCII letters,
   * digits, punctuation, space, `\n` as Enter, `\t` as Tab) is a keydown /
   * keypress / input / keyup sequence; runs of other characters (é, 😀, CJK)
   * go through `Input.insertText` (an `input` event, no key events).
   * `delayMs` waits between characters. Once `signal` aborts, no further character is sent
   * (the key in flight is released).
   *
   * @throws AbortError when `signal` aborted.
   */
  async type(text: string, options: { delayMs?: number } & InputSignal = {}): Promise<void> {
    const signal = options.signal;
    let pending = "";
    for (const ch of text.replaceAll("\r\n", "\n")) {
      const resolved = ch.length === 1 ? lookupKey(ch) : undefined;
      if (!resolved) {
        pending += ch;
        continue;
      }
      if (pending) {
        await this.insertText(pending, { signal });
        pending = "";
        await sleep(options.delayMs);
      }
      await this.#stroke(ch, signal);
      await sleep(options.delayMs);
    }
    if (pending) await this.insertText(pending, { signal });
  }

  /**
   * Inserts text at the caret of the focused element as if pasted or composed
   * (only an `input` event fires). CDP: `Input.insertText`.
   *
   * @throws AbortError when `signal` aborted.
   */
  async insertText(text: string, options: InputSignal = {}): Promise<void> {
    if (text === "") return;
    await this.#session.send("Input.insertText", { text }, { signal: options.signal });
  }
}

/** A mouse button. */
export type MouseButton = "left" | "right" | "middle";

const BUTTON_BITS: Readonly<Record<MouseButton, number>> = { left: 1, right: 2, middle: 4 };

/** Options of {@link Mouse.down} and {@link Mouse.up}. */
export interface MouseButtonOptions extends InputSignal {
  /** @default "left" */
  button?: MouseButton;
  /** Click count of this press (2 for the second press of a double click). @default 1 */
  clickCount?: number;
}

/** Options of {@link Mouse.click}. */
export interface ClickOptions extends MouseButtonOptions {
  /** Modifiers held during the click (`"Control"`, `"Shift"`, `"Ctrl"`, `"Cmd"`, …). */
  modifiers?: string[];
  /** Pause between each press and its release, in ms. @default 0 */
  delayMs?: number;
  /**
   * false: press where the pointer is, sending no `mouseMoved` (the pointer must
   * already be at (x, y)). @default true
   */
  move?: boolean;
}

function checkPoint(x: number, y: number): void {
  if (!Number.isFinite(x) || !Number.isFinite(y)) {
    throw new RangeError(
      `Invalid mouse position: (${x}, ${y}): coordinates must be finite numbers`,
    );
  }
}

function checkButton(button: string): MouseButton {
  if (!Object.hasOwn(BUTTON_BITS, button)) {
    throw new RangeError(
      `Unknown mouse button: ${JSON.stringify(button)}: use left, right or middle`,
    );
  }
  return button as MouseButton;
}

function checkCount(name: string, n: number): number {
  if (!Number.isInteger(n) || n < 1) {
    throw new RangeError(`Invalid ${name}: ${n}: it must be an integer of at least 1`);
  }
  return n;
}

/**
 * The mouse of one page, in CSS px of the top-level viewport. Tracks the
 * pointer position (starts at 0,0) and the pressed buttons (`buttons`
 * bitmask left=1, right=2, middle=4); every event carries the keyboard's
 * modifiers.
 *
 * CDP: `Input.dispatchMouseEvent` (`mouseMoved`, `mousePressed`,
 * `mouseReleased`, `mouseWheel`). Errors of `send` propagate.
 */
export class Mouse {
  /** The keyboard whose modifiers the mouse events carry. */
  readonly keyboard: Keyboard;
  #session: CdpSession;
  #x = 0;
  #y = 0;
  #buttons = 0;
  #lastButton: Protocol.Input.MouseButton = "none";

  /**
   * @param session the top-level page session.
   * @param keyboard the page's keyboard (a new one on `session` when omitted).
   */
  constructor(session: CdpSession, keyboard?: Keyboard) {
    this.#session = session;
    this.keyboard = keyboard ?? new Keyboard(session);
  }

  /** The current pointer position. */
  get position(): { x: number; y: number } {
    return { x: this.#x, y: this.#y };
  }

  /** The pressed buttons (left=1, right=2, middle=4). */
  get buttons(): number {
    return this.#buttons;
  }

  /**
   * Moves the pointer to (x, y) in `steps` evenly spaced `mouseMoved` events
   * (default 1), with the pressed buttons (so a move between down and up drags).
   *
   * @throws RangeError for non-finite coordinates or a bad `steps`.
   */
  async move(x: number, y: number, options: { steps?: number } & InputSignal = {}): Promise<void> {
    checkPoint(x, y);
    const steps = checkCount("steps", options.steps ?? 1);
    const fromX = this.#x;
    const fromY = this.#y;
    for (let i = 1; i <= steps; i++) {
      // The last step lands exactly on (x, y) (interpolation can be off by an ulp): a
      // `click(x, y, { move: false })` after it checks the position by equality.
      this.#x = i === steps ? x : fromX + (x - fromX) * (i / steps);
      this.#y = i === steps ? y : fromY + (y - fromY) * (i / steps);
      await this.#dispatch(
        "mouseMoved",
        { button: this.#buttons ? this.#lastButton : "none" },
        options.signal,
      );
    }
  }

  /**
   * Presses a button at the current position (`mousePressed`).
   *
   * @throws RangeError for an unknown button or a bad `clickCount`.
   */
  async down(options: MouseButtonOptions = {}): Promise<void> {
    const button = checkButton(options.button ?? "left");
    const clickCount = checkCount("clickCount", options.clickCount ?? 1);
    this.#buttons |= BUTTON_BITS[button];
    this.#lastButton = button;
    await this.#dispatch("mousePressed", { button, clickCount }, options.signal);
  }

  /**
   * Releases a button at the current position (`mouseReleased`).
   *
   * @throws RangeError for an unknown button or a bad `clickCount`.
   */
  async up(options: MouseButtonOptions = {}): Promise<void> {
    const button = checkButton(options.button ?? "left");
    const clickCount = checkCount("clickCount", options.clickCount ?? 1);
    this.#buttons &= ~BUTTON_BITS[button];
    if (this.#buttons === 0) this.#lastButton = "none";
    await this.#dispatch("mouseReleased", { button, clickCount }, options.signal);
  }

  /**
   * Forgets a pressed button without sending an event: a drag the browser intercepted
   * (`Input.setInterceptDrags`) and ended with `Input.dispatchDragEvent` took the release, as
   * an OS drag loop takes a person's, and the page gets no `mouseup`.
   */
  forgetButton(button: MouseButton = "left"): void {
    this.#buttons &= ~BUTTON_BITS[checkButton(button)];
    if (this.#buttons === 0) this.#lastButton = "none";
  }

  /**
   * Clicks at (x, y): `mouseMoved` (unless `move: false`), then for i in 1..clickCount a
   * `mousePressed`/`mouseReleased` pair with `clickCount: i` (so 2 fires
   * `dblclick` with `detail` 2; the right button fires `contextmenu`).
   * `modifiers` not already held are pressed on the keyboard first and
   * released after, so the page sees both the keys and `ctrlKey` etc.
   *
   * With `signal` aborted, nothing more is pressed or moved; a pressed button and held
   * modifiers are released.
   *
   * @throws RangeError for a bad position, button, count or modifier name, or
   *   with `move: false` a pointer elsewhere, before any event is sent; AbortError when
   *   `signal` aborted.
   */
  async click(x: number, y: number, options: ClickOptions = {}): Promise<void> {
    checkPoint(x, y);
    if (options.move === false && (x !== this.#x || y !== this.#y)) {
      throw new RangeError(
        `The pointer is at (${this.#x}, ${this.#y}), not (${x}, ${y}): move it first`,
      );
    }
    const button = checkButton(options.button ?? "left");
    const clickCount = checkCount("clickCount", options.clickCount ?? 1);
    const modifiers = (options.modifiers ?? []).map((m) => resolveModifier(m));
    const signal = options.signal;
    const held: ModifierName[] = [];
    try {
      for (const m of modifiers) {
        if (this.keyboard.isHeld(m) || held.includes(m)) continue;
        signal?.throwIfAborted();
        held.push(m);
        await this.keyboard.down(m, { signal });
      }
      if (options.move !== false) await this.move(x, y, { signal });
      for (let i = 1; i <= clickCount; i++) {
        signal?.throwIfAborted();
        try {
          await this.down({ button, clickCount: i, signal });
        } catch (e) {
          // Sent, its reply dropped: the button is down in the page.
          await this.up({ button, clickCount: i }).catch(() => {});
          throw e;
        }
        await sleep(options.delayMs);
        await this.up({ button, clickCount: i });
      }
    } finally {
      for (const m of held.reverse()) await this.keyboard.up(m);
    }
  }

  /**
   * Scrolls with the wheel at (x, y) (moving the pointer there first when it
   * is elsewhere). `deltaY` > 0 scrolls down, `deltaX` > 0 right, in CSS px.
   * Scrolling is asynchronous: the page's scroll position updates shortly after.
   *
   * @throws RangeError for non-finite coordinates or deltas.
   */
  async wheel(
    x: number,
    y: number,
    options: { deltaX?: number; deltaY?: number } & InputSignal = {},
  ): Promise<void> {
    checkPoint(x, y);
    const deltaX = options.deltaX ?? 0;
    const deltaY = options.deltaY ?? 0;
    checkPoint(deltaX, deltaY);
    if (x !== this.#x || y !== this.#y) await this.move(x, y, { signal: options.signal });
    await this.#dispatch("mouseWheel", { button: "none", deltaX, deltaY }, options.signal);
  }

  #dispatch(
    type: Protocol.Input.DispatchMouseEventRequest["type"],
    extra: Partial<Protocol.Input.DispatchMouseEventRequest>,
    signal: AbortSignal | undefined,
  ) {
    return this.#session.send("Input.dispatchMouseEvent", {
      type,
      x: this.#x,
      y: this.#y,
      modifiers: this.keyboard.modifiers(),
      buttons: this.#buttons,
      pointerType: "mouse",
      ...extra,
    }, { signal });
  }
}
