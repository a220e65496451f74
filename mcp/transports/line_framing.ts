/**
 * Newline framing of a byte stream for {@link LineTransport}: chunks are split at their
 * newlines into whole lines of at most `max` bytes; a longer line is skipped as it streams
 * past (never buffered whole) and reported with the id an {@link IdScanner} finds in it.
 *
 * @module
 */
import { IdScanner } from "./id_scanner.ts";

const NEWLINE = 0x0a;

/** Where a {@link LineFramer} hands its lines. */
export interface LineSink {
  /** One whole line (without its `\n`); awaited before the next one is framed. */
  line(bytes: Uint8Array): Promise<void>;
  /** A line over `max` bytes was skipped: its size, and what its scan found. */
  oversize(size: number, scanned: IdScanner): void;
}

/** Splits a byte stream into lines; keeps at most `max` bytes of an unfinished line. */
export class LineFramer {
  readonly #max: number;
  readonly #sink: LineSink;
  /** The current line's bytes so far, in pieces (joined once, at its newline). */
  #parts: Uint8Array[] = [];
  #size = 0;
  /** Set while skipping an oversize line: finds its id as it streams past. */
  #skipping: IdScanner | undefined;

  /** @param max Longest line kept, bytes. */
  constructor(max: number, sink: LineSink) {
    this.#max = max;
    this.#sink = sink;
  }

  /**
   * Splits a chunk at its newlines, handing each whole line on (awaited, in order) until
   * `stopped()` says to stop.
   */
  async push(bytes: Uint8Array, stopped: () => boolean): Promise<void> {
    let from = 0;
    while (from < bytes.length && !stopped()) {
      const nl = bytes.indexOf(NEWLINE, from);
      const end = nl === -1 ? bytes.length : nl;
      const piece = bytes.subarray(from, end);
      if (this.#skipping) {
        if (!this.#skipping.done) this.#skipping.feed(piece);
      } else if (this.#size + piece.length > this.#max) {
        // Too long: from here on the line is scanned for its id, not kept.
        this.#skipping = new IdScanner();
        for (const p of this.#parts) this.#skipping.feed(p);
        this.#skipping.feed(piece);
        this.#parts = [];
      } else if (piece.length) {
        // A copy: the stream may reuse its buffer.
        this.#parts.push(piece.slice());
      }
      this.#size += piece.length;
      if (nl === -1) return;
      from = nl + 1;
      if (this.#skipping) {
        const scanned = this.#skipping;
        const size = this.#size;
        this.#skipping = undefined;
        this.#size = 0;
        this.#sink.oversize(size, scanned);
      } else await this.#sink.line(this.#join());
    }
  }

  /** At the end of the stream: a last line without `\n`, if one was under way (and kept). */
  rest(): Uint8Array | undefined {
    return this.#size && !this.#skipping ? this.#join() : undefined;
  }

  /** Drops what was kept of an unfinished line. */
  clear(): void {
    this.#parts = [];
  }

  #join(): Uint8Array {
    const parts = this.#parts;
    const size = this.#size;
    this.#parts = [];
    this.#size = 0;
    if (parts.length === 1) return parts[0]!;
    const out = new Uint8Array(size);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}
