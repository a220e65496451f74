import { assertEquals, assertIncludes, assertThrows } from "../tests/_assert.ts";
import {
  allowlistAllows,
  cookieReachesBlocked,
  isHostless,
  parseAllowedOrigins,
  siteDecision,
} from "./sites.ts";

Deno.test("parseAllowedOrigins: patterns and bad entries", () => {
  assertEquals(parseAllowedOrigins(undefined), []);
  assertEquals(parseAllowedOrigins(" , "), []);
  const [a, b, c, d] = parseAllowedOrigins(
    "Example.com,*.docs.example.org,https://127.0.0.1:8443,*",
  );
  assertEquals([a!.host, a!.subdomains, a!.scheme, a!.port], [
    "example.com",
    false,
    undefined,
    undefined,
  ]);
  assertEquals([b!.host, b!.subdomains], ["docs.example.org", true]);
  assertEquals([c!.scheme, c!.host, c!.port], ["https", "127.0.0.1", "8443"]);
  assertEquals(d!.host, "*");
  for (const bad of ["http://", "exa mple.com", "example.com/path", "host:99999", "a,b c"]) {
    assertIncludes(
      assertThrows(() => parseAllowedOrigins(bad), RangeError).message,
      "not a host pattern",
    );
  }
});

Deno.test("parseAllowedOrigins: a wildcard needs a domain name, at least a registrable one", () => {
  const registrable = (h: string) => (["com", "co.uk"].includes(h) ? null : h);
  for (const bad of ["*.0.0.1", "*.1", "https://*.168.1.1:8080", "*.example.42"]) {
    assertIncludes(
      assertThrows(() => parseAllowedOrigins(bad, registrable), RangeError).message,
      "not an IP address",
    );
  }
  for (const bad of ["*.com", "*.co.uk", "*.lan"]) {
    assertIncludes(
      assertThrows(() => parseAllowedOrigins(bad, registrable), RangeError).message,
      "at least a registrable domain",
    );
  }
  const ok = parseAllowedOrigins("*.example.com,*.localhost,*.corp.internal,*", registrable);
  assertEquals(ok.map((p) => p.host), ["example.com", "localhost", "corp.internal", "*"]);
});

Deno.test("allowlistAllows: a table of URLs", () => {
  const list = parseAllowedOrigins(
    "example.com,*.docs.example.org,https://127.0.0.1:8443,file://*",
  );
  const table: Array<[string, boolean]> = [
    ["https://example.com/a", true],
    ["http://example.com:8080/", true],
    ["https://www.example.com/", false],
    ["https://docs.example.org/", false],
    ["https://api.docs.example.org/x", true],
    ["https://evil-docs.example.org.attacker.net/", false],
    ["https://127.0.0.1:8443/", true],
    ["http://127.0.0.1:8443/", false],
    ["https://127.0.0.1/", false],
    ["about:blank", true],
    ["file:///etc/passwd", true],
    ["data:text/html,hi", false],
    ["javascript:alert(1)", false],
    ["ftp://example.com/", false],
    ["not a url", false],
  ];
  for (const [url, want] of table) assertEquals(allowlistAllows(url, list), want, url);
  assertEquals(allowlistAllows("data:text/html,x", []), true);
  assertEquals(allowlistAllows("https://any.where/", parseAllowedOrigins("*")), true);
  assertEquals(allowlistAllows("data:text/html,x", parseAllowedOrigins("*")), false);
});

Deno.test("siteDecision: same site, approved, new, hostless", () => {
  const approved = new Set(["example.org"]);
  const table: Array<[string, string | null, string | null, string]> = [
    ["https://a.example.com/", "example.com", "example.com", "same-site"],
    ["https://example.org/", "example.org", "example.com", "approved"],
    ["https://example.net/", "example.net", "example.com", "ask"],
    ["https://example.net/", "example.net", null, "ask"],
    ["file:///tmp/x.html", null, "example.com", "ask"],
    ["data:text/html,x", null, null, "ask"],
    ["about:blank", null, "example.com", "same-site"],
  ];
  for (const [url, site, current, want] of table) {
    assertEquals(siteDecision(url, site, current, approved), want, url);
  }
  assertEquals([isHostless("blob:null/1"), isHostless("https://x/")], [true, false]);
});

Deno.test("cookieReachesBlocked: subdomains of a domain cookie, every port of its host", () => {
  const blocked = parseAllowedOrigins("shop.red.example,*.evil.example,localhost:8080");
  const hit = (domain: string) => cookieReachesBlocked(domain, blocked)?.source;
  assertEquals(hit(".red.example"), "shop.red.example");
  assertEquals(hit("red.example"), undefined, "a host-only cookie stays on its host");
  assertEquals(hit("shop.red.example"), "shop.red.example");
  assertEquals(hit(".evil.example"), "*.evil.example");
  assertEquals(hit("evil.example"), undefined, "*.x blocks the names under x, not x");
  assertEquals(hit("a.evil.example"), "*.evil.example");
  assertEquals(hit("localhost"), "localhost:8080", "a cookie reaches every port");
  assertEquals(hit(".example"), "shop.red.example");
  assertEquals(hit("green.example"), undefined);
  assertEquals(cookieReachesBlocked("a.b", parseAllowedOrigins("*"))?.source, "*");
});
