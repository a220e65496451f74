/**
 * Typed per-session state that modules other than the session keep (the downloads, the
 * upload copies' folder, a backgrounded tab): one {@link SessionSlot} key per module, the
 * values in the session's {@link SessionSlots} (`session.slots`), so what a session holds is
 * reachable from it and goes when it closes ({@link SessionSlots.clear}).
 *
 * @module
 */

/** The key of one kind of per-session state, typed by its value; made once per module. */
export class SessionSlot<T> {
  /** Carries `T` for the compiler only. */
  declare readonly _value: T;
  /** For messages and tests: what the slot holds. */
  readonly name: string;

  constructor(name: string) {
    this.name = name;
  }
}

/** The per-session state of one session, by {@link SessionSlot}. */
export class SessionSlots {
  #values = new Map<SessionSlot<unknown>, unknown>();

  /** The value in `slot`, or undefined when none was set (or the session closed). */
  get<T>(slot: SessionSlot<T>): T | undefined {
    return this.#values.get(slot) as T | undefined;
  }

  /** Sets the value of `slot`. */
  set<T>(slot: SessionSlot<T>, value: T): void {
    this.#values.set(slot, value);
  }

  /** Empties `slot`. */
  delete(slot: SessionSlot<unknown>): void {
    this.#values.delete(slot);
  }

  /** The names of the slots that hold a value. */
  names(): string[] {
    return [...this.#values.keys()].map((s) => s.name);
  }

  /** Drops every value (the session closed). */
  clear(): void {
    this.#values.clear();
  }
}
