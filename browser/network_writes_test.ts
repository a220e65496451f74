import { assertEquals } from "../tests/_assert.ts";
import { isWriteMethod, keysOnly, shownUrl } from "./network_writes.ts";

Deno.test("isWriteMethod: POST, PUT, PATCH, DELETE", () => {
  for (const m of ["POST", "PUT", "PATCH", "DELETE"]) assertEquals(isWriteMethod(m), true, m);
  for (const m of ["GET", "HEAD", "OPTIONS", "post"]) assertEquals(isWriteMethod(m), false, m);
});

Deno.test("shownUrl: a write by its keys, a read as it is", () => {
  const url = "https://a.test/p?token=s3cret&x=1&x=2#f";
  assertEquals(keysOnly(url), "https://a.test/p?token&x");
  assertEquals(shownUrl({ method: "POST", url }), "https://a.test/p?token&x");
  assertEquals(shownUrl({ method: "GET", url }), url);
  assertEquals(keysOnly("not a url?a=1"), "not a url");
});
