import { assertEquals, assertIncludes, assertThrows, assertTrue } from "../tests/_assert.ts";
import { join } from "node:path";
import { parseCli, UsageError } from "./parse_cli.ts";

const env = (vars: Record<string, string>) => (n: string) => vars[n];

function usageError(fn: () => unknown): string {
  return (assertThrows(fn, UsageError) as Error).message;
}

Deno.test("peer flags map onto browxai's settings", () => {
  const cli = parseCli([
    "--viewport-size",
    "1280,720",
    "--proxy-server",
    "http://proxy:3128",
    "--proxy-bypass",
    ".example.com,localhost",
    "--ignore-https-errors",
    "--allowed-origins",
    "example.com;https://*.example.org:8443",
    "--blocked-origins",
    "ads.example.com",
    "--shared-browser-context",
    "--user-data-dir",
    "rel/profile",
  ], env({}));
  assertEquals(cli.browser.defaults.viewport, { width: 1280, height: 720 });
  assertEquals(cli.browser.launchArgs, [
    "--proxy-server=http://proxy:3128",
    "--proxy-bypass-list=.example.com;localhost",
    "--ignore-certificate-errors",
  ]);
  assertEquals(cli.config.allowedOrigins?.map((p) => p.source), [
    "example.com",
    "https://*.example.org:8443",
  ]);
  assertEquals(cli.config.blockedOrigins?.map((p) => p.source), ["ads.example.com"]);
  assertEquals(cli.browser.defaults.sharedContext, true);
  assertTrue(cli.browser.defaults.userDataDir!.endsWith("/rel/profile"));
  assertEquals(cli.browser.automationTells, false);
  assertEquals(cli.config.headful, false);
  assertEquals(parseCli(["--headed"], env({})).config.headful, true);
  assertEquals(parseCli(["--headless"], env({})).config.headful, false);
  assertEquals(parseCli([], env({ BROWX_AUTOMATION_TELLS: "1" })).browser.automationTells, true);
  assertEquals(parseCli(["--automation-tells"], env({})).browser.automationTells, true);
  const phone = parseCli(["--device", "iphone 15"], env({})).browser.defaults;
  assertEquals(phone.viewport, {
    width: 393,
    height: 659,
    deviceScaleFactor: 3,
    mobile: true,
    touch: true,
  });
  assertIncludes(phone.userAgent!, "iPhone");
});

Deno.test("bad peer flags are usage errors naming the flag", () => {
  assertIncludes(
    usageError(() => parseCli(["--viewport-size", "big"], env({}))),
    "--viewport-size",
  );
  assertIncludes(usageError(() => parseCli(["--device", "Nokia 3310"], env({}))), "iPhone 15");
  assertIncludes(usageError(() => parseCli(["--proxy-bypass", "x"], env({}))), "--proxy-server");
  assertIncludes(usageError(() => parseCli(["--headed", "--headless"], env({}))), "pick one");
  assertIncludes(
    usageError(() => parseCli(["--isolated", "--user-data-dir", "/tmp/x"], env({}))),
    "--isolated",
  );
  assertIncludes(
    usageError(() => parseCli(["--init-script", "/nonexistent.js"], env({}))),
    "--init-script",
  );
  assertIncludes(
    usageError(() => parseCli(["--blocked-origins", "*.com"], env({}))),
    "--blocked-origins",
  );
  assertIncludes(
    usageError(() => parseCli([], env({ BROWX_AUTOMATION_TELLS: "yes" }))),
    "BROWX_AUTOMATION_TELLS",
  );
});

Deno.test("--config: flags > file > environment; unknown keys named; BROWX_* settings kept", async () => {
  const dir = await Deno.makeTempDir({ prefix: "browxai-config-" });
  try {
    const file = join(dir, "c.json");
    await Deno.writeTextFile(
      file,
      JSON.stringify({
        viewportSize: "800x600",
        "proxy-server": "http://from-file:1",
        headless: true,
        initScript: [],
        userDataDir: "prof",
        allowedOrigins: ["a.example", "b.example"],
        BROWX_TOOLSETS: "core,storage",
        BROWX_CONFIG_READONLY: true,
        BROWX_HTTP_TOKEN: "t0ken",
      }),
    );
    const cli = parseCli(
      ["--config", file, "--viewport-size", "500x400", "--headed"],
      env({
        BROWX_TOOLSETS: "core",
        BROWX_CAPABILITIES: "read",
      }),
    );
    assertEquals(cli.browser.defaults.viewport, { width: 500, height: 400 });
    assertEquals(cli.browser.launchArgs, ["--proxy-server=http://from-file:1"]);
    assertEquals(cli.config.headful, true, "--headed on the command line over the file's headless");
    assertEquals(
      cli.config.toolsets,
      new Set(["core", "storage"]),
      "the file over the environment",
    );
    assertEquals(
      [...cli.config.capabilities],
      ["read"],
      "the environment where the file is silent",
    );
    assertEquals(cli.config.configReadonly, true);
    assertEquals(cli.browser.defaults.userDataDir, join(dir, "prof"), "relative to the file");
    assertEquals(cli.config.allowedOrigins?.map((p) => p.source), ["a.example", "b.example"]);
    assertEquals(cli.fileEnv, {
      BROWX_TOOLSETS: "core,storage",
      BROWX_CONFIG_READONLY: "1",
      BROWX_HTTP_TOKEN: "t0ken",
    });
    await Deno.writeTextFile(file, JSON.stringify({ viewport: "1x1", BROWX_NOPE: 1, help: true }));
    const m = usageError(() => parseCli(["--config", file], env({})));
    assertIncludes(m, `Unknown keys in --config "${file}": "viewport", "BROWX_NOPE", "help"`);
    await Deno.writeTextFile(file, JSON.stringify({ headless: "yes" }));
    assertIncludes(
      usageError(() => parseCli(["--config", file], env({}))),
      "headless (expected true or false)",
    );
    await Deno.writeTextFile(file, "[1]");
    assertIncludes(
      usageError(() => parseCli(["--config", file], env({}))),
      "expected a JSON object",
    );
    assertIncludes(
      usageError(() => parseCli(["--config", join(dir, "none.json")], env({}))),
      "Cannot read --config",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
