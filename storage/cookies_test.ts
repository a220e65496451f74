/**
 * The pure parts of `cookies.ts` and `web_storage.ts`: the URL filter, the CDP parameters
 * of a cookie and their refusals, the delete filter, origins of web storage.
 */
import { assertEquals, assertThrows, assertTrue } from "../tests/_assert.ts";
import { type Cookie, CookieError, cookieMatchesFilter, cookieParam, toCookie } from "./cookies.ts";
import { cookieMatchesUrl, filterCookies, mostSpecific } from "./cookie_match.ts";
import { webStorageOrigin } from "./web_storage.ts";

const cookie = (over: Partial<Cookie>): Cookie => ({
  name: "c",
  value: "v",
  domain: "example.com",
  path: "/",
  expires: -1,
  httpOnly: false,
  secure: false,
  ...over,
});

Deno.test("cookieMatchesUrl: host-only, domain cookies, paths, secure", () => {
  const u = (s: string) => new URL(s);
  const hostOnly = cookie({ domain: "example.com" });
  assertTrue(cookieMatchesUrl(hostOnly, u("http://example.com/x")));
  assertTrue(!cookieMatchesUrl(hostOnly, u("http://www.example.com/")), "host-only");
  const domain = cookie({ domain: ".example.com" });
  assertTrue(cookieMatchesUrl(domain, u("http://example.com/")));
  assertTrue(cookieMatchesUrl(domain, u("http://a.b.example.com/")));
  assertTrue(!cookieMatchesUrl(domain, u("http://badexample.com/")));
  const path = cookie({ path: "/app" });
  assertTrue(cookieMatchesUrl(path, u("http://example.com/app")));
  assertTrue(cookieMatchesUrl(path, u("http://example.com/app/x")));
  assertTrue(!cookieMatchesUrl(path, u("http://example.com/application")));
  assertTrue(!cookieMatchesUrl(path, u("http://example.com/")));
  assertTrue(cookieMatchesUrl(cookie({ path: "/app/" }), u("http://example.com/app/x")));
  const secure = cookie({ secure: true });
  assertTrue(cookieMatchesUrl(secure, u("https://example.com/")));
  assertTrue(!cookieMatchesUrl(secure, u("http://example.com/")));
  assertTrue(
    cookieMatchesUrl(cookie({ domain: "localhost", secure: true }), u("http://localhost:8/")),
  );
  assertTrue(cookieMatchesUrl(cookie({ domain: "127.0.0.1" }), u("http://127.0.0.1:9/")), "ports");
  assertTrue(cookieMatchesUrl(cookie({ domain: "Example.COM" }), u("http://example.com/")));
});

Deno.test("filterCookies: union over urls, all without urls", () => {
  const a = cookie({ name: "a", domain: "127.0.0.1" });
  const b = cookie({ name: "b", domain: "localhost" });
  const c = cookie({ name: "c", domain: "localhost", path: "/deep" });
  const all = [a, b, c];
  assertEquals(filterCookies(all, []).map((x) => x.name), ["a", "b", "c"]);
  assertEquals(filterCookies(all, [new URL("http://127.0.0.1:1/")]).map((x) => x.name), ["a"]);
  assertEquals(
    filterCookies(all, [new URL("http://127.0.0.1:1/"), new URL("http://localhost:2/deep/x")])
      .map((x) => x.name),
    ["a", "b", "c"],
  );
});

Deno.test("mostSpecific: longest path, then longest domain", () => {
  const picked = mostSpecific([
    cookie({ value: "1", domain: ".example.com" }),
    cookie({ value: "2", path: "/a" }),
    cookie({ value: "3", domain: "www.example.com" }),
  ]);
  assertEquals(picked?.value, "2");
  assertEquals(
    mostSpecific([cookie({ value: "1", domain: ".example.com" }), cookie({ value: "2" })])?.value,
    "1",
  );
  assertEquals(mostSpecific([]), undefined);
});

Deno.test("cookieParam: url form derives domain, path and secure (Playwright's rules)", () => {
  assertEquals(cookieParam({ name: "n", value: "v", url: "https://app.example.com/a/b?q" }), {
    name: "n",
    value: "v",
    url: "https://app.example.com/a/",
    path: "/a/",
    secure: true,
  });
  const p = cookieParam({
    name: "n",
    value: "v",
    url: "http://127.0.0.1:8080",
    expires: 2000000000,
    httpOnly: true,
    sameSite: "Strict",
  });
  assertEquals(p.path, "/");
  assertEquals(p.url, "http://127.0.0.1:8080/");
  assertEquals(p.secure, false);
  assertEquals([p.expires, p.httpOnly, p.sameSite], [2000000000, true, "Strict"]);
  assertEquals(
    cookieParam({ name: "n", value: "v", url: "http://x/", expires: -1 }).expires,
    undefined,
  );
  assertEquals(cookieParam({ name: "n", value: "v", url: "http://x/", secure: true }).secure, true);
});

Deno.test("cookieParam: domain + path form", () => {
  assertEquals(cookieParam({ name: "n", value: "v", domain: ".example.com", path: "/x" }), {
    name: "n",
    value: "v",
    domain: ".example.com",
    path: "/x",
  });
});

Deno.test("cookieParam: refusals name the problem", () => {
  const bad: Array<[Parameters<typeof cookieParam>[0], string]> = [
    [{ name: "n", value: "v" }, "needs url, or domain and path"],
    [{ name: "n", value: "v", domain: "example.com" }, "needs path"],
    [{ name: "n", value: "v", path: "/" }, "needs domain"],
    [{ name: "n", value: "v", url: "http://x/", domain: "x" }, "both url and domain"],
    [{ name: "n", value: "v", url: "http://x/", path: "/" }, "both url and path"],
    [{ name: "n", value: "v", url: "example.com" }, "absolute URL"],
    [{ name: "n", value: "v", url: "about:blank" }, "http(s)"],
    [{ name: "n", value: "v", url: "file:///etc/passwd" }, "http(s)"],
    [{ name: "n", value: "v", domain: "x", path: "rel" }, 'must start with "/"'],
    [{ name: "n", value: "v", domain: ".", path: "/" }, "Invalid domain"],
    [{ name: "n", value: "v", url: "http://x/", expires: -5 }, "Invalid expires"],
    [{ name: "n", value: "v", url: "http://x/", expires: 1e15 }, "Invalid expires"],
    [{ name: "", value: "v", url: "http://x/" }, "needs a name"],
  ];
  for (const [init, expect] of bad) {
    const e = assertThrows(() => cookieParam(init), CookieError);
    assertTrue(e.message.includes(expect), `${JSON.stringify(init)}: ${e.message}`);
    assertTrue(e.hint.length > 0);
  }
});

Deno.test("cookieMatchesFilter: name, then url or exact domain / path", () => {
  const c = cookie({ domain: ".example.com", path: "/a" });
  assertTrue(cookieMatchesFilter(c, { name: "c" }));
  assertTrue(!cookieMatchesFilter(c, { name: "d" }));
  assertTrue(cookieMatchesFilter(c, { name: "c", url: "http://www.example.com/a/b" }));
  assertTrue(!cookieMatchesFilter(c, { name: "c", url: "http://www.example.com/" }));
  assertTrue(cookieMatchesFilter(c, { name: "c", domain: "example.com" }), "leading dot ignored");
  assertTrue(cookieMatchesFilter(c, { name: "c", domain: ".example.com", path: "/a" }));
  assertTrue(!cookieMatchesFilter(c, { name: "c", path: "/" }));
});

Deno.test("toCookie: Playwright's shape, session cookies at -1", () => {
  const raw = {
    name: "n",
    value: "v",
    domain: "d",
    path: "/",
    expires: 123.5,
    size: 2,
    httpOnly: true,
    secure: false,
    session: false,
    priority: "Medium",
    sourceScheme: "NonSecure",
    sourcePort: 80,
  } as const;
  assertEquals(toCookie(raw), {
    name: "n",
    value: "v",
    domain: "d",
    path: "/",
    expires: 123.5,
    httpOnly: true,
    secure: false,
  });
  assertEquals(toCookie({ ...raw, session: true, expires: -1, sameSite: "Lax" }).expires, -1);
  assertEquals(toCookie({ ...raw, sameSite: "Lax" }).sameSite, "Lax");
});

Deno.test("webStorageOrigin: http(s) documents only", () => {
  assertEquals(webStorageOrigin("http://127.0.0.1:8/x?y#z"), "http://127.0.0.1:8");
  assertEquals(webStorageOrigin("https://example.com/"), "https://example.com");
  assertEquals(webStorageOrigin("http://127.0.0.1:8/^0https://b.com"), "http://127.0.0.1:8");
  for (const u of ["about:blank", "data:text/html,x", "file:///x", "chrome-error://x/", "", "x"]) {
    assertEquals(webStorageOrigin(u), undefined, u);
  }
});
