/**
 * `grant_permissions` end to end, the gates: grants without a prompt need human-gate-override
 * (no channel is a no), bad inputs, and a grant change (or clearing) takes back what earlier
 * yeses gave the browser (the position a page reads and the prompts: permissions_test.ts).
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { eventually } from "./_util.ts";
import { position } from "./_geolocation.ts";

type R = Record<string, unknown>;

Deno.test("permissions: grants without a prompt need human-gate-override; no channel is a no", async (t) => {
  const fx = await startFixtureServer();
  const plain = await startStdio({
    env: {
      BROWX_TOOLSETS: "core,sessions,debug,emulation",
      BROWX_CAPABILITIES: "read,navigation,action,eval",
    },
  });
  const override = await startStdio({
    env: {
      BROWX_TOOLSETS: "core,sessions,debug,emulation",
      BROWX_CAPABILITIES: "read,navigation,action,eval,human-gate-override",
    },
  });
  try {
    await plain.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    await override.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });

    await t.step(
      "notifications are refused without the capability, and nothing is granted",
      async () => {
        const r = await plain.call("grant_permissions", {
          permissions: ["geolocation", "notifications"],
        });
        assertTrue(r.isError);
        assertEquals(r.structuredContent!.requiredCapability, "human-gate-override");
        assertIncludes(textOf(r), "notifications");
        const n = (await plain.ok("eval_js", {
          expression: "navigator.permissions.query({ name: 'geolocation' }).then((s) => s.state)",
        })).value;
        assertTrue(n !== "granted", String(n));
      },
    );

    await t.step("with human-gate-override the page sees the grant", async () => {
      const r = await override.ok("grant_permissions", { permissions: ["notifications"] });
      assertEquals((r.state as R).permissions, { [fx.origin]: ["notifications"] });
      const n = (await override.ok("eval_js", { expression: "Notification.permission" })).value;
      assertEquals(n, "granted");
    });

    await t.step(
      "a granted permission with no human channel to ask is refused to the page",
      async () => {
        await plain.ok("grant_permissions", { permissions: ["geolocation"] });
        await plain.ok("set_geolocation", { latitude: 1, longitude: 2 });
        assertEquals(await position(plain), { code: 1 });
      },
    );

    await t.step("bad inputs", async () => {
      const cases: [string, R, string][] = [
        ["grant_permissions", { permissions: ["telepathy"] }, 'Unknown permission "telepathy"'],
        [
          "grant_permissions",
          { permissions: ["geolocation"], origin: "not a url" },
          "Invalid origin",
        ],
        [
          "grant_permissions",
          { permissions: ["geolocation"], origin: "data:text/html,x" },
          "has no origin",
        ],
        ["grant_permissions", { permissions: "geolocation" }, "permissions"],
        ["set_geolocation", { latitude: 91, longitude: 0 }, "latitude"],
        ["set_geolocation", { latitude: 10, longitude: -181 }, "longitude"],
        ["set_geolocation", { latitude: 10 }, "needs longitude"],
        ["set_geolocation", { longitude: 10 }, "needs latitude"],
        ["grant_permissions", { permissions: ["__proto__"] }, 'Unknown permission "__proto__"'],
        [
          "grant_permissions",
          { permissions: ["camera"], origin: "http://a.example" },
          "secure origin",
        ],
        [
          "grant_permissions",
          { permissions: ["camera"], origin: "https://*.example.com" },
          "wildcards",
        ],
        ["set_locale", { locale: "x".repeat(100_000) }, "longer than 64"],
        ["set_user_agent", { userAgent: "a\u0000b" }, "no control characters"],
        [
          "set_viewport",
          { width: 500, height: 500, deviceScaleFactor: 1e308 },
          "deviceScaleFactor",
        ],
        ["set_geolocation", { latitude: 1, longitude: 1, accuracy: -5 }, "accuracy"],
      ];
      for (const [tool, args, text] of cases) {
        const r = await plain.call(tool, args);
        assertTrue(r.isError, `${tool} ${JSON.stringify(args).slice(0, 200)}`);
        assertIncludes(textOf(r), text);
        assertTrue(textOf(r).length < 2000, "a huge argument is not echoed back");
      }
      // Nothing above changed the session's state.
      const s = await plain.ok("set_geolocation", { latitude: 1, longitude: 2 });
      assertEquals((s.state as R).permissions, { [fx.origin]: ["geolocation"] });
    });

    await t.step("a grant for one origin keeps what was granted to every origin", async () => {
      await override.ok("tabs", { action: "new" });
      const all = await override.ok("grant_permissions", { permissions: ["notifications"] });
      assertIncludes(String(all.note), "every origin");
      const tabs = (await override.ok("tabs", { action: "list" })).tabs as R[];
      await override.ok("tabs", { action: "close", index: tabs.findIndex((x) => x.active) });
      const r = await override.ok("grant_permissions", { permissions: ["midi"] });
      assertEquals((r.state as R).permissions, { "": ["notifications"], [fx.origin]: ["midi"] });
      const states = (await override.ok("eval_js", {
        expression: `Promise.all(["notifications", "midi", "geolocation"].map((name) =>
          navigator.permissions.query({ name }).then((s) => s.state)))`,
      })).value;
      // Browser.grantPermissions denies what an origin's set leaves out.
      assertEquals(states, ["granted", "granted", "denied"]);
    });

    await t.step(
      "camera, microphone, geolocation, clipboard reach the browser only on a yes",
      async () => {
        // plain has no human channel: its geolocation grant was recorded, never given.
        const state = (await plain.ok("eval_js", {
          expression: "navigator.permissions.query({ name: 'geolocation' }).then((s) => s.state)",
        })).value;
        assertTrue(state !== "granted", String(state));
      },
    );
  } finally {
    await plain.close();
    await override.close();
    await fx.close();
  }
});

Deno.test("permissions: a grant change takes back what earlier yeses gave the browser", async (t) => {
  const fx = await startFixtureServer();
  let answer: () => Promise<boolean> = () => Promise.resolve(true);
  let asked = 0;
  const mcp = await startStdio({
    env: {
      BROWX_TOOLSETS: "core,sessions,debug,emulation",
      BROWX_CAPABILITIES: "read,navigation,action,eval,human",
    },
    async elicit(params) {
      if (!params.message.includes("page_permission")) {
        return { action: "accept", content: { approve: true } };
      }
      asked++;
      return { action: "accept", content: { approve: await answer() } };
    },
  });
  const granted = async () =>
    (await mcp.ok("eval_js", {
      expression: "navigator.permissions.query({ name: 'geolocation' }).then((s) => s.state)",
    })).value;
  try {
    await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    await mcp.ok("set_geolocation", { latitude: 5, longitude: 6 });

    await t.step("a yes, then another grant: the browser no longer holds the first", async () => {
      await mcp.ok("grant_permissions", { permissions: ["geolocation"] });
      assertEquals((await position(mcp)).lat, 5);
      assertEquals(await granted(), "granted");
      await mcp.ok("grant_permissions", { permissions: ["clipboard-read"] });
      assertTrue(await granted() !== "granted", "the yes went with the grant it answered");
    });

    await t.step("a yes that comes after the grants were cleared grants nothing", async () => {
      await mcp.ok("grant_permissions", { permissions: ["geolocation"] });
      let release!: (yes: boolean) => void;
      const held = new Promise<boolean>((r) => release = r);
      answer = () => held;
      const before = asked;
      const reading = position(mcp);
      // The question is with the human; meanwhile the agent clears every grant.
      await eventually(() => asked !== before, 2500, "the question");
      assertEquals(asked, before + 1);
      const cleared = await mcp.ok("grant_permissions", { permissions: [] });
      assertEquals((cleared.state as R).permissions, {});
      release(true);
      const p = await reading;
      assertEquals(p.lat, undefined, JSON.stringify(p));
      assertTrue(await granted() !== "granted", "the late yes gave the browser nothing");
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
