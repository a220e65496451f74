import { assertEquals, assertThrows } from "../tests/_assert.ts";
import { BrowserNotFoundError, findChromium } from "./discovery.ts";

function envOf(vars: Record<string, string>) {
  return (n: string) => vars[n];
}

Deno.test("findChromium() prefers the explicit path, then BROWX_BROWSER, then CHROME_PATH", () => {
  const exists = (p: string) => ["/x/flag", "/x/env", "/x/chrome", "/usr/bin/chromium"].includes(p);
  const env = envOf({ BROWX_BROWSER: "/x/env", CHROME_PATH: "/x/chrome", PATH: "" });
  assertEquals(findChromium({ explicitPath: "/x/flag", env, exists, os: "linux" }).source, "flag");
  assertEquals(findChromium({ env, exists, os: "linux" }).path, "/x/env");
  const env2 = envOf({ CHROME_PATH: "/x/chrome", PATH: "" });
  assertEquals(findChromium({ env: env2, exists, os: "linux" }).source, "CHROME_PATH");
  assertEquals(findChromium({ env: envOf({}), exists, os: "linux" }).path, "/usr/bin/chromium");
});

Deno.test("findChromium() refuses a missing explicit path instead of falling back", () => {
  const e = assertThrows(
    () => findChromium({ explicitPath: "/nope", env: envOf({}), exists: () => false, os: "linux" }),
    BrowserNotFoundError,
  );
  assertEquals(e.searched, ["/nope (from --browser)"]);
});

Deno.test("findChromium() lists every place searched and how to fix it", () => {
  const e = assertThrows(
    () =>
      findChromium({ env: envOf({ PATH: "/bin", HOME: "/h" }), exists: () => false, os: "linux" }),
    BrowserNotFoundError,
  );
  assertEquals(e.searched.includes("/usr/bin/google-chrome-stable"), true);
  assertEquals(e.searched.includes("/bin/chromium"), true);
  assertEquals(e.message.includes("--browser PATH"), true);
});

Deno.test("findChromium() knows macOS and Windows locations", () => {
  const mac = findChromium({
    env: envOf({}),
    os: "darwin",
    exists: (p) => p === "/Applications/Chromium.app/Contents/MacOS/Chromium",
  });
  assertEquals(mac.source, "standard");
  const win = findChromium({
    env: envOf({ PROGRAMFILES: "C:\\PF" }),
    os: "windows",
    exists: (p) => p === "C:\\PF\\Google\\Chrome\\Application\\chrome.exe",
  });
  assertEquals(win.source, "standard");
});
