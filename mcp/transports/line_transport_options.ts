/**
 * The limits and options of a `LineTransport` (`line_transport.ts`): the
 * largest message browxai reads (shared by stdio and HTTP), the bounds on
 * answers queued and on requests in flight or held back, the byte streams it
 * reads and writes, and why it closed.
 *
 * @module
 */

/**
 * Largest message browxai reads (96 MiB, in bytes): a 50 MiB artifact as
 * base64 is ~67 MiB, plus its JSON. Shared by stdio and HTTP.
 */
export const MAX_MESSAGE_BYTES = 96 * 1024 * 1024;

/**
 * Most bytes of answers handed to `write` and not yet written (64 MiB): past
 * it, reading stops until the client reads, so a client that sends and never
 * reads cannot make the server buffer its answers without end.
 */
export const MAX_QUEUED_BYTES = 64 * 1024 * 1024;
/**
 * Most requests handed on and not yet answered (pings aside); the requests read past it are
 * held back, in order, until some are answered. Reading goes on meanwhile: a cancel, any other
 * notification, an answer to the server's own request and a ping are acted on at once.
 */
export const MAX_IN_FLIGHT = 64;
/** Most requests held back past {@link MAX_IN_FLIGHT}; past it, reading stops until some run. */
export const MAX_HELD = 4096;
/** Most bytes of requests held back (their lines, 64 MiB); past it, reading stops too. */
export const MAX_HELD_BYTES = 64 * 1024 * 1024;

/** Where a `LineTransport` reads and writes. */
export interface ByteStreams {
  /** The client's messages, e.g. `Deno.stdin.readable`. */
  readable: ReadableStream<Uint8Array>;
  /** Writes all of `bytes` (e.g. to stdout); rejects when the peer is gone. */
  write(bytes: Uint8Array): Promise<void>;
}

/** Why a `LineTransport` closed. */
export type CloseReason =
  | { kind: "eof" }
  | { kind: "closed" }
  | { kind: "read-error" | "write-error"; error: Error };

/** Options of `LineTransport`. */
export interface LineTransportOptions {
  /** @default MAX_MESSAGE_BYTES */
  maxMessageBytes?: number;
  /** Told about each refused message (for stderr); never throws into the transport. */
  log?: (line: string) => void;
  /** @default MAX_QUEUED_BYTES */
  maxQueuedBytes?: number;
  /** @default MAX_IN_FLIGHT */
  maxInFlight?: number;
  /** @default MAX_HELD */
  maxHeld?: number;
  /** @default MAX_HELD_BYTES */
  maxHeldBytes?: number;
}
