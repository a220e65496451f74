import { assertEquals } from "../tests/_assert.ts";
import { withoutFormatChars } from "./secret_format_chars.ts";
import { SecretStore } from "./secrets.ts";

const PW = "Hunter2SecretXyz";

Deno.test("SecretStore: values split by format characters are masked, with what is between", () => {
  const store = new SecretStore(new Map([["PW", PW]]));
  const zw = [...PW].join("\u200b");
  assertEquals(store.maskText(`code: ${zw} end`), "code: [secret:PW] end");
  // A joiner, a soft hyphen, bidi marks; JSON-escaped forms stay masked as before.
  assertEquals(store.maskText(`x Hunter\u200d2Sec\u00adret\u200eXyz y`), "x [secret:PW] y");
  assertEquals(store.maskText(JSON.stringify({ v: zw })), '{"v":"[secret:PW]"}');
  // Format characters elsewhere are kept; parts are not masked (they would be an oracle).
  assertEquals(store.maskText("a\u200bb [secret:PW]"), "a\u200bb [secret:PW]");
  assertEquals(store.maskText("H\u200bunter2Secret"), "H\u200bunter2Secret");
  assertEquals(store.contains(zw), true);
  assertEquals(store.spans(`ab ${zw}`), [[3, 3 + zw.length]]);
});

Deno.test("SecretStore: values split by invisible non-Cf characters are masked (red team s14 #11)", () => {
  const store = new SecretStore(new Map([["PW", PW]]));
  // CGJ (Mn), VS16 (Mn), Hangul fillers (Lo), blank Braille (So), a tag (astral, Cf).
  for (
    const sep of ["\u034f", "\ufe0f", "\u3164", "\u2800", "\u115f", "\u1160", "\uffa0", "\u{e0020}"]
  ) {
    const split = [...PW].join(sep);
    assertEquals(store.maskText(`k: ${split}.`), "k: [secret:PW].", JSON.stringify(sep));
  }
  // Visible separators keep the text as it is (spaced out is a transform masking does not undo).
  assertEquals(store.maskText([...PW].join(" ")), [...PW].join(" "));
});

Deno.test("withoutFormatChars: offsets map back to the text", () => {
  const { stripped, at } = withoutFormatChars("a\u200bb\u200e\u200fc");
  assertEquals(stripped, "abc");
  assertEquals(at, [0, 2, 5, 6]);
  // An astral invisible character is two UTF-16 units.
  assertEquals(withoutFormatChars("a\u{e0020}b").at, [0, 3, 4]);
});

Deno.test("SecretStore: a 1 MB text with 140k format characters is masked where the value is", () => {
  // Cost is the bench's to measure (a CPU-time ratio here read the other test files' threads).
  const words = "the quick brown fox jumps over the lazy dog; notes 2 hunters [link] %20 ";
  const text = words.repeat(Math.ceil(1_000_000 / words.length)).slice(0, 1_000_000);
  const store = new SecretStore(new Map([["PW", PW], ["KEY", "sk-live-4f9a8b7c6d5e"]]));
  assertEquals(store.maskText(text), text);
  const zw = text.replaceAll(" ", " \u200b");
  const half = zw.length >> 1;
  const planted = `${zw.slice(0, half)} ${[...PW].join("\u200b")} ${zw.slice(half)}`;
  const masked = store.maskText(planted);
  assertEquals(masked, `${zw.slice(0, half)} [secret:PW] ${zw.slice(half)}`);
});
