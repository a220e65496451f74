/**
 * A list that holds at most a fixed number of items and counts the rest: what a noisy page
 * does between two calls must not grow a session's memory (or the next result) without limit.
 *
 * @module
 */

/**
 * Keeps `max` items — the first ones pushed (`keep: "first"`, what started it) or the latest
 * (`keep: "last"`, where it ended) — and counts every push, so {@link omitted} says how many
 * were left out. Memory stays `O(max)` whatever is pushed.
 */
export class BoundedList<T> {
  #items: T[] = [];
  #count = 0;
  #max: number;
  #keep: "first" | "last";

  /**
   * @param max Most items held (at least 1).
   * @param keep Which items stay once more than `max` were pushed (default `first`).
   */
  constructor(max: number, keep: "first" | "last" = "first") {
    this.#max = Math.max(1, max);
    this.#keep = keep;
  }

  /** Adds an item (dropped at once when full and keeping the first ones). */
  push(item: T): void {
    this.#count++;
    if (this.#keep === "first") {
      if (this.#items.length < this.#max) this.#items.push(item);
      return;
    }
    this.#items.push(item);
    if (this.#items.length > this.#max) this.#items.shift();
  }

  /** The items held, in push order. */
  get items(): readonly T[] {
    return this.#items;
  }

  /** Items pushed since the last {@link clear}, held or not. */
  get count(): number {
    return this.#count;
  }

  /** Items pushed and not held. */
  get omitted(): number {
    return this.#count - this.#items.length;
  }

  /**
   * Forgets held items `drop` says are stale (they no longer count: they are not news).
   */
  dropWhere(drop: (item: T) => boolean): void {
    const kept = this.#items.filter((i) => !drop(i));
    this.#count -= this.#items.length - kept.length;
    this.#items = kept;
  }

  /** Empties the list and its count. */
  clear(): void {
    this.#items = [];
    this.#count = 0;
  }
}
