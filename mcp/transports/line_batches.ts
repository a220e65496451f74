/**
 * The write side of the stdio transport (`line_transport.ts`): lines written one write after
 * another, never interleaved; lines that come while a write is under way go out together in
 * the next write (up to {@link BATCH_BYTES}), in order.
 *
 * @module
 */

/** Lines written together in one write (see {@link LineBatches.write}). */
interface Batch {
  parts: Uint8Array[];
  bytes: number;
  /** Resolves when the batch is written. */
  written: Promise<void>;
}

/** A batch grows to this many bytes at most (a longer line goes alone). */
const BATCH_BYTES = 1024 * 1024;

/** The parts as one buffer (the part itself when there is one). */
function join(parts: Uint8Array[], bytes: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(bytes);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** What {@link LineBatches} is told of its writes. */
export interface LineBatchHooks {
  /** A batch was written (or failed): answers were piling up, there is room again. */
  written(): void;
  /** A write failed: the stream is gone. */
  failed(error: Error): void;
}

/** Batched, ordered writes of lines to one stream. */
export class LineBatches {
  readonly #out: (bytes: Uint8Array) => Promise<void>;
  readonly #hooks: LineBatchHooks;
  /** Writes are chained so messages never interleave. */
  #writing: Promise<void> = Promise.resolve();
  /** Lines waiting for the write under way to end: the next write, not taken yet. */
  #batch: Batch | undefined;
  /** Bytes handed to `write` and not yet written. */
  #queued = 0;

  /** `out`: writes the bytes to the stream (`ByteStreams.write`). */
  constructor(out: (bytes: Uint8Array) => Promise<void>, hooks: LineBatchHooks) {
    this.#out = out;
    this.#hooks = hooks;
  }

  /** Bytes handed to {@link write} and not yet written. */
  get queued(): number {
    return this.#queued;
  }

  /** Settles once every write asked so far ended (never rejects). */
  get idle(): Promise<void> {
    return this.#writing;
  }

  /**
   * Writes `bytes` (a line) after every earlier one. Lines that come while a write is
   * under way go out together in the next write: with 20 sessions' answers at once, a few
   * writes instead of one each in turn (each a call that waits its turn on a busy machine).
   * Resolves when written.
   */
  write(bytes: Uint8Array): Promise<void> {
    this.#queued += bytes.length;
    let batch = this.#batch;
    if (!batch || batch.bytes + bytes.length > BATCH_BYTES) {
      const next: Batch = { parts: [], bytes: 0, written: Promise.resolve() };
      next.written = this.#writing.then(() => {
        // Taken: later lines start the next batch.
        if (this.#batch === next) this.#batch = undefined;
        return this.#out(join(next.parts, next.bytes));
      }).finally(() => {
        this.#queued -= next.bytes;
        this.#hooks.written();
      });
      this.#writing = next.written.catch((e) => this.#hooks.failed(e as Error));
      this.#batch = batch = next;
    }
    batch.parts.push(bytes);
    batch.bytes += bytes.length;
    return batch.written;
  }
}
