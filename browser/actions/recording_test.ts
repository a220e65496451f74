import { assertEquals } from "../../tests/_assert.ts";
import { loadWarning } from "./recording.ts";

Deno.test("loadWarning: Chromium's error page names the failed request; 4xx/5xx the status", () => {
  const error = "chrome-error://chromewebdata/";
  assertEquals(
    loadWarning(error, undefined, {
      url: "http://nowhere.invalid/",
      errorText: "net::ERR_NAME_NOT_RESOLVED",
    }),
    "the page failed to load (net::ERR_NAME_NOT_RESOLVED for http://nowhere.invalid/): the tab shows Chromium's error page, not the site",
  );
  assertEquals(
    loadWarning(error, undefined, undefined),
    "the page failed to load: the tab shows Chromium's error page, not the site",
  );
  const page = "http://127.0.0.1:8000/x";
  assertEquals(
    loadWarning(page, { status: 404, statusText: "Not Found" }, undefined),
    "the server answered 404 Not Found",
  );
  // HTTP/2 sends no status text: the common ones are named, others by code only.
  assertEquals(
    loadWarning(page, { status: 503 }, undefined),
    "the server answered 503 Service Unavailable",
  );
  assertEquals(loadWarning(page, { status: 418 }, undefined), "the server answered 418");
  assertEquals(loadWarning(page, { status: 200, statusText: "OK" }, undefined), undefined);
  assertEquals(loadWarning(page, { status: 302 }, undefined), undefined);
  assertEquals(loadWarning(page, undefined, undefined), undefined);
});
