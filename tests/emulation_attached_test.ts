/**
 * Device emulation beyond the first tab: an out-of-process iframe (cross-site, so its own
 * target) sees every knob from its first script and follows a change made later; and an
 * attached session (the person's own browser) gets the override with a warning on every
 * emulation result that it stays in that browser.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { type McpHarness, startStdio } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { Browser } from "../cdp/browser.ts";
import { findChromium } from "../cdp/discovery.ts";
import { ATTACHED_WARNING } from "../browser/sessions/emulation.ts";

type R = Record<string, unknown>;

/** Adds a cross-origin iframe of emulation-probe.html and collects what it reports. */
const ADD_FRAME = (src: string) =>
  `new Promise((resolve) => {
  globalThis.reports = [];
  addEventListener("message", (e) => globalThis.reports.push(e.data));
  const f = document.createElement("iframe");
  f.id = "probe";
  f.src = ${JSON.stringify(src)};
  document.body.append(f);
  const t = setInterval(() => {
    if (globalThis.reports.length) { clearInterval(t); resolve(globalThis.reports[0]); }
  }, 50);
})`;

const PROBE_AGAIN = `new Promise((resolve) => {
  const n = globalThis.reports.length;
  document.getElementById("probe").contentWindow.postMessage("probe", "*");
  const t = setInterval(() => {
    if (globalThis.reports.length > n) { clearInterval(t); resolve(globalThis.reports[n]); }
  }, 50);
})`;

Deno.test("emulation: an out-of-process iframe has every knob from its first script", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({
    env: {
      BROWX_TOOLSETS: "core,sessions,debug,emulation",
      BROWX_CAPABILITIES: "read,navigation,action,eval",
    },
  });
  try {
    await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    await mcp.ok("set_timezone", { timezoneId: "Asia/Tokyo" });
    await mcp.ok("set_locale", { locale: "fr-FR" });
    await mcp.ok("set_color_scheme", { scheme: "dark" });
    const first = (await mcp.ok("eval_js", {
      expression: ADD_FRAME(fx.crossUrl("emulation-probe.html")),
    })).value as R;
    assertEquals(
      [first.when, first.tz, first.language, first.dark],
      ["load", "Asia/Tokyo", "fr-FR", true],
    );
    await mcp.ok("set_timezone", { timezoneId: "Europe/Berlin" });
    const later = (await mcp.ok("eval_js", { expression: PROBE_AGAIN })).value as R;
    assertEquals([later.when, later.tz, later.language], ["probe", "Europe/Berlin", "fr-FR"]);
  } finally {
    await mcp.close();
    await fx.close();
  }
});

async function probeTz(mcp: McpHarness, session: string): Promise<string> {
  return (await mcp.ok("eval_js", {
    session,
    expression: "Intl.DateTimeFormat().resolvedOptions().timeZone",
  })).value as string;
}

Deno.test("emulation: an attached session warns that the override stays in the person's browser", async () => {
  const fx = await startFixtureServer();
  const theirs = await Browser.launch({ executablePath: findChromium().path, debugPort: true });
  const mcp = await startStdio({
    env: {
      BROWX_TOOLSETS: "core,sessions,debug,emulation",
      BROWX_CAPABILITIES: "read,navigation,action,eval,byob-attach",
    },
  });
  try {
    await theirs.newPage(undefined, fx.url("basic.html"));
    await mcp.ok("open_session", {
      session: "theirs",
      mode: "attached",
      endpoint: theirs.wsEndpoint!,
    });
    const calls: [string, R][] = [
      ["set_timezone", { timezoneId: "America/Sao_Paulo" }],
      ["set_locale", { locale: "pt-BR" }],
      ["set_geolocation", { latitude: -23.5, longitude: -46.6 }],
      ["set_color_scheme", { scheme: "light" }],
      ["set_reduced_motion", { on: true }],
      ["set_user_agent", { userAgent: "Attached/1.0" }],
      ["set_viewport", { width: 700, height: 500 }],
      ["grant_permissions", { permissions: ["geolocation"], origin: fx.origin }],
    ];
    for (const [tool, args] of calls) {
      const r = await mcp.ok(tool, { ...args, session: "theirs" });
      assertTrue(
        (r.warnings as string[]).includes(ATTACHED_WARNING),
        `${tool}: ${JSON.stringify(r)}`,
      );
    }
    assertEquals(await probeTz(mcp, "theirs"), "America/Sao_Paulo");
    const t = await mcp.ok("tab_visibility", {
      session: "theirs",
      state: "background",
      holdMs: 200,
    });
    assertIncludes(JSON.stringify(t.warnings), "attached session");
    await mcp.ok("close_session", { session: "theirs" });
  } finally {
    await mcp.close();
    await theirs.close();
    await fx.close();
  }
});
