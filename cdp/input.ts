/**
 * Trusted keyboard and mouse input over CDP (`Input.dispatchKeyEvent`,
 * `Input.insertText`, `Input.dispatchMouseEvent`), with US-layout key names
 * (see `keyboard_layout.ts`), modifier state shared between the two devices,
 * and Linux/Windows editing semantics. The mouse is in `mouse_input.ts`.
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
} from "./keyboard_layout.ts";

export { EDITING_COMMANDS, parseKeyCombo };
export type { KeyCombo, ModifierName } from "./keyboard_layout.ts";

/** Waits `ms` milliseconds (at once when undefined or not positive). */
export function sleep(ms: number | undefined): Promise<void> {
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
  #answeredAt = 0;

  /** @param session the top-level page session (input goes to the focused frame). */
  constructor(session: CdpSession) {
    this.#session = session;
  }

  /**
   * When Chromium last answered an event of this keyboard, epoch ms (0: never). Chromium
   * answers an input event once the page handled it: what the page does after is its effect.
   */
  get answeredAt(): number {
    return this.#answeredAt;
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
    this.#answeredAt = Date.now();
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
    this.#answeredAt = Date.now();
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
   * One key down and up (`delayMs` apart; without a delay both are sent together, one round
   * trip: Chromium handles a tab's input in order). Nothing is sent once `signal` aborted; a
   * key whose down was sent is released even when the down failed (an abort drops its reply,
   * not the event), and the down's error is what throws.
   */
  async #stroke(key: string, signal: AbortSignal | undefined, delayMs?: number): Promise<void> {
    signal?.throwIfAborted();
    const down = this.down(key, { signal });
    if (!delayMs) {
      const up = this.up(key);
      up.catch(() => {});
      await down;
      await up;
      return;
    }
    try {
      await down;
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
   * @param options.aroundEnter Awaited between text and an Enter, either way (within this call,
   *   or after what `after` says came last): lets the page finish what the keys before
   *   scheduled (an `input` handler's or the Enter handler's zero-delay timers), as a person's
   *   pause between keys would (see `taskTurn` of the page library). Told what comes next.
   * @param options.after What the caller typed just before this call (typing in chunks).
   * @param options.progress Counts the characters sent so far (`typed`), for a caller cut
   *   short to say how far it got.
   * @throws AbortError when `signal` aborted.
   */
  async type(
    text: string,
    options: {
      delayMs?: number;
      aroundEnter?: ((next: "text" | "enter") => Promise<void>) | undefined;
      after?: "text" | "enter" | undefined;
      progress?: { typed: number } | undefined;
    } & InputSignal = {},
  ): Promise<void> {
    const signal = options.signal;
    let pending = "";
    const around = options.aroundEnter;
    const progress = options.progress;
    /** What was sent last: text, an Enter, or nothing yet. */
    let last: "text" | "enter" | undefined = options.after;
    const next = async (kind: "text" | "enter") => {
      if (around && last && last !== kind) await around(kind);
      last = kind;
    };
    for (const ch of text.replaceAll("\r\n", "\n")) {
      const resolved = ch.length === 1 ? lookupKey(ch) : undefined;
      if (!resolved) {
        pending += ch;
        continue;
      }
      if (pending) {
        await next("text");
        await this.insertText(pending, { signal });
        if (progress) progress.typed += [...pending].length;
        pending = "";
        await sleep(options.delayMs);
      }
      await next(ch === "\n" ? "enter" : "text");
      await this.#stroke(ch, signal);
      if (progress) progress.typed++;
      await sleep(options.delayMs);
    }
    if (pending) {
      await next("text");
      await this.insertText(pending, { signal });
      if (progress) progress.typed += [...pending].length;
    }
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
    this.#answeredAt = Date.now();
  }
}
