import { assertEquals } from "../tests/_assert.ts";
import { originOf, siteOf } from "./hosts.ts";

Deno.test("originOf: the origin; opaque ones by the option; undefined for a bad URL", () => {
  assertEquals(originOf("http://127.0.0.1:8080/a?b=c"), "http://127.0.0.1:8080");
  assertEquals(originOf("https://a.b:8443/x#y"), "https://a.b:8443");
  assertEquals(originOf("blob:https://example.com/0c8e-11"), "https://example.com");
  for (const url of ["data:text/plain,hi", "about:blank", "javascript:void 0"]) {
    assertEquals(originOf(url), "null", url);
    assertEquals(originOf(url, { opaque: "null" }), "null", url);
    assertEquals(originOf(url, { opaque: "scheme" }), url.slice(0, url.indexOf(":") + 1), url);
    assertEquals(originOf(url, { opaque: "none" }), undefined, url);
  }
  for (const opaque of ["null", "scheme", "none"] as const) {
    assertEquals(originOf("not a url", { opaque }), undefined);
    assertEquals(originOf("", { opaque }), undefined);
  }
});

Deno.test("siteOf: a loopback name is its host and port, with or without a trailing dot", () => {
  // Before: `a.b.localhost.` and `c.b.localhost.` were both the site "b.localhost", any port.
  assertEquals(siteOf("http://a.b.localhost.:5000/"), "a.b.localhost:5000");
  assertEquals(siteOf("http://c.b.localhost.:6000/"), "c.b.localhost:6000");
  assertEquals(siteOf("http://localhost.:7000/"), siteOf("http://localhost:7000/"));
  assertEquals(siteOf("http://0.0.0.0:7000/"), "0.0.0.0:7000");
  assertEquals(siteOf("https://docs.example.co.uk./x"), "example.co.uk");
});
