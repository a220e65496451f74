/**
 * Byte helpers for handing files to an agent in pages: cutting a chunk at a
 * UTF-8 character boundary.
 *
 * @module
 */

/**
 * Cuts a trailing, incomplete UTF-8 sequence: a chunk of a file may end
 * mid-character, which would decode as U+FFFD. Returns a view of `bytes`
 * (never a copy); a chunk with nothing but a partial sequence is kept whole.
 */
export function trimPartialChar(bytes: Uint8Array): Uint8Array {
  let i = bytes.length;
  let back = 0;
  while (i > 0 && back < 4 && (bytes[i - 1]! & 0xc0) === 0x80) {
    i--;
    back++;
  }
  if (i === 0) return bytes;
  const lead = bytes[i - 1]!;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return need > back + 1 ? bytes.subarray(0, i - 1) : bytes;
}
