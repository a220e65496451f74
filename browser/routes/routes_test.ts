import { assertEquals, assertIncludes, assertThrows, assertTrue } from "../../tests/_assert.ts";
import { cdpWildcard, MAX_ROUTES, MAX_ROUTES_BYTES, SessionRoutes } from "./routes.ts";
import { ToolError } from "../tool_error.ts";

const ok = { response: { status: 200, headers: [], body: "" } };

Deno.test("SessionRoutes: ** any, * no slash, ? one, the rest literal; the newest wins", () => {
  const routes = new SessionRoutes();
  routes.add("**/api/*", ok);
  routes.add("https://example.com/*.png", { abort: "Failed" });
  const table: Array<[string, string | undefined]> = [
    ["http://127.0.0.1:8000/api/data", "**/api/*"],
    ["http://127.0.0.1:8000/v1/api/data?x=1", "**/api/*"],
    ["http://127.0.0.1:8000/api/a/b", undefined],
    ["https://example.com/a.png", "https://example.com/*.png"],
    ["https://example.com/img/a.png", undefined],
    ["https://example.com/A.PNG", undefined],
    ["https://example.com/a.png.js", undefined],
  ];
  for (const [url, want] of table) assertEquals(routes.matching(url)?.pattern, want, url);
  routes.add("**", ok);
  assertEquals(routes.matching("http://127.0.0.1:8000/api/data")?.pattern, "**");
  // `?` is one character; `.` and other regex syntax are literal.
  routes.remove();
  routes.add("http://a.test/x?y", ok);
  assertEquals(routes.matching("http://a.test/x?y")?.pattern, "http://a.test/x?y");
  assertEquals(routes.matching("http://a.test/xzy")?.pattern, "http://a.test/x?y");
  assertEquals(routes.matching("http://a.test/xy"), undefined);
  routes.add("http://a.test/(a+)+$", ok);
  assertEquals(routes.matching("http://a.test/aaaa"), undefined);
  assertTrue(routes.matching("http://a.test/(a+)+$") !== undefined);
});

Deno.test("SessionRoutes: a glob that backtracks in V8 stays linear on RE2", () => {
  const routes = new SessionRoutes();
  routes.add("**a**a**a**a**a**a**a**a**a**a**a**a**b", ok);
  // A backtracking engine takes minutes on this; RE2 answers as it reads.
  assertEquals(routes.matching("http://x/" + "a".repeat(5000)), undefined);
  // A URL too long to scan within the budget never matches (no half-scanned verdict).
  routes.remove();
  routes.add("**", ok);
  assertEquals(routes.matching("http://x/" + "a".repeat(3_000_000)), undefined);
});

Deno.test("SessionRoutes: times, replace, remove, exempt targets, change notices", () => {
  const routes = new SessionRoutes();
  let changes = 0;
  routes.onChange(() => changes++);
  const once = routes.add("**/once", { ...ok, times: 1 });
  routes.add("**/once", { ...ok, times: 2 });
  assertEquals(routes.list().length, 1, "same pattern replaces");
  assertTrue(routes.list()[0] !== once);
  const r = routes.matching("http://x/once")!;
  routes.use(r);
  assertEquals(r.timesLeft, 1);
  assertEquals(r.hits, 1);
  routes.use(r);
  assertEquals(routes.list().length, 0, "spent routes go");
  assertEquals(changes, 3);
  routes.add("**", ok);
  routes.exempt("T1");
  assertEquals(routes.matching("http://x/", "T1"), undefined);
  assertTrue(routes.matching("http://x/", "T2") !== undefined);
  routes.unexempt("T1");
  assertTrue(routes.matching("http://x/", "T1") !== undefined);
  assertEquals(routes.remove("nope"), 0);
  assertEquals(routes.remove("**"), 1);
  for (let i = 0; i < MAX_ROUTES; i++) routes.add(`**/${i}`, ok);
  assertIncludes(
    assertThrows(() => routes.add("**/more", ok), ToolError).message,
    `${MAX_ROUTES} routes already`,
  );
  routes.add("**/0", ok);
  assertThrows(() => routes.add("x".repeat(2001), ok), ToolError);
});

Deno.test("SessionRoutes: events for results, CDP wildcard patterns", () => {
  const routes = new SessionRoutes();
  const mark = routes.lastSeq;
  routes.note({ url: "http://x/a", pattern: "**", action: "fulfilled", status: 200 });
  routes.note({ url: "http://x/b", pattern: "**", action: "refused", why: "w" });
  assertEquals(routes.since(mark).map((e) => e.url), ["http://x/a", "http://x/b"]);
  assertEquals(routes.since(routes.lastSeq), []);
  assertEquals(cdpWildcard("**/api/*"), "*/api/*");
  assertEquals(cdpWildcard("http://a/b\\c?d"), "http://a/b\\\\c?d");
  routes.add("**/api/*", ok);
  routes.add("*/api/**", ok);
  assertEquals(routes.cdpPatterns(), ["*/api/*"]);
});

Deno.test("SessionRoutes: the bytes all routes hold are capped; the one past it is refused", () => {
  const routes = new SessionRoutes();
  // About 1 MiB of body (base64: 4 chars per 3 bytes) and 10 bytes of header.
  const mib = "A".repeat(4 * 349_525);
  const big = {
    response: { status: 200, headers: [{ name: "X-A", value: "1234567" }], body: mib },
  };
  assertEquals(routes.add("**/0", big).bytes, 3 * 349_525 + 10);
  assertEquals(
    routes.add("**/x", { response: { status: 200, headers: [], body: "YQ==" } }).bytes,
    1,
  );
  const fit = Math.floor((MAX_ROUTES_BYTES - 1) / (3 * 349_525 + 10));
  for (let i = 1; i < fit; i++) routes.add(`**/${i}`, big);
  const before = routes.list().length;
  const e = assertThrows(() => routes.add("**/more", big), ToolError);
  assertIncludes(e.message, `at most ${MAX_ROUTES_BYTES} bytes`);
  assertEquals(routes.list().length, before, "the refused route is not added");
  // Replacing a route counts the new one instead of the old; an abort holds nothing.
  routes.add("**/0", big);
  routes.add("**/more", { abort: "Failed" });
  routes.remove("**/1");
  routes.add("**/more", big);
});
