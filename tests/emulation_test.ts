/**
 * Device emulation end to end, over MCP stdio against real Chromium: `set_timezone`,
 * `set_locale`, `set_color_scheme`, `set_reduced_motion`, `set_user_agent` and `set_viewport`
 * observed from inside the page (Intl, Date, navigator.*, matchMedia, innerWidth) and in the
 * headers the fixture server saw, across a navigation, in a popup opened by the page (whose
 * first request already carries the overrides) and after the resets.
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { type McpHarness, startStdio } from "./_mcp.ts";
import { type FixtureServer, startFixtureServer } from "./fixtures/server.ts";
import { eventually } from "./_util.ts";

interface Probe {
  tz: string;
  offset: number;
  language: string;
  intlLocale: string;
  dark: boolean;
  reduce: boolean;
  ua: string;
  width: number;
  height: number;
  search: string;
  path: string;
}

const PROBE = `({
  tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
  offset: new Date(Date.UTC(2024, 0, 15)).getTimezoneOffset(),
  language: navigator.language,
  intlLocale: Intl.DateTimeFormat().resolvedOptions().locale,
  dark: matchMedia("(prefers-color-scheme: dark)").matches,
  reduce: matchMedia("(prefers-reduced-motion: reduce)").matches,
  ua: navigator.userAgent,
  width: innerWidth,
  height: innerHeight,
  search: location.search,
  path: location.pathname,
})`;

async function probe(mcp: McpHarness): Promise<Probe> {
  return (await mcp.ok("eval_js", { expression: PROBE })).value as Probe;
}

const UA = "BrowxaiTest/1.0 (emulation)";

/** Asserts the overrides set by the test (tz New York, de-DE, dark, reduce, UA, 500x400). */
function assertEmulated(p: Probe, where: string) {
  assertEquals(p.tz, "America/New_York", `${where}: timezone`);
  assertEquals(p.offset, 300, `${where}: Date offset`);
  assertEquals(p.language, "de-DE", `${where}: navigator.language`);
  assertEquals(p.intlLocale, "de-DE", `${where}: Intl locale`);
  assertEquals(p.dark, true, `${where}: dark`);
  assertEquals(p.reduce, true, `${where}: reduced motion`);
  assertEquals(p.ua, UA, `${where}: navigator.userAgent`);
  assertEquals([p.width, p.height], [500, 400], `${where}: viewport`);
}

/** The headers of the last request the fixture servers saw for `path`. */
function headersOf(fx: FixtureServer, path: string): Record<string, string> {
  const r = fx.requests.findLast((q) => q.path === path);
  assertTrue(r, `no request for ${path}`);
  return r.headers;
}

Deno.test("emulation: each knob seen by the page, across navigation, in a popup, and reset", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({
    env: {
      BROWX_TOOLSETS: "core,sessions,debug,emulation",
      BROWX_CAPABILITIES: "read,navigation,action,eval",
    },
  });
  try {
    await mcp.ok("navigate", { url: fx.url("popup.html"), snapshot: "none" });
    const before = await probe(mcp);
    const defaultUa = headersOf(fx, "/popup.html")["user-agent"]!;
    const defaultLanguage = headersOf(fx, "/popup.html")["accept-language"];
    assertTrue(defaultUa.includes("Chrome"), defaultUa);

    await t.step("set_timezone: result shape, Intl and Date", async () => {
      const r = await mcp.ok("set_timezone", { timezoneId: "America/New_York" });
      assertEquals(r.ok, true);
      assertEquals(r.session, "default");
      assertEquals(r.applied, { timezoneId: "America/New_York" });
      assertEquals((r.state as Record<string, unknown>).timezoneId, "America/New_York");
      assertEquals(r.warnings, []);
      // Links ICU knows pass too (Intl.supportedValuesOf lists canonical ids only), and an id
      // in other letter case comes back in ICU's.
      await mcp.ok("set_timezone", { timezoneId: "Asia/Kolkata" });
      assertEquals((await probe(mcp)).offset, -330);
      const folded = await mcp.ok("set_timezone", { timezoneId: "america/new_york" });
      assertEquals(folded.applied, { timezoneId: "America/New_York" });
      const p = await probe(mcp);
      assertEquals([p.tz, p.offset], ["America/New_York", 300]);
    });

    await t.step(
      "set_locale: canonical tag, navigator.language, Intl, Accept-Language",
      async () => {
        const r = await mcp.ok("set_locale", { locale: "de-de" });
        assertEquals(r.applied, { locale: "de-DE" });
        const p = await probe(mcp);
        assertEquals([p.language, p.intlLocale], ["de-DE", "de-DE"]);
        // The user agent is left as it was while only the locale is set.
        assertEquals(p.ua, before.ua);
      },
    );

    await t.step("set_color_scheme, set_reduced_motion: matchMedia", async () => {
      await mcp.ok("set_color_scheme", { scheme: "dark" });
      const r = await mcp.ok("set_reduced_motion", { on: true });
      const state = r.state as Record<string, unknown>;
      assertEquals([state.colorScheme, state.reducedMotion], ["dark", "reduce"]);
      const p = await probe(mcp);
      assertEquals([p.dark, p.reduce], [true, true]);
    });

    await t.step("set_user_agent and set_viewport (with scroll geometry)", async () => {
      await mcp.ok("set_user_agent", { userAgent: UA });
      const r = await mcp.ok("set_viewport", { width: 500, height: 400 });
      const g = r.geometry as Record<string, number>;
      assertEquals([g.innerWidth, g.innerHeight], [500, 400]);
      assertTrue(g.scrollWidth! >= 500 && g.scrollHeight! >= 400, JSON.stringify(g));
      assertEmulated(await probe(mcp), "after setting");
    });

    await t.step("across a navigation: page and request headers", async () => {
      await mcp.ok("navigate", { url: fx.url("basic.html?nav=1"), snapshot: "none" });
      assertEmulated(await probe(mcp), "after navigation");
      const h = headersOf(fx, "/basic.html?nav=1");
      assertEquals(h["user-agent"], UA);
      assertEquals(h["accept-language"], "de-DE,de;q=0.9");
    });

    await t.step(
      "a popup opened by the page has every override from its first request",
      async () => {
        await mcp.ok("navigate", { url: fx.url("popup.html"), snapshot: "none" });
        await mcp.ok("click", { selector: "#popup-button" });
        const req = await fx.waitForRequest((q) => q.path === "/basic.html?popup=1");
        assertEquals(req.headers["user-agent"], UA);
        assertEquals(req.headers["accept-language"], "de-DE,de;q=0.9");
        const p = await eventually(
          async () => {
            const p = await probe(mcp);
            return p.search === "?popup=1" && p;
          },
          5000,
          "the session to follow the popup",
        );
        assertEmulated(p, "in the popup");
      },
    );

    await t.step("re-applying replaces, in the popup and its opener", async () => {
      const r = await mcp.ok("set_timezone", { timezoneId: "Asia/Tokyo" });
      assertEquals((r.state as Record<string, unknown>).timezoneId, "Asia/Tokyo");
      assertEquals((await probe(mcp)).tz, "Asia/Tokyo");
      await mcp.ok("tabs", { action: "switch", index: 0 });
      const opener = await probe(mcp);
      assertEquals([opener.search, opener.tz], ["", "Asia/Tokyo"]);
    });

    await t.step("a noopener tab (target=_blank) gets them too", async () => {
      fx.requests.length = 0;
      await mcp.ok("click", { selector: "#new-tab-link" });
      const req = await fx.waitForRequest((q) => q.path === "/basic.html");
      assertEquals(req.headers["user-agent"], UA);
      const p = await eventually(
        async () => {
          const p = await probe(mcp);
          return p.path === "/basic.html" && p;
        },
        5000,
        "the session to follow the new tab",
      );
      assertEquals(p.search, "", "the session follows the new tab");
      assertEquals(p.tz, "Asia/Tokyo");
      assertEquals([p.language, p.ua, p.dark, p.width], ["de-DE", UA, true, 500]);
    });

    await t.step("resets: null and no-preference clear every knob", async () => {
      const tz = await mcp.call("set_timezone", { timezoneId: null });
      assertEquals((tz.structuredContent as Record<string, unknown>).reset, ["timezoneId"]);
      assertTrue(tz.content.some((c) => c.text?.includes('"reset":["timezoneId"]')), "in the text");
      await mcp.ok("set_locale", {}); // omitted: reset, as null
      await mcp.ok("set_color_scheme", { scheme: "no-preference" });
      await mcp.ok("set_reduced_motion", { on: false });
      await mcp.ok("set_user_agent", { userAgent: null });
      const r = await mcp.ok("set_viewport", { width: null });
      assertEquals(r.state, {
        timezoneId: null,
        locale: null,
        colorScheme: null,
        reducedMotion: null,
        userAgent: null,
        viewport: null,
        geolocation: null,
        permissions: {},
      });
      // The geometry of the reset, not of the override just cleared.
      const g = r.geometry as Record<string, number>;
      assertEquals([g.innerWidth, g.innerHeight], [before.width, before.height]);
      await mcp.ok("navigate", { url: fx.url("basic.html?reset=1"), snapshot: "none" });
      const p = await probe(mcp);
      assertEquals({ ...p, search: "", path: "" }, { ...before, search: "", path: "" });
      const h = headersOf(fx, "/basic.html?reset=1");
      assertEquals(h["user-agent"], defaultUa);
      assertEquals(h["accept-language"], defaultLanguage);
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
