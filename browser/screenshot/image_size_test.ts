import { assertEquals } from "../../tests/_assert.ts";
import { imageSize } from "./image_size.ts";

Deno.test("imageSize reads a PNG IHDR", () => {
  const png = new Uint8Array(33);
  png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(png.buffer).setUint32(16, 1179);
  new DataView(png.buffer).setUint32(20, 1977);
  assertEquals(imageSize(png), { width: 1179, height: 1977 });
});

Deno.test("imageSize skips JPEG segments to the start-of-frame", () => {
  const jpeg = new Uint8Array([
    0xff,
    0xd8, // SOI
    0xff,
    0xe0,
    0,
    4,
    1,
    2, // APP0, 2 bytes of payload
    0xff,
    0xc4,
    0,
    3,
    9, // DHT: not a frame
    0xff,
    0xc0,
    0,
    11,
    8,
    0x07,
    0xb9,
    0x04,
    0x9b,
    3,
    0,
    0,
    0, // SOF0: 1977 high, 1179 wide
  ]);
  assertEquals(imageSize(jpeg), { width: 1179, height: 1977 });
});

Deno.test("imageSize answers undefined for other bytes", () => {
  assertEquals(imageSize(new Uint8Array([1, 2, 3])), undefined);
  assertEquals(imageSize(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 200])), undefined);
});
