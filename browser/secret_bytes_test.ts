import { assertEquals } from "../tests/_assert.ts";
import { SecretStore } from "../policy/secrets.ts";
import { readMaskedPage } from "./secret_bytes.ts";

const store = new SecretStore(new Map([["API", "sk-live-12345"], ["PIN", "9876"]]));
const text = "key=sk-live-12345;pin=9876;end";
const bytes = new TextEncoder().encode(text);
const read = (start: number, length: number) =>
  Promise.resolve(bytes.subarray(start, start + length));
const decode = (b: Uint8Array) => new TextDecoder().decode(b);

Deno.test("readMaskedPage: the whole source, every value masked", async () => {
  const p = await readMaskedPage(read, bytes.length, { offset: 0, max: 1000 }, store);
  assertEquals(decode(p.bytes), "key=[secret:API];pin=[secret:PIN];end");
  assertEquals(p.end, bytes.length);
});

Deno.test("readMaskedPage: a page starting inside a value opens with its mask, never a suffix", async () => {
  for (let offset = 5; offset < 17; offset++) {
    const p = await readMaskedPage(read, bytes.length, { offset, max: 1000 }, store);
    assertEquals(decode(p.bytes).startsWith("[secret:API];pin="), true, `offset ${offset}`);
  }
});

Deno.test("readMaskedPage: a page ending inside a value grows to its end; pages join up", async () => {
  let offset = 0;
  const pages: string[] = [];
  while (offset < bytes.length) {
    const p = await readMaskedPage(read, bytes.length, { offset, max: 6 }, store);
    pages.push(decode(p.bytes));
    offset = p.end;
  }
  const joined = pages.join("");
  assertEquals(joined.includes("12345"), false, joined);
  assertEquals(joined.includes("9876"), false, joined);
  for (const page of pages) {
    assertEquals(/sk-|-live|123|876/.test(page.replaceAll(/\[secret:[A-Z]+\]/g, "")), false, page);
  }
});

Deno.test("readMaskedPage: without a masker, the raw page", async () => {
  const p = await readMaskedPage(read, bytes.length, { offset: 4, max: 5 }, undefined);
  assertEquals([decode(p.bytes), p.end], ["sk-li", 9]);
});
