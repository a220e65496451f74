/**
 * Storage layers 1 and 3 end to end, over MCP stdio against real Chromium and pages on the
 * two fixture origins (127.0.0.1 and localhost): `dump_storage_state` finds both origins
 * (not only the open page's), a dump injected into a new session is what the app sees
 * (`storage-state.html` shows `document.cookie` and a localStorage item), replace vs merge,
 * paths outside the workspace refused, and `auth_save` → `open_session({ authState })`
 * starts logged in.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { Browser } from "../cdp/browser.ts";
import { findChromium } from "../cdp/discovery.ts";

type R = Record<string, unknown>;
type State = {
  cookies: { name: string; value: string }[];
  origins: { origin: string; localStorage: { name: string; value: string }[] }[];
};

Deno.test("storage: dump, inject, auth states through MCP", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({
    env: { BROWX_TOOLSETS: "core,sessions,storage", BROWX_CAPABILITIES: "read,navigation,action" },
  });
  /** What the fixture page shows in a session at a URL. */
  const shown = async (url: string, session?: string) => {
    await mcp.ok("navigate", { url, snapshot: "none", ...(session ? { session } : {}) });
    return textOf(await mcp.call("snapshot", session ? { session } : {}));
  };
  const names = async (session: string) =>
    ((await mcp.ok("cookies_list", { session })).cookies as { name: string }[])
      .map((c) => c.name).sort();
  try {
    await t.step("dump covers every origin with data, inline and to a file", async () => {
      await mcp.ok("cookies_set", { name: "user", value: "ann", url: fx.url("/") });
      await mcp.ok("navigate", { url: fx.crossUrl("storage-state.html"), snapshot: "none" });
      await mcp.ok("cookies_set", { name: "b", value: "2", url: fx.crossUrl("/") });
      await mcp.ok("localstorage_set", { key: "k", value: "cross" });
      await mcp.ok("navigate", { url: fx.url("storage-state.html"), snapshot: "none" });
      await mcp.ok("localstorage_set", { key: "k", value: "home" });
      // Only 127.0.0.1 is open now: localhost is found through its cookie.
      const state = await mcp.ok("dump_storage_state", {}) as unknown as State;
      assertEquals(state.cookies.map((c) => c.name).sort(), ["b", "user"]);
      const byOrigin = Object.fromEntries(
        state.origins.map((o) => [o.origin, o.localStorage]),
      );
      assertEquals(byOrigin[fx.origin], [{ name: "k", value: "home" }]);
      assertEquals(byOrigin[fx.crossOrigin], [{ name: "k", value: "cross" }]);
      const f = await mcp.ok("dump_storage_state", { path: "states/s.json" });
      assertEquals([f.cookies, f.origins], [2, 2]);
      const saved = JSON.parse(await Deno.readTextFile(f.path as string)) as State;
      assertEquals(saved.origins.length, 2);
      // The scratch tab the dump used is browxai's own: not news in the next result.
      const next = await mcp.ok("get_url");
      assertEquals(next.sinceLastCall, undefined, JSON.stringify(next.sinceLastCall));
    });

    await t.step("a new session injected from the file sees the same state", async () => {
      await mcp.ok("open_session", { session: "s2" });
      const r = await mcp.ok("inject_storage_state", { state: "states/s.json", session: "s2" });
      assertEquals([r.cookies, r.origins, r.originsSkipped], [2, 2, []]);
      const home = await shown(fx.url("storage-state.html"), "s2");
      assertIncludes(home, "Logged in as ann");
      assertIncludes(home, "ls=[home]");
      assertEquals((await mcp.ok("localstorage_get", { key: "k", session: "s2" })).value, "home");
      const cross = await shown(fx.crossUrl("storage-state.html"), "s2");
      assertIncludes(cross, "cookie=[b=2]");
      assertIncludes(cross, "ls=[cross]");
    });

    await t.step("merge adds; replace clears cookies and localStorage first", async () => {
      const extra = {
        cookies: [{ name: "m", value: "1", domain: "127.0.0.1", path: "/" }],
        origins: [
          { origin: fx.origin, localStorage: [{ name: "added", value: "1" }] },
          { origin: "about:blank", localStorage: [{ name: "x", value: "1" }] },
        ],
      };
      const m = await mcp.ok("inject_storage_state", {
        state: extra,
        mode: "merge",
        session: "s2",
      });
      assertEquals(m.originsSkipped, ["about:blank"]);
      assertEquals(await names("s2"), ["b", "m", "user"]);
      const s2 = await mcp.ok("dump_storage_state", { session: "s2" }) as unknown as State;
      const home = s2.origins.find((o) => o.origin === fx.origin)!;
      assertEquals(home.localStorage.map((e) => e.name).sort(), ["added", "k"]);

      // An app's IndexedDB database (a dump holds none): replace deletes it, and says so.
      assertIncludes(await shown(fx.url("storage-idb.html"), "s2"), "Notes");
      await mcp.ok("wait_for", { text: "ready", session: "s2" });
      const r = await mcp.ok("inject_storage_state", {
        state: { cookies: extra.cookies, origins: [extra.origins[0]] },
        session: "s2",
      });
      assertEquals([r.mode, r.cookies, r.origins], ["replace", 1, 1]);
      assertEquals((r.cleared as { indexedDB: unknown }).indexedDB, [
        { origin: fx.origin, databases: ["notes-db"] },
      ]);
      assertEquals(await names("s2"), ["m"]);
      const after = await mcp.ok("dump_storage_state", { session: "s2" }) as unknown as State;
      assertEquals(after.origins, [{
        origin: fx.origin,
        localStorage: [{ name: "added", value: "1" }],
      }]);
      const page = await shown(fx.url("storage-state.html"), "s2");
      assertIncludes(page, "Logged out");
      assertIncludes(page, "ls=[none]");
    });

    await t.step("paths outside the workspace are refused", async () => {
      for (
        const [tool, args] of [
          ["dump_storage_state", { path: "/etc/browxai-state.json" }],
          ["dump_storage_state", { path: "../escape.json" }],
          ["inject_storage_state", { state: "/etc/passwd" }],
        ] as const
      ) {
        const r = await mcp.call(tool, args);
        assertTrue(r.isError, `${tool} ${JSON.stringify(args)}: ${textOf(r)}`);
        assertIncludes(textOf(r), "workspace");
      }
    });

    await t.step("auth_list when empty has names: []; auth_save of nothing warns", async () => {
      const empty = await mcp.ok("auth_list", {});
      assertEquals([empty.count, empty.names], [0, []]);
      await mcp.ok("open_session", { session: "blank" });
      const r = await mcp.ok("auth_save", { name: "nothing", session: "blank" });
      assertEquals([r.ok, r.cookies, r.origins], [true, 0, 0]);
      assertIncludes(String(r.warning), "nothing to save: log in first, or navigate to the site");
      await mcp.ok("auth_delete", { name: "nothing" });
      await mcp.ok("close_session", { session: "blank" });
    });

    await t.step("auth_save, then open_session({ authState }) starts logged in", async () => {
      await mcp.ok("open_session", { session: "login" });
      await mcp.ok("navigate", {
        url: fx.url("/set-cookie?name=sid&value=s3cr3t"),
        snapshot: "none",
        session: "login",
      });
      await mcp.ok("cookies_set", {
        name: "user",
        value: "bob",
        url: fx.url("/"),
        session: "login",
      });
      const saved = await mcp.ok("auth_save", { name: "bob", session: "login" });
      assertEquals(saved.cookies, 2);
      assertEquals(saved.warning, undefined);
      assertEquals((await mcp.ok("auth_list", {})).names, ["bob"]);
      const o = await mcp.ok("open_session", {
        session: "fresh",
        authState: "bob",
        url: fx.url("storage-state.html"),
      });
      assertEquals(o.warning, undefined);
      assertIncludes(textOf(await mcp.call("snapshot", { session: "fresh" })), "Logged in as bob");
      // The server saw the HttpOnly session cookie too.
      const req = fx.requests.findLast((q) => q.path === "/storage-state.html");
      assertIncludes(req?.headers["cookie"] ?? "", "sid=s3cr3t");
      // auth_load replaces another session's state.
      await mcp.ok("auth_load", { name: "bob" });
      assertEquals(await names("default"), ["sid", "user"]);
      assertEquals((await mcp.ok("auth_delete", { name: "bob" })).existed, true);
      assertEquals((await mcp.ok("auth_delete", { name: "bob" })).existed, false);
      assertEquals((await mcp.ok("auth_list", {})).count, 0);
      const gone = await mcp.call("open_session", { session: "x", authState: "bob" });
      assertTrue(gone.isError);
      assertIncludes(textOf(gone), 'No auth state "bob"');
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("storage: seeding persistent and attached sessions; secrets masked in a dump", async () => {
  const fx = await startFixtureServer();
  const ws = await Deno.makeTempDir({ prefix: "browxai-test-ws-" });
  const secrets = `${ws}/secrets.env`;
  await Deno.writeTextFile(secrets, "TOKEN=tok_4f9c2a7e\n");
  await Deno.chmod(secrets, 0o600);
  const theirs = await Browser.launch({ executablePath: findChromium().path, debugPort: true });
  const mcp = await startStdio({
    workspace: ws,
    env: {
      BROWX_TOOLSETS: "core,sessions,storage",
      BROWX_CAPABILITIES: "read,navigation,action,byob-attach,secrets",
      BROWX_SECRETS: secrets,
    },
  });
  const state = {
    cookies: [],
    origins: [{ origin: fx.origin, localStorage: [{ name: "k", value: "v" }] }],
  };
  try {
    const p = await mcp.ok("open_session", {
      session: "p",
      mode: "persistent",
      storageState: state,
    });
    assertIncludes(String(p.warning), "persistent");
    await mcp.ok("navigate", { session: "p", url: fx.url("storage-state.html"), snapshot: "none" });
    assertEquals((await mcp.ok("localstorage_get", { session: "p", key: "k" })).value, "v");
    const a = await mcp.ok("open_session", {
      session: "a",
      mode: "attached",
      endpoint: theirs.wsEndpoint!,
      storageState: state,
    });
    assertIncludes(String(a.warning), "ignored");
    // A cookie holding a registered secret is masked in the dump (the browser keeps the value).
    await mcp.ok("cookies_set", { name: "api", value: "{{secret:TOKEN}}", url: fx.url("/") });
    const dump = await mcp.call("dump_storage_state", {});
    const text = textOf(dump) + JSON.stringify(dump.structuredContent);
    assertTrue(!text.includes("tok_4f9c2a7e"), text);
    assertIncludes(text, "[secret:TOKEN]");
  } finally {
    await mcp.close();
    await theirs.close();
    await fx.close();
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});
