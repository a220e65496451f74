import { assertEquals, assertIncludes, assertTrue } from "../../tests/_assert.ts";
import { dataShown, quoted } from "./send_question.ts";
import type { SendCandidate } from "../injected/form_types.ts";

const TO = "POST https://shop.test/donate";
const candidate = (entries: Array<[string, string]>, more: Partial<SendCandidate> = {}) => [
  { form: 0, by: null, to: TO, entries, ...more },
];

Deno.test("quoted: JSON quotes, invisible and control characters written out", () => {
  assertEquals(quoted('a "b"\n'), String.raw`"a \"b\"\n"`);
  assertEquals(quoted("\u200bamount"), String.raw`"\u200bamount"`);
  assertEquals(
    quoted("a\u00a0b\u2028c\u034fd\u{e0041}"),
    String.raw`"a\u00a0b\u2028c\u034fd\u{e0041}"`,
  );
  assertEquals(quoted("plain words"), `"plain words"`);
  const by = dataShown(candidate([], { by: 'button#go "Donate\u200b $5"' }), (s) => s);
  assertEquals(by, String.raw`form 1 by button#go "Donate\u200b $5": ${TO} (no fields)`);
});

Deno.test("dataShown: every field when few; masks before it cuts", () => {
  const mask = (s: string) => s.replaceAll("Hunter2SecretXyz", "[secret:PW]");
  const long = "x".repeat(50) + "Hunter2SecretXyz";
  const shown = dataShown(
    candidate([["a", "1"], ["pin", "p"], ["note", long], ["f", "\u0000file:c.txt"]], {
      secret: ["pin"],
      hidden: ["a"],
    }),
    mask,
  )!;
  assertEquals(
    shown,
    `form 1: ${TO} (4 fields: "a": "1" (hidden), "pin": ••••, "note": "${
      "x".repeat(50)
    }[secret:PW"…, "f": file "c.txt")`,
  );
  assertEquals(dataShown(candidate([]), mask), `form 1: ${TO} (no fields)`);
  assertEquals(dataShown(undefined, mask), undefined);
});

Deno.test("dataShown: too many fields: hidden and once-only values first, the rest counted", () => {
  const pad = Array.from({ length: 40 }, (_, i) => [`f${i}`, "ok"] as [string, string]);
  const shown = dataShown(
    candidate([...pad, ["amount", "99999"]], { hidden: [...pad.map(([n]) => n), "amount"] }),
    (s) => s,
  )!;
  assertIncludes(shown, `"amount": "99999" (hidden)`);
  assertIncludes(shown, "41 fields; 24 shown");
  assertIncludes(shown, `17 NOT SHOWN (17 of them hidden; values "ok" ×17)`);
  // In form order: the padding shown before the amount.
  assertTrue(shown.indexOf(`"f0"`) < shown.indexOf(`"amount"`), shown);
});
