import { assertEquals } from "../tests/_assert.ts";
import {
  isWriteMethod,
  keysOnly,
  reportedUrl,
  shownUrl,
  withoutCredentials,
} from "./network_writes.ts";

Deno.test("isWriteMethod: every method but GET, HEAD, OPTIONS, TRACE, in any case", () => {
  for (const m of ["POST", "PUT", "PATCH", "DELETE", "post", "pAtCh", "MKCOL"]) {
    assertEquals(isWriteMethod(m), true, m);
  }
  for (const m of ["GET", "HEAD", "OPTIONS", "TRACE", "get", undefined]) {
    assertEquals(isWriteMethod(m), false, String(m));
  }
});

Deno.test("shownUrl: a write by its keys, a read without credential values", () => {
  const url = "https://a.test/p?token=s3cret&x=1&x=2#f";
  assertEquals(keysOnly(url), "https://a.test/p?token&x");
  assertEquals(shownUrl({ method: "POST", url }), "https://a.test/p?token&x");
  assertEquals(shownUrl({ method: "GET", url }), "https://a.test/p?token=…&x=1&x=2#f");
  assertEquals(
    shownUrl({ url: "https://a.test/s?q=shoes&page=2" }),
    "https://a.test/s?q=shoes&page=2",
  );
  assertEquals(
    withoutCredentials(
      "https://u:p@a.test/x;jsessionid=abc?email=a%40b.c&pw=hunter2&api_key=k&Password=x",
    ),
    "https://a.test/x;jsessionid=…?email=a%40b.c&pw=…&api_key=…&Password=…",
  );
  assertEquals(keysOnly("not a url?a=1"), "not a url");
  assertEquals(keysOnly("not a url;sid=1"), "not a url");
});

Deno.test("keysOnly: no value survives (bare query, matrix parameters, user info, fragment)", () => {
  assertEquals(keysOnly("https://a.test/p?SECRET"), "https://a.test/p?…");
  assertEquals(keysOnly("https://a.test/p?a=1&SECRET&b="), "https://a.test/p?a&…&b");
  assertEquals(
    keysOnly("https://a.test/x;jsessionid=SECRET/y;v=2;w?q=SECRET"),
    "https://a.test/x;jsessionid/y;v;w?q",
  );
  assertEquals(keysOnly("https://u:SECRET@a.test/p#t=SECRET"), "https://a.test/p");
  assertEquals(keysOnly("https://a.test/p?t%6Fken=SECRET&a+b=1"), "https://a.test/p?token&a b");
  assertEquals(keysOnly("https://a.test/p?"), "https://a.test/p");
});

Deno.test("reportedUrl: the one rule (a write's by keys, a read's as it is), cut to 200", () => {
  assertEquals(reportedUrl("https://a.test/p?sid=SECRET", "POST"), "https://a.test/p?sid");
  assertEquals(reportedUrl("https://a.test/p?q=shoes"), "https://a.test/p?q=shoes");
  assertEquals(reportedUrl("https://a.test/p?q=shoes", "GET"), "https://a.test/p?q=shoes");
  const long = "https://a.test/" + "y".repeat(500);
  assertEquals(reportedUrl(long), long.slice(0, 200) + "…");
  assertEquals(reportedUrl(long + "?k=v", "PUT"), long.slice(0, 200) + "…");
});
