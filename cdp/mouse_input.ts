/**
 * Trusted mouse input over CDP (`Input.dispatchMouseEvent`): the pointer
 * position, the pressed buttons, clicks and the wheel of one page, every
 * event carrying the modifiers of the page's {@link Keyboard} (`input.ts`).
 *
 * @module
 */
import type { CdpSession } from "./connection.ts";
import { type InputSignal, Keyboard, sleep } from "./input.ts";
import { type ModifierName, resolveModifier } from "./keyboard_layout.ts";
import type { Protocol } from "./types.ts";

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
  #answeredAt = 0;

  /**
   * @param session the top-level page session.
   * @param keyboard the page's keyboard (a new one on `session` when omitted).
   */
  constructor(session: CdpSession, keyboard?: Keyboard) {
    this.#session = session;
    this.keyboard = keyboard ?? new Keyboard(session);
  }

  /**
   * When Chromium last answered an event of this mouse, epoch ms (0: never). Chromium answers
   * an input event once the page handled it: what the page does after is its effect.
   */
  get answeredAt(): number {
    return this.#answeredAt;
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
   * `mousePressed`/`mouseReleased` pair with `clickCount: i`, sent together unless `delayMs`
   * holds the button (so 2 fires
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
        const down = this.down({ button, clickCount: i, signal });
        if (!options.delayMs) {
          // Press and release sent together (one round trip, not two): Chromium handles a
          // tab's input in order, and the release goes out even when the press's reply is
          // dropped (the button is never left down in the page). Its reply is waited for
          // with the signal: a click handler stuck in a loop holds it until the page is free.
          const up = this.up({ button, clickCount: i, signal });
          up.catch(() => {});
          await down;
          await up;
          continue;
        }
        try {
          await down;
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

  async #dispatch(
    type: Protocol.Input.DispatchMouseEventRequest["type"],
    extra: Partial<Protocol.Input.DispatchMouseEventRequest>,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    await this.#session.send("Input.dispatchMouseEvent", {
      type,
      x: this.#x,
      y: this.#y,
      modifiers: this.keyboard.modifiers(),
      buttons: this.#buttons,
      pointerType: "mouse",
      ...extra,
    }, { signal });
    this.#answeredAt = Date.now();
  }
}
