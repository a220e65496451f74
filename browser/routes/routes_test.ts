import { assertEquals, assertThrows, assertTrue } from "../../tests/_assert.ts";
import { cdpWildcard, MAX_ROUTES, SessionRoutes } from "./routes.ts";
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
  assertThrows(() => routes.add("**/more", ok), RangeError);
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
