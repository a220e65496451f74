/**
 * The pixel size of a PNG or JPEG, read from its header: what a screenshot really is, which
 * under device emulation (deviceScaleFactor) differs from the CSS px that were asked for.
 *
 * @module
 */

/**
 * Width and height in image pixels of PNG or JPEG bytes, from the PNG `IHDR` chunk or the
 * first JPEG start-of-frame marker. `undefined` when the bytes are neither (or are cut short).
 */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // PNG: 8-byte signature, then IHDR (length, "IHDR", width, height), big-endian.
  if (bytes.length >= 24 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e) {
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let i = 2;
  while (i + 9 <= bytes.length) {
    if (bytes[i] !== 0xff) return undefined;
    const marker = view.getUint8(i + 1);
    // Fill bytes between markers.
    if (marker === 0xff) {
      i++;
      continue;
    }
    // SOF0..SOF15 carry the frame size; C4 (DHT), C8 (JPG), CC (DAC) share the range but do not.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: view.getUint16(i + 7), height: view.getUint16(i + 5) };
    }
    i += 2 + view.getUint16(i + 2);
  }
  return undefined;
}
