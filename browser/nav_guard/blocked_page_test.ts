import { assertEquals } from "../../tests/_assert.ts";
import { blockedPage, noteOrigin } from "./blocked_page.ts";

Deno.test("blockedPage names the origin and the reason, escaped, in ASCII", () => {
  const page = blockedPage("http://ex.com:81/a?b=<c>", 'site "x" <not> approved é');
  assertEquals(
    page,
    "<!doctype html><title>Blocked by policy</title><p>blocked by policy: http://ex.com:81 " +
      "(site &#34;x&#34; &#60;not&#62; approved &#233;)</p>",
  );
  // btoa takes it (Fetch.fulfillRequest wants base64).
  assertEquals(typeof btoa(blockedPage("https://xn--bcher-kva.de/", "ü 😀")), "string");
});

Deno.test("noteOrigin: the origin, a hostless URL's scheme, a bad URL cut short", () => {
  assertEquals(noteOrigin("https://a.b:8443/x#y"), "https://a.b:8443");
  assertEquals(noteOrigin("data:text/html,hi"), "data:");
  assertEquals(noteOrigin("not a url"), "not a url");
});
