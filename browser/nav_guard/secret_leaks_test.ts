import { assertEquals } from "../../tests/_assert.ts";
import { SecretStore } from "../../policy/secrets.ts";
import { percentDecoded, secretLeakFinder } from "./secret_leaks.ts";
import { approvedSend } from "./approved_data.ts";

const A = "http://127.0.0.1:1";
const store = new SecretStore(new Map([["PW", "Hunter2/Sec ret"]]), {
  origins: new Map([["PW", [A]]]),
});

Deno.test("percentDecoded: each %xx once, either case, UTF-8; stray % kept", () => {
  assertEquals(percentDecoded("%48unter2%2fx"), "Hunter2/x");
  assertEquals(percentDecoded("%2541"), "%41");
  assertEquals(percentDecoded("100% %zz %C3%A9"), "100% %zz é");
  assertEquals(percentDecoded("%ff"), "\ufffd");
});

Deno.test("secretLeakFinder: URL, body and headers, as sent or percent-decoded", () => {
  const find = secretLeakFinder(store)!;
  const B = "http://localhost:2";
  assertEquals(find(`${B}/x?%48unter2%2fSec%20ret`, ""), "PW");
  assertEquals(find(`${B}/x`, "k=Hunter2%2fSec+ret"), "PW");
  assertEquals(find(`${B}/x`, "", { "x-steal": "Hunter2/Sec ret" }), "PW");
  assertEquals(find(`${B}/x`, "", { "x-steal": "%48unter2%2FSec%20ret" }), "PW");
  assertEquals(find(`${B}/x`, "", { "x-other": "Hunter2" }), undefined);
  // Percent-encoded twice; hex of its UTF-8 bytes; UTF-16 bytes as the guard reads a body.
  assertEquals(find(`${B}/x?%2548unter2%252fSec%2520ret`, ""), "PW");
  const hex = [...new TextEncoder().encode("Hunter2/Sec ret")].map((b) =>
    b.toString(16).padStart(2, "0")
  ).join("");
  assertEquals(find(`${B}/x?h=${hex}`, ""), "PW");
  assertEquals(find(`${B}/x`, `{"h":"${hex.toUpperCase()}"}`), "PW");
  const le = new Uint8Array([..."Hunter2/Sec ret"].flatMap((c) => [c.charCodeAt(0), 0]));
  assertEquals(find(`${B}/x`, new TextDecoder().decode(le)), "PW");
  const be = new Uint8Array([..."Hunter2/Sec ret"].flatMap((c) => [0, c.charCodeAt(0)]));
  assertEquals(find(`${B}/x`, "xx" + new TextDecoder().decode(be) + "yy"), "PW");
  // A WebSocket: ws: to its origin's host is its origin; elsewhere it is caught.
  assertEquals(find("ws://127.0.0.1:1/s?v=Hunter2/Sec ret", ""), undefined);
  assertEquals(find("wss://localhost:2/s", '{"v":"Hunter2/Sec ret"}'), "PW");
  // Its own origin may have it, in any form.
  assertEquals(find(`${A}/x?%48unter2`, "", { "x-steal": "Hunter2/Sec ret" }), undefined);
});

Deno.test("approvedSend: POST by its whole URL, GET but its query, fragments aside", () => {
  const ok = ["POST http://h/donate?amount=5", "GET http://h/find?in=docs"];
  assertEquals(approvedSend(ok, "POST", "http://h/donate?amount=5#x"), true);
  assertEquals(approvedSend(ok, "post", "http://h/donate?amount=5"), true);
  assertEquals(approvedSend(ok, "POST", "http://h/donate?amount=99999"), false);
  assertEquals(approvedSend(ok, "POST", "http://h/transfer"), false);
  assertEquals(approvedSend(ok, "GET", "http://h/find?q=cats"), true);
  assertEquals(approvedSend(ok, "GET", "http://h/donate?amount=5"), false);
  assertEquals(approvedSend([], "POST", "http://h/donate?amount=5"), false);
});

Deno.test("secretLeakFinder: a value in a host name, lower-cased or punycoded by the URL parser (red team s17 F4)", () => {
  const store = new SecretStore(
    new Map([["PW", "Hunter2Secret"], ["U", "Ünïcode1"]]),
    { origins: new Map([["PW", ["http://127.0.0.1:1"]], ["U", ["http://127.0.0.1:1"]]]) },
  );
  const find = secretLeakFinder(store)!;
  assertEquals(find("http://hunter2secret.localhost:2/x?img", ""), "PW");
  assertEquals(find(new URL("http://Ünïcode1.attacker.example/").href, ""), "U");
  assertEquals(find("http://other.localhost:2/", "HUNTER2SECRET"), "PW");
  assertEquals(find("http://127.0.0.1:1/?q=hunter2secret", ""), undefined);
});
