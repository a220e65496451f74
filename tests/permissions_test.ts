/**
 * `grant_permissions` and `set_geolocation` end to end, over MCP stdio against real Chromium:
 * the position a page reads with and without a grant, the page-side prompts asking the human
 * (MCP elicitation answered by a real client) before a granted permission is used — yes, no,
 * remembered per origin, in a popup. The human-gate-override refusal, bad inputs, clearing and
 * grant changes are in permissions_gate_test.ts.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { eventually } from "./_util.ts";
import { position } from "./_geolocation.ts";

type R = Record<string, unknown>;

/** watchPosition's first answer, then clearWatch. */
const WATCH = `new Promise((resolve) => {
  const t = setTimeout(() => resolve({ timeout: true }), 3000);
  const id = navigator.geolocation.watchPosition(
    (p) => { clearTimeout(t); navigator.geolocation.clearWatch(id); resolve({ lat: p.coords.latitude }); },
    (e) => { clearTimeout(t); navigator.geolocation.clearWatch(id); resolve({ code: e.code }); },
  );
})`;

Deno.test("permissions: geolocation with and without a grant; the page asks the human", async (t) => {
  const fx = await startFixtureServer();
  const asked: string[] = [];
  let answer = true;
  const mcp = await startStdio({
    env: {
      BROWX_TOOLSETS: "core,sessions,debug,emulation",
      BROWX_CAPABILITIES: "read,navigation,action,eval,human",
    },
    elicit(params) {
      // With `human`, each new site is asked too (site_visit): those are yes, not counted.
      if (!params.message.includes("page_permission")) {
        return { action: "accept", content: { approve: true } };
      }
      asked.push(params.message);
      return { action: "accept", content: { approve: answer } };
    },
  });
  try {
    await mcp.ok("navigate", { url: fx.url("popup.html"), snapshot: "none" });

    await t.step("set_geolocation without a grant warns; the page is refused", async () => {
      const r = await mcp.ok("set_geolocation", { latitude: 40.7128, longitude: -74.006 });
      assertIncludes(JSON.stringify(r.warnings), "no geolocation grant");
      assertEquals((r.state as R).geolocation, {
        latitude: 40.7128,
        longitude: -74.006,
        accuracy: 0,
      });
      assertEquals((r.applied as R).geolocation, {
        latitude: 40.7128,
        longitude: -74.006,
        accuracy: 0,
      });
      const p = await position(mcp);
      assertTrue(p.code === 1 || p.timeout === true, JSON.stringify(p));
      assertEquals(asked.length, 0, "no grant: nothing to ask");
    });

    await t.step(
      "grant for the page's origin: the human is asked once, yes gives the position",
      async () => {
        const r = await mcp.ok("grant_permissions", { permissions: ["geolocation"] });
        assertEquals(r.applied, { permissions: ["geolocation"], origin: fx.origin });
        assertEquals((r.state as R).permissions, { [fx.origin]: ["geolocation"] });
        assertEquals(r.warnings, []);
        const g = await mcp.ok("set_geolocation", {
          latitude: 48.85,
          longitude: 2.35,
          accuracy: 12,
        });
        assertEquals(g.warnings, [], "a grant is recorded: no warning");
        assertEquals(await position(mcp), { lat: 48.85, lon: 2.35, acc: 12 });
        assertEquals(asked.length, 1);
        assertIncludes(asked[0]!, "page_permission");
        assertIncludes(asked[0]!, "geolocation");
        assertIncludes(asked[0]!, fx.origin);
        // Remembered for the origin: a second read and watchPosition do not ask again.
        assertEquals((await position(mcp)).lat, 48.85);
        assertEquals((await mcp.ok("eval_js", { expression: WATCH })).value, { lat: 48.85 });
        assertEquals(asked.length, 1);
      },
    );

    await t.step("across a navigation and in a popup opened by the page", async () => {
      await mcp.ok("navigate", { url: fx.url("popup.html?again=1"), snapshot: "none" });
      assertEquals((await position(mcp)).lat, 48.85);
      await mcp.ok("click", { selector: "#popup-button" });
      let p: R = {};
      await eventually(
        async () =>
          (await mcp.ok("eval_js", { expression: "location.search" })).value === "?popup=1",
        5000,
        "the session to follow the popup",
      );
      // The popup's first document reuses the about:blank window window.open made: wrapped too.
      const wrapped = (await mcp.ok("eval_js", {
        expression: "String(Geolocation.prototype.getCurrentPosition).includes('ask(')",
      })).value;
      assertEquals(wrapped, true, "the popup's geolocation is wrapped");
      p = await position(mcp);
      assertEquals(
        p,
        { lat: 48.85, lon: 2.35, acc: 12 },
        "the popup has the override and the grant",
      );
      assertEquals(asked.length, 1, "same origin, remembered");
      const tabs = (await mcp.ok("tabs", { action: "list" })).tabs as R[];
      await mcp.ok("tabs", { action: "close", index: tabs.findIndex((x) => x.active) });
    });

    await t.step("a new grant forgets the answers; a no refuses the page", async () => {
      answer = false;
      await mcp.ok("grant_permissions", { permissions: ["geolocation", "clipboard-read"] });
      assertEquals(await position(mcp), { code: 1 });
      assertEquals(asked.length, 2);
      const w = (await mcp.ok("eval_js", { expression: WATCH })).value;
      assertEquals(w, { code: 1 }, "remembered no");
      assertEquals(asked.length, 2);
      const clip = (await mcp.ok("eval_js", {
        expression: "navigator.clipboard.readText().then(() => 'read', (e) => e.name)",
      })).value;
      assertEquals(clip, "NotAllowedError");
      assertEquals(asked.length, 3);
      assertIncludes(asked[2]!, "clipboard-read");
      // Each answer has its audit line.
      const lines: R[] = [];
      for await (const f of Deno.readDir(`${mcp.workspace}/audit`)) {
        const text = await Deno.readTextFile(`${mcp.workspace}/audit/${f.name}`);
        lines.push(...text.trim().split("\n").map((l) => JSON.parse(l) as R));
      }
      const page = lines.filter((l) => String(l.tool).startsWith("page:"));
      assertEquals(
        page.map((l) => [l.tool, l.decision, l.origin]),
        [
          ["page:getCurrentPosition", "asked", fx.origin],
          ["page:getCurrentPosition", "refused", fx.origin],
          ["page:readText", "refused", fx.origin],
        ],
      );
      assertEquals((page[0]!.confirms as R[])[0]!.by, "elicitation");
    });

    await t.step(
      "a page that answers itself, or asks from about:blank, gets no position",
      async () => {
        // The human said no; the wrappers are the page's own to tamper with, but the grant was
        // never given to the browser: going around them meets the browser's own no.
        const self = (await mcp.ok("eval_js", {
          expression: `new Promise((resolve) => {
          const t = setTimeout(() => resolve({ timeout: true }), 3000);
          navigator.geolocation.getCurrentPosition(
            (p) => { clearTimeout(t); resolve({ lat: p.coords.latitude }); },
            (e) => { clearTimeout(t); resolve({ code: e.code }); });
          const key = Object.getOwnPropertyNames(globalThis).find((n) => n.startsWith("__browxAnswer_"));
          for (let i = 1; i < 100; i++) globalThis[key](i, true);
        })`,
        })).value as R;
        assertEquals(self.lat, undefined, JSON.stringify(self));
        const framed = (await mcp.ok("eval_js", {
          expression: `new Promise((resolve) => {
          const f = document.createElement("iframe");
          f.srcdoc = "<p>inner</p>";
          f.onload = () => {
            const t = setTimeout(() => resolve({ timeout: true }), 3000);
            f.contentWindow.navigator.geolocation.getCurrentPosition(
              (p) => { clearTimeout(t); resolve({ lat: p.coords.latitude }); },
              (e) => { clearTimeout(t); resolve({ code: e.code }); });
          };
          document.body.append(f);
        })`,
        })).value as R;
        assertEquals(framed.lat, undefined, JSON.stringify(framed));
      },
    );

    await t.step(
      "getUserMedia asks for camera and microphone; a no is NotAllowedError",
      async () => {
        const gum = "navigator.mediaDevices.getUserMedia({ video: true, audio: true })" +
          ".then(() => 'stream', (e) => e.name)";
        answer = false;
        await mcp.ok("grant_permissions", { permissions: ["camera", "microphone"] });
        assertEquals((await mcp.ok("eval_js", { expression: gum })).value, "NotAllowedError");
        const two = asked.slice(-2).join("\n");
        assertIncludes(two, "camera");
        assertIncludes(two, "microphone");
        answer = true;
        await mcp.ok("grant_permissions", { permissions: ["camera", "microphone"] });
        // Yes: the browser's own answer (this machine has no camera: NotFoundError, not a denial).
        const yes = (await mcp.ok("eval_js", { expression: gum })).value;
        assertTrue(yes !== "NotAllowedError", String(yes));
      },
    );

    await t.step(
      "clearing is context-wide; the page goes back to the browser's own answer",
      async () => {
        const r = await mcp.ok("grant_permissions", { permissions: [], origin: fx.origin });
        assertEquals((r.state as R).permissions, {});
        assertIncludes(String(r.note), "every origin");
        const before = asked.length;
        const p = await position(mcp);
        assertTrue(p.code === 1 || p.timeout === true, JSON.stringify(p));
        assertEquals(asked.length, before, "no grant: not asked");
        // Omitting the value resets too (seed 000): set_geolocation({}), grant_permissions({}).
        await mcp.ok("set_geolocation", { latitude: 3, longitude: 4 });
        const reset = await mcp.ok("set_geolocation", {});
        assertEquals((reset.state as R).geolocation, null);
        await mcp.ok("grant_permissions", { permissions: ["geolocation"] });
        const cleared = await mcp.ok("grant_permissions", {});
        assertEquals([(cleared.state as R).permissions, cleared.note], [{}, undefined]);
      },
    );
  } finally {
    await mcp.close();
    await fx.close();
  }
});
