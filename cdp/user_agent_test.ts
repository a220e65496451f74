import { assertEquals, assertTrue } from "../tests/_assert.ts";
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
  assertEquals(await chromiumMajor("/nonexistent/chromium"), undefined);
  assertEquals(await chromiumMajor("/bin/true"), undefined);
});
