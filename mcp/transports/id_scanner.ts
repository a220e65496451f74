/**
 * Finds the top-level `"id"` of a JSON-RPC message while its bytes stream
 * past, without keeping them: an oversize message is skipped, not buffered,
 * yet its request can still be answered by id.
 *
 * @module
 */
import { isRequestId, type RequestId } from "./jsonrpc_gate.ts";

const QUOTE = 0x22, BACKSLASH = 0x5c, COLON = 0x3a, COMMA = 0x2c;
const OPEN_OBJ = 0x7b, CLOSE_OBJ = 0x7d, OPEN_ARR = 0x5b, CLOSE_ARR = 0x5d;
/** The longest id text kept (bytes); a longer one is not recovered. */
const MAX_ID_BYTES = 1024;

/** The longest key text kept (bytes): enough for "method" and "id", escaped or not. */
const MAX_KEY_BYTES = 40;

/**
 * A byte-at-a-time scanner of one JSON text. Feed it chunks in order; once
 * {@link IdScanner.done}, more input is ignored. Memory is constant (at most
 * {@link MAX_ID_BYTES} of id text). Structural characters are ASCII, so
 * scanning UTF-8 bytes is exact. It reads to the end of the top-level
 * object, so that a repeated "id" key yields the last one, as JSON.parse does.
 */
export class IdScanner {
  /** The top-level id (a string or an integer): the last "id" key's, if valid. */
  id: RequestId | undefined;
  /** True once the top-level object ended, or the text is not an object. */
  done = false;
  /** True once the top-level object closed (the text was scanned whole). */
  #closed = false;
  #sawId = false;
  #sawMethod = false;
  #depth = 0;
  #started = false;
  #inString = false;
  #escape = false;
  /** Inside the top-level object, the next string is a key. */
  #expectKey = false;
  /** The key string being read at depth 1 (only its first bytes). */
  #key: number[] | undefined;
  #lastKey = "";
  /** The id value's bytes, while reading it. */
  #value: number[] | undefined;

  /**
   * True for a whole object with a top-level "method" and no "id": a
   * notification, which JSON-RPC never answers, not even with an error.
   */
  get notification(): boolean {
    return this.#closed && this.#sawMethod && !this.#sawId;
  }

  /** Scans the next chunk of the message. */
  feed(chunk: Uint8Array): void {
    for (let i = 0; i < chunk.length && !this.done; i++) this.#byte(chunk[i]!);
  }

  #byte(b: number): void {
    if (this.#value) {
      this.#valueByte(b);
      return;
    }
    if (this.#inString) {
      if (this.#escape) this.#escape = false;
      else if (b === BACKSLASH) this.#escape = true;
      else if (b === QUOTE) {
        this.#inString = false;
        if (this.#key) {
          this.#lastKey = keyText(this.#key);
          this.#key = undefined;
          if (this.#lastKey === "method") this.#sawMethod = true;
        }
        return;
      }
      if (this.#key && this.#key.length <= MAX_KEY_BYTES) this.#key.push(b);
      return;
    }
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) return;
    if (!this.#started) {
      this.#started = true;
      if (b !== OPEN_OBJ) {
        this.done = true;
        return;
      }
      this.#depth = 1;
      this.#expectKey = true;
      return;
    }
    if (b === QUOTE) {
      this.#inString = true;
      if (this.#depth === 1 && this.#expectKey) this.#key = [];
      return;
    }
    if (b === OPEN_OBJ || b === OPEN_ARR) this.#depth++;
    else if (b === CLOSE_OBJ || b === CLOSE_ARR) {
      if (--this.#depth === 0) {
        this.done = true;
        this.#closed = b === CLOSE_OBJ;
      }
    } else if (this.#depth === 1 && b === COMMA) this.#expectKey = true;
    else if (this.#depth === 1 && b === COLON) {
      this.#expectKey = false;
      if (this.#lastKey === "id") {
        // A later "id" replaces an earlier one (as in JSON.parse), valid or not.
        this.#sawId = true;
        this.id = undefined;
        this.#value = [];
      }
    }
  }

  /** One byte of the id's value: up to the `,` or `}` that ends it. */
  #valueByte(b: number): void {
    const v = this.#value!;
    if (this.#inString) {
      if (this.#escape) this.#escape = false;
      else if (b === BACKSLASH) this.#escape = true;
      else if (b === QUOTE) this.#inString = false;
    } else if (b === COMMA || b === CLOSE_OBJ) {
      this.#value = undefined;
      this.#finish(v);
      this.#byte(b); // the comma or brace is structure too
      return;
    } else if (b === OPEN_OBJ || b === OPEN_ARR) {
      // An object or array is no id; scanning goes on past it.
      this.#value = undefined;
      this.#byte(b);
      return;
    } else if (b === QUOTE) this.#inString = true;
    if (v.length >= MAX_ID_BYTES) {
      // Too long to be kept: no id; the rest of the value is skipped as plain JSON.
      this.#value = undefined;
      return;
    }
    v.push(b);
  }

  #finish(v: number[]): void {
    try {
      const id: unknown = JSON.parse(new TextDecoder().decode(new Uint8Array(v)));
      if (isRequestId(id)) this.id = id;
    } catch { /* not a JSON value: no id */ }
  }
}

/** A key's text from its raw bytes (escapes decoded; a key too long to keep is none of ours). */
function keyText(raw: number[]): string {
  if (raw.length > MAX_KEY_BYTES) return "";
  try {
    return JSON.parse(`"${new TextDecoder().decode(new Uint8Array(raw))}"`);
  } catch {
    return "";
  }
}
