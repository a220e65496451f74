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
    // An allowlist: WebRTC sends no UDP but through a proxy (policyLaunchArgs).
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
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
  // A scheme Chromium has no proxy for fails at start, not at the first navigate.
  assertIncludes(usageError(() => parseCli(["--proxy-server", "ftp://x:21"], env({}))), "socks5");
  assertEquals(
    parseCli(["--proxy-server", "socks5://127.0.0.1:1080"], env({})).browser.launchArgs,
    ["--proxy-server=socks5://127.0.0.1:1080"],
  );
});

Deno.test("--config: BROWX_CONFIG names the file too; @playwright/mcp's nested file is named as such", async () => {
  const dir = await Deno.makeTempDir({ prefix: "browxai-config-" });
  try {
    const flat = join(dir, "flat.json");
    await Deno.writeTextFile(flat, JSON.stringify({ "viewport-size": "800x600" }));
    // For launchers that keep --config for themselves (the MCP Inspector).
    assertEquals(
      parseCli([], env({ BROWX_CONFIG: flat })).browser.defaults.viewport,
      { width: 800, height: 600 },
    );
    const peer = join(dir, "peer.json");
    await Deno.writeTextFile(
      peer,
      JSON.stringify({ browser: { launchOptions: { headless: true } } }),
    );
    assertIncludes(usageError(() => parseCli(["--config", peer], env({}))), "@playwright/mcp");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
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
    assertEquals(cli.browser.launchArgs, [
      "--proxy-server=http://from-file:1",
      "--webrtc-ip-handling-policy=disable_non_proxied_udp", // the file's allowlist
    ]);
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

Deno.test("--config over a stricter environment: each policy override warned; empty refused as in the environment; inherited names are unknown keys", async () => {
  const dir = await Deno.makeTempDir({ prefix: "browxai-config-" });
  try {
    const file = join(dir, "c.json");
    // The red team's file: more capabilities, no origin list, no confirm hooks.
    await Deno.writeTextFile(
      file,
      JSON.stringify({
        BROWX_CAPABILITIES: ["read", "navigation", "action", "eval", "self-approval"],
        BROWX_ALLOWED_ORIGINS: "",
        BROWX_CONFIRM_REQUIRED: "",
        BROWX_TOOLSETS: "all",
      }),
    );
    const strict = {
      BROWX_CAPABILITIES: "read",
      BROWX_ALLOWED_ORIGINS: "example.com",
      BROWX_CONFIRM_REQUIRED: "submit,file_upload",
      BROWX_TOOLSETS: "all",
    };
    const cli = parseCli(["--config", file], env(strict));
    // flags > file > environment still holds...
    assertTrue(cli.config.capabilities.has("eval"));
    // ...but never silently: one warning per overridden setting, both values shown.
    const told = cli.warnings.filter((w) => w.startsWith("--config overrides"));
    assertEquals(told.length, 3, told.join("\n"));
    assertIncludes(
      told.join("\n"),
      'BROWX_CAPABILITIES from the environment: "read" -> "read,navigation,action,eval,self-approval"',
    );
    assertIncludes(
      told.join("\n"),
      'BROWX_ALLOWED_ORIGINS from the environment: "example.com" -> ""',
    );
    assertIncludes(told.join("\n"), "BROWX_CONFIRM_REQUIRED");
    // A flag on the command line wins over both: no warning for that one.
    const flagged = parseCli(["--config", file, "--allowed-origins", "x.example"], env(strict));
    assertEquals(flagged.warnings.some((w) => w.includes("BROWX_ALLOWED_ORIGINS")), false);
    // Long values are shortened.
    await Deno.writeTextFile(file, JSON.stringify({ BROWX_TOOLSETS: "core,".repeat(40) + "core" }));
    const long = parseCli(["--config", file], env({ BROWX_TOOLSETS: "core" })).warnings;
    assertTrue(long.some((w) => w.includes("...") && w.length < 200), long.join("\n"));

    // An empty value is refused in the file as in the environment, with the same error.
    for (const name of ["BROWX_CAPABILITIES", "BROWX_HTTP_MAX_CLIENTS", "BROWX_WORKSPACE"]) {
      await Deno.writeTextFile(file, JSON.stringify({ [name]: "" }));
      assertEquals(
        usageError(() => parseCli(["--config", file], env({}))),
        usageError(() => parseCli([], env({ [name]: "" }))),
      );
    }

    // Keys inherited from Object.prototype are unknown keys, not flags (nor a crash).
    for (const key of ["toString", "constructor", "__proto__", "hasOwnProperty"]) {
      await Deno.writeTextFile(file, `{"${key}":"x"}`);
      assertIncludes(
        usageError(() => parseCli(["--config", file], env({}))),
        `Unknown key in --config "${file}": "${key}"`,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("BROWX_HTTP_BROWSERS: per-client by default, shared on request, anything else refused", () => {
  assertEquals(parseCli(["--http"], env({})).httpBrowsers, "per-client");
  assertEquals(
    parseCli(["--http"], env({ BROWX_HTTP_BROWSERS: "shared" })).httpBrowsers,
    "shared",
  );
  assertIncludes(
    usageError(() => parseCli(["--http"], env({ BROWX_HTTP_BROWSERS: "one-each" }))),
    'Invalid BROWX_HTTP_BROWSERS "one-each": expected per-client or shared',
  );
});
