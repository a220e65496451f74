import { assertEquals, assertTrue } from "../tests/_assert.ts";
import { join } from "node:path";
import { findChromium } from "./discovery.ts";
import { chromeUserAgent, chromiumMajor } from "./user_agent.ts";

Deno.test("chromeUserAgent: Chrome's reduced user agent, per OS, no HeadlessChrome", () => {
  assertEquals(
    chromeUserAgent(156, "linux"),
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
  );
  assertTrue(chromeUserAgent(120, "darwin").includes("(Macintosh; Intel Mac OS X 10_15_7)"));
  assertTrue(chromeUserAgent(120, "windows").includes("(Windows NT 10.0; Win64; x64)"));
});

Deno.test("chromiumMajor: undefined for an executable that is not there, or prints no version", async () => {
  assertEquals(await chromiumMajor("/nonexistent/chromium", { cacheFile: undefined }), undefined);
  assertEquals(await chromiumMajor("/bin/true", { cacheFile: undefined }), undefined);
});

Deno.test("chromiumMajor: a binary's version is kept in the cache file while its size and mtime stay", async () => {
  const dir = await Deno.makeTempDir({ prefix: "browxai-ua-" });
  const cacheFile = join(dir, "sub", "versions.json");
  try {
    const chromium = findChromium().path;
    const major = await chromiumMajor(chromium, { cacheFile });
    assertTrue(major !== undefined && major > 100, `a major version, got ${major}`);
    const info = await Deno.stat(chromium);
    assertEquals(JSON.parse(await Deno.readTextFile(cacheFile))[chromium], {
      size: info.size,
      mtimeMs: info.mtime!.getTime(),
      major,
    });
    // Read from the cache, not asked: /bin/true prints no version, its entry says 999.
    const t = await Deno.stat("/bin/true");
    const entry = { size: t.size, mtimeMs: t.mtime!.getTime(), major: 999 };
    await Deno.writeTextFile(cacheFile, JSON.stringify({ "/bin/true": entry }));
    assertEquals(await chromiumMajor("/bin/true", { cacheFile }), 999);
    // Another mtime (the binary was replaced): asked again.
    await Deno.writeTextFile(
      cacheFile,
      JSON.stringify({ "/bin/true": { ...entry, mtimeMs: entry.mtimeMs - 1000 } }),
    );
    assertEquals(await chromiumMajor("/bin/true", { cacheFile }), undefined);
    // A script is never taken from the cache (the binary it runs may change under it).
    const script = join(dir, "chromium.sh");
    await Deno.writeTextFile(script, "#!/bin/sh\necho 'Chromium 1.2.3.4'\n", { mode: 0o755 });
    const s = await Deno.stat(script);
    await Deno.writeTextFile(
      cacheFile,
      JSON.stringify({ [script]: { size: s.size, mtimeMs: s.mtime!.getTime(), major: 999 } }),
    );
    assertEquals(await chromiumMajor(script, { cacheFile }), undefined);
    // A planted entry whose major is no whole number (a header injection, Infinity, an
    // object; red team): asked again (/bin/true prints none), never put in a user agent.
    for (const bad of ["156.0.0.0 Safari/537.36\r\nX-Injected: yes", 1e400, { a: 1 }, 1.5, -3]) {
      await Deno.writeTextFile(
        cacheFile,
        JSON.stringify({ "/bin/true": { ...entry, major: bad } }),
      );
      assertEquals(await chromiumMajor("/bin/true", { cacheFile }), undefined, String(bad));
    }
    // A garbage cache file is asked past, not trusted.
    await Deno.writeTextFile(cacheFile, "not json");
    assertEquals(await chromiumMajor(chromium, { cacheFile }), major);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
