/**
 * A bounded log with monotonic sequence numbers, for console and network
 * history read with `since_seq` cursors.
 *
 * @module
 */

/** An entry with its sequence number. */
export interface Sequenced {
  seq: number;
}

/** Keeps the newest `capacity` entries; counts what it evicted. */
export class RingBuffer<T extends Sequenced> {
  #items: T[] = [];
  #capacity: number;
  #nextSeq = 1;
  #dropped = 0;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Adds an entry, assigning its `seq`; returns it. */
  push(entry: Omit<T, "seq">): T {
    const item = { ...entry, seq: this.#nextSeq++ } as T;
    this.#items.push(item);
    if (this.#items.length > this.#capacity) {
      this.#items.shift();
      this.#dropped++;
    }
    return item;
  }

  /** The last assigned seq (0 when empty). */
  get lastSeq(): number {
    return this.#nextSeq - 1;
  }

  /** Entries evicted since the start. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Entries held now. */
  get size(): number {
    return this.#items.length;
  }

  /** Entries with seq > `sinceSeq`, oldest first. */
  since(sinceSeq: number): T[] {
    // Entries are in seq order: scan from the end.
    let i = this.#items.length;
    while (i > 0 && this.#items[i - 1]!.seq > sinceSeq) i--;
    return this.#items.slice(i);
  }
}
