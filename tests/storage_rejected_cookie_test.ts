/**
 * Issue 13: cookies of a storage state that Chromium does not store (SameSite=None without
 * Secure is dropped without an error) are reported one by one with the reason and not counted,
 * by `inject_storage_state`, `auth_load` and `open_session({ storageState })`.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";

Deno.test("storage: a state cookie Chromium rejects is reported with its reason", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({
    env: { BROWX_TOOLSETS: "core,sessions,storage", BROWX_CAPABILITIES: "read,navigation,action" },
  });
  const state = {
    cookies: [
      { name: "good", value: "1", domain: "127.0.0.1", path: "/" },
      { name: "lax_none", value: "2", domain: "127.0.0.1", path: "/", sameSite: "None" },
    ],
    origins: [],
  };
  const names = async (session: string) =>
    ((await mcp.ok("cookies_list", { session })).cookies as { name: string }[])
      .map((c) => c.name).sort();
  try {
    await t.step("inject_storage_state counts only the stored cookie", async () => {
      const r = await mcp.ok("inject_storage_state", { state });
      assertEquals(r.cookies, 1);
      assertEquals(r.cookiesRejected, [{
        name: "lax_none",
        domain: "127.0.0.1",
        path: "/",
        reason: "sameSite None needs secure: true",
      }]);
      assertIncludes(String(r.warning), '"lax_none"');
      assertEquals(await names("default"), ["good"]);
    });

    await t.step("a cookie Chromium refuses outright fails alone, not the batch", async () => {
      const bad = {
        cookies: [
          { name: "__Host-x", value: "1", domain: "127.0.0.1", path: "/" },
          { name: "other", value: "3", domain: "127.0.0.1", path: "/" },
        ],
        origins: [],
      };
      const r = await mcp.ok("inject_storage_state", { state: bad, mode: "merge" });
      assertEquals(r.cookies, 1);
      const rejected = r.cookiesRejected as { name: string; reason: string }[];
      assertEquals(rejected.map((c) => c.name), ["__Host-x"]);
      assertIncludes(rejected[0]!.reason, "Invalid cookie fields");
      assertIncludes(rejected[0]!.reason, "a __Secure-/__Host- name needs secure: true");
      assertEquals(await names("default"), ["good", "other"]);
    });

    await t.step("open_session and auth_load say so too", async () => {
      const o = await mcp.ok("open_session", { session: "seeded", storageState: state });
      assertIncludes(String(o.warning), "sameSite None needs secure: true");
      assertEquals(await names("seeded"), ["good"]);
      await mcp.ok("navigate", { url: fx.url("/"), snapshot: "none", session: "seeded" });
      await mcp.ok("auth_save", { name: "mixed", session: "default" });
      const a = await mcp.ok("auth_load", { name: "mixed", session: "seeded" });
      assertEquals([a.cookies, a.cookiesRejected], [2, []]);
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
