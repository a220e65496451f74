import { assertEquals } from "../tests/_assert.ts";
import { decodeText, fromBase64, isTextContentType, toBase64 } from "./cache_storage.ts";

Deno.test("isTextContentType: text types, the seed's application types, charset=", () => {
  const text = [
    "text/plain",
    "text/html; charset=utf-8",
    "application/json",
    "application/javascript",
    "application/xml",
    "application/x-www-form-urlencoded",
    "application/ld+json",
    "image/svg+xml",
    "application/octet-stream; charset=latin1",
    "Application/JSON",
  ];
  const binary = ["", "image/png", "application/octet-stream", "application/jsonx", "font/woff2"];
  for (const t of text) assertEquals(isTextContentType(t), true, t);
  for (const t of binary) assertEquals(isTextContentType(t), false, t);
});

Deno.test("decodeText: the charset names the decoding, UTF-8 otherwise", () => {
  assertEquals(decodeText(new Uint8Array([0x68, 0xe9]), "text/plain; charset=iso-8859-1"), "hé");
  assertEquals(decodeText(new TextEncoder().encode("hé"), "text/plain"), "hé");
  assertEquals(decodeText(new TextEncoder().encode("hé"), "text/plain; charset=bogus"), "hé");
});

Deno.test("toBase64 / fromBase64 round trip every byte", () => {
  const bytes = new Uint8Array(70_000).map((_, i) => (i * 7) % 256);
  assertEquals(fromBase64(toBase64(bytes)), bytes);
});
