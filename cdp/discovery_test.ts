import { assertEquals, assertThrows } from "../tests/_assert.ts";
import { BrowserNotFoundError, discoverChromium, findChromium } from "./discovery.ts";

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

Deno.test("findChromium() looks in browxai's browser cache after CHROME_PATH, before the system", () => {
  const cache = "/c/browsers";
  const shell =
    `${cache}/chrome-headless-shell/linux-156.0.8078.47/chrome-headless-shell-linux64/chrome-headless-shell`;
  const old =
    `${cache}/chrome-headless-shell/linux-99.0.1.2/chrome-headless-shell-linux64/chrome-headless-shell`;
  const chrome = `${cache}/chrome/linux-156.0.8078.47/chrome-linux64/chrome`;
  const files = [shell, old, chrome, "/usr/bin/chromium", "/x/chrome"];
  const listDirs = (p: string) =>
    p === `${cache}/chrome-headless-shell`
      ? ["linux-99.0.1.2", "linux-156.0.8078.47"]
      : p === `${cache}/chrome`
      ? ["linux-156.0.8078.47"]
      : [];
  const base = { exists: (p: string) => files.includes(p), listDirs, os: "linux" as const };
  const env = envOf({ BROWX_BROWSER_CACHE: cache, PATH: "" });
  assertEquals(findChromium({ ...base, env }), { path: shell, source: "cache" });
  // Headful: the headless shell cannot show a window, so the full chrome build is used.
  assertEquals(findChromium({ ...base, env, headful: true }).path, chrome);
  const withChromePath = envOf({ BROWX_BROWSER_CACHE: cache, CHROME_PATH: "/x/chrome" });
  assertEquals(findChromium({ ...base, env: withChromePath }).source, "CHROME_PATH");
  // The default cache folder is under XDG_CACHE_HOME.
  const xdg = envOf({ XDG_CACHE_HOME: "/c2", PATH: "" });
  const r = discoverChromium({ ...base, env: xdg });
  assertEquals(r.tried[0], {
    path: "/c2/browxai/browsers/chrome-headless-shell/<platform>-<build>",
    source: "cache",
    why: "nothing installed (browxai install-browser)",
  });
  assertEquals(r.found, { path: "/usr/bin/chromium", source: "standard" });
});

Deno.test("BROWX_BROWSER_SEARCH=cache-only hides the system's browsers", () => {
  const env = envOf({
    BROWX_BROWSER_SEARCH: "cache-only",
    BROWX_BROWSER_CACHE: "/c",
    PATH: "/bin",
  });
  const e = assertThrows(
    () =>
      findChromium({
        env,
        exists: (p) => p === "/usr/bin/chromium",
        listDirs: () => [],
        os: "linux",
      }),
    BrowserNotFoundError,
  );
  assertEquals(e.searched.includes("/usr/bin/chromium"), false);
  assertEquals(e.message.includes("browxai install-browser"), true);
  assertEquals(e.explicit, false);
});
