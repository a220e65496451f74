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

/**
 * Keeps the newest `capacity` entries, and at most `maxSize` of their total
 * size (as `sizeOf` counts it, e.g. characters of text) when given; counts
 * what it evicted. The newest entry always stays.
 */
export class RingBuffer<T extends Sequenced> {
  #items: T[] = [];
  #sizes: number[] = [];
  #total = 0;
  #capacity: number;
  #maxSize: number;
  #sizeOf: ((entry: Omit<T, "seq">) => number) | undefined;
  #nextSeq = 1;
  #dropped = 0;

  constructor(
    capacity: number,
    options: { maxSize?: number; sizeOf?: (entry: Omit<T, "seq">) => number } = {},
  ) {
    this.#capacity = capacity;
    this.#maxSize = options.maxSize ?? Infinity;
    this.#sizeOf = options.sizeOf;
  }

  /** Adds an entry, assigning its `seq`; returns it. */
  push(entry: Omit<T, "seq">): T {
    const item = { ...entry, seq: this.#nextSeq++ } as T;
    const size = this.#sizeOf?.(entry) ?? 0;
    this.#items.push(item);
    this.#sizes.push(size);
    this.#total += size;
    while (
      this.#items.length > 1 &&
      (this.#items.length > this.#capacity || this.#total > this.#maxSize)
    ) {
      this.#items.shift();
      this.#total -= this.#sizes.shift()!;
      this.#dropped++;
    }
    return item;
  }

  /** The total size of the entries held (0 without `sizeOf`). */
  get totalSize(): number {
    return this.#total;
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
