import { assertEquals } from "../../tests/_assert.ts";
import { dataChanges, sentEntries } from "./approved_data.ts";
import type { SendCandidate } from "../injected/form_types.ts";

const TO = "POST https://shop.test/donate";
const URL_ = "https://shop.test/donate";

Deno.test("sentEntries: the body as its content type says, a GET's query", () => {
  const form = "application/x-www-form-urlencoded";
  assertEquals(sentEntries("POST", URL_, "a=1&b=x+y%0D%0Az", form), [["a", "1"], [
    "b",
    "x y\r\nz",
  ]]);
  assertEquals(sentEntries("GET", `${URL_}?q=cats&q=dogs`, "", undefined), [["q", "cats"], [
    "q",
    "dogs",
  ]]);
  assertEquals(sentEntries("POST", URL_, "a=1\r\nb=2=3\r\n", "text/plain"), [["a", "1"], [
    "b",
    "2=3",
  ]]);
  const multi = `--XX\r\nContent-Disposition: form-data; name="a%22b"\r\n\r\nv\r\n--XX\r\n` +
    `Content-Disposition: form-data; name="f"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\nbody\r\n--XX--\r\n`;
  assertEquals(sentEntries("POST", URL_, multi, "multipart/form-data; boundary=XX"), [
    ['a"b', "v"],
    ["f", "\u0000file:notes.txt"],
  ]);
  assertEquals(sentEntries("POST", URL_, "{}", "application/json"), undefined);
});

Deno.test("dataChanges: exactly the approved data, or the fields that differ (no values)", () => {
  const approved: SendCandidate[] = [
    { form: 0, by: "button#go", to: TO, entries: [["note", "a\nb"], ["amount", "5"]] },
    { form: 0, by: null, to: TO, entries: [["note", "a\nb"]] },
  ];
  const check = (entries: Array<[string, string]> | undefined, url = URL_) =>
    dataChanges(approved, { method: "POST", url, entries });
  assertEquals(check([["note", "a\r\nb"], ["amount", "5"]]), undefined);
  assertEquals(check([["note", "a\nb"]]), undefined); // a script's requestSubmit()
  assertEquals(check([["note", "a\nb"], ["amount", "99999"]]), ['"amount" has another value']);
  assertEquals(check([["note", "a\nb"], ["amount", "5"], ["to", "x"]]), ['"to" added']);
  assertEquals(check([["amount", "5"], ["note", "a\nb"]]), ["the fields are in another order"]);
  assertEquals(check(undefined), ["its data could not be read to compare"]);
  assertEquals(check([["note", "a\nb"]], "https://shop.test/other"), [
    "it went where none of the approved forms sends",
  ]);
  // An image button's click coordinates are not the page's to approve.
  const image: SendCandidate[] = [{ form: 0, by: "x", to: TO, entries: [], image: "pay" }];
  assertEquals(
    dataChanges(image, { method: "POST", url: URL_, entries: [["pay.x", "3"], ["pay.y", "9"]] }),
    undefined,
  );
});
