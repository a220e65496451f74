/**
 * Reading an HTTP request body within bounds: a size limit checked against
 * Content-Length before a byte is read and counted while a chunked body
 * streams in, a deadline for the whole body (slow and half-open uploads), and
 * a server-wide budget of body bytes being read at once (many sockets each
 * sending a large body).
 *
 * @module
 */

/** Bytes of request bodies being read at once, server-wide. */
export class ByteBudget {
  #left: number;
  /** @param total the most body bytes held at once. */
  constructor(readonly total: number) {
    this.#left = total;
  }
  /** Takes `n` bytes if they are left; false (nothing taken) when they are not. */
  take(n: number): boolean {
    if (n > this.#left) return false;
    this.#left -= n;
    return true;
  }
  /** Gives back bytes taken. */
  give(n: number): void {
    this.#left = Math.min(this.total, this.#left + n);
  }
}

/** Bounds of {@link readBody}. */
export interface BodyLimits {
  /** Most bytes the body may have. */
  maxBytes: number;
  /** Time the whole body may take to arrive, ms. */
  timeoutMs: number;
  budget: ByteBudget;
}

/** A body read whole, or why not (an HTTP status and a message for the client). */
export type BodyResult =
  | {
    ok: true;
    bytes: Uint8Array;
    /** Gives the body's bytes back to the budget; call when done with them. */
    release(): void;
  }
  | { ok: false; status: 400 | 408 | 413 | 503; message: string };

const mib = (n: number) => n >= 1024 * 1024 ? `${Math.round(n / 1024 / 1024)} MiB` : `${n} bytes`;

/**
 * Reads a request's body within `limits`. A declared Content-Length over the
 * limit is refused before reading (413); a body without one is counted as it
 * arrives and abandoned past the limit (413); a body not complete in time is
 * abandoned (408); a body whose bytes the server-wide budget cannot hold as
 * they arrive is abandoned (503).
 */
export async function readBody(req: Request, limits: BodyLimits): Promise<BodyResult> {
  const tooLarge = (size: string): BodyResult => ({
    ok: false,
    status: 413,
    message: `Payload too large: the body is ${size}; this endpoint takes at most ${
      mib(limits.maxBytes)
    } (${limits.maxBytes} bytes)`,
  });
  const busy: BodyResult = {
    ok: false,
    status: 503,
    message: "Server busy: too many large requests are being read at once; retry shortly",
  };
  const declared = req.headers.get("content-length");
  const length = declared === null ? undefined : Number(declared);
  if (length !== undefined && length > limits.maxBytes) {
    await req.body?.cancel().catch(() => {});
    return tooLarge(`${length} bytes`);
  }
  let taken = 0;
  const release = () => {
    limits.budget.give(taken);
    taken = 0;
  };
  if (!req.body) return { ok: true, bytes: new Uint8Array(), release };
  const reader = req.body.getReader();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    reader.cancel().catch(() => {});
  }, limits.timeoutMs);
  const parts: Uint8Array[] = [];
  let size = 0;
  let failure: BodyResult | undefined;
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (timedOut) break;
      if (done) break;
      size += value.length;
      if (size > limits.maxBytes || (length !== undefined && size > length)) {
        failure = tooLarge(`over ${limits.maxBytes} bytes`);
        break;
      }
      // Charged as bytes arrive, not as declared: a client that declares much and sends
      // little holds only what it sent.
      if (!limits.budget.take(value.length)) {
        failure = busy;
        break;
      }
      taken += value.length;
      parts.push(value);
    }
  } catch (e) {
    // The client went away mid-body (or the deadline cancelled the read).
    failure = {
      ok: false,
      status: 400,
      message: `Bad request: the body could not be read: ${(e as Error).message}`,
    };
  } finally {
    clearTimeout(timer);
  }
  if (timedOut) {
    failure = {
      ok: false,
      status: 408,
      message: `Request timeout: the body did not arrive within ${limits.timeoutMs} ms`,
    };
  }
  if (failure) {
    release();
    reader.cancel().catch(() => {});
    return failure;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return { ok: true, bytes, release };
}
