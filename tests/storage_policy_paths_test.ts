/**
 * The red team's storage policy bypasses (session 16), over MCP stdio against real Chromium:
 * `auth_load` skipped the storage gates (it loaded a blocked origin's cookies, and in an
 * attached browser cleared the person's jar unasked); `flake_check`'s fresh runs were seeded
 * with every origin's storage; `cookies_delete` by name alone deleted every site's cookie of
 * that name; and a parent-domain cookie (`Domain=red.localhost`) reached a blocked subdomain
 * and was listed. Now all of them follow the origin policy as the other storage tools do
 * (auth_load in an attached browser: storage_policy_test.ts).
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { type McpHarness, startStdio, textOf } from "./_mcp.ts";
import { assertBlocked, saveAuthState } from "./_storage_policy.ts";

type R = Record<string, unknown>;

/** A page that shows its cookies (`cookies: none` when it has none), and one that sets one. */
const SHOW = `<title>show</title><p id=c></p><script>
  c.textContent = 'cookies: ' + (document.cookie || 'none')</script>`;
const SET_PARENT = `<title>set</title><p id=c></p><script>
  document.cookie = 'p=1; Domain=red.localhost; Path=/';
  c.textContent = 'cookies: ' + (document.cookie || 'none')</script>`;

function serve(): { port: number; close: () => Promise<void> } {
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    return new Response(path === "/set" ? SET_PARENT : SHOW, {
      headers: { "content-type": "text/html", "cache-control": "no-store" },
    });
  });
  return { port: srv.addr.port, close: () => srv.shutdown() };
}

/** What the page at `url` shows of its cookies. */
async function shownCookies(mcp: McpHarness, url: string, session = "default"): Promise<string> {
  await mcp.ok("navigate", { url, snapshot: "none", session });
  const r = await mcp.ok("wait_for", { text: "cookies:", session });
  assertEquals(r.status, "ok");
  return String(JSON.stringify(await mcp.ok("read_page", { session })).match(/cookies: [^"\\]*/));
}

Deno.test("storage policy: parent-domain cookies, auth_load, cookies_delete by name, flake_check fresh", async (t) => {
  const srv = serve();
  // The blocked subdomain on a port of its own: a loopback entry blocks every loopback name on
  // its port (blocked_loopback_aliases_test), and cookies keep no ports apart.
  const other = serve();
  const red = `http://red.localhost:${srv.port}`;
  const mcp = await startStdio({
    env: { BROWX_TOOLSETS: "all" },
    args: ["--blocked-origins", `sub.red.localhost:${other.port}`],
  });
  try {
    // red.localhost (allowed) sets a cookie for its whole domain: it reaches sub.red.localhost.
    assertEquals(await shownCookies(mcp, `${red}/set`), "cookies: p=1");

    await t.step("a cookie reaching a blocked subdomain is withheld and skipped", async () => {
      const list = await mcp.ok("cookies_list");
      assertEquals(list.withheld, 1, JSON.stringify(list));
      assertTrue(!JSON.stringify(list.cookies).includes('"p"'), JSON.stringify(list));
      const dump = await mcp.ok("dump_storage_state");
      assertTrue(!JSON.stringify(dump.cookies).includes('"p"'), JSON.stringify(dump));
      assertTrue((dump.skipped as string[]).some((o) => o.includes("red.localhost")));
      assertBlocked(
        await mcp.call("cookies_set", {
          name: "q",
          value: "1",
          domain: "red.localhost",
          path: "/",
        }),
        "a domain cookie over a blocked subdomain",
      );
      // A host-only cookie of red.localhost does not reach the subdomain: allowed.
      await mcp.ok("cookies_set", { name: "h", value: "1", url: `${red}/` });
    });

    await t.step("flake_check fresh: runs start without the stopped cookie", async () => {
      const calls = [
        { tool: "navigate", args: { url: `${red}/show`, snapshot: "none" } },
        { tool: "wait_for", args: { text: "cookies: h=1", timeoutMs: 5000 } },
      ];
      const r = await mcp.ok("flake_check", { n: 3, calls, fresh: true });
      assertEquals(r.allGreen, true, JSON.stringify(r));
      assertIncludes(JSON.stringify(r.warnings), "red.localhost");
    });

    await t.step("cookies_delete by name alone keeps the stopped sites' cookies", async () => {
      await mcp.ok("cookies_set", { name: "p", value: "2", url: `${red}/` });
      const r = await mcp.ok("cookies_delete", { name: "p" });
      assertEquals(r.deleted, 1, JSON.stringify(r));
      assertEquals(r.skipped, [".red.localhost/"], JSON.stringify(r));
      assertIncludes(String(r.note), "policy");
      // The blocked subdomain's cookie is still there for the page (the agent did not delete it).
      assertEquals(await shownCookies(mcp, `${red}/show`), "cookies: p=1; h=1");
    });

    await t.step("auth_load refuses a state with a blocked origin's cookies", async () => {
      await saveAuthState(mcp, "evil", {
        cookies: [{ name: "loaded", value: "1", domain: ".red.localhost", path: "/" }],
        origins: [],
      });
      assertBlocked(await mcp.call("auth_load", { name: "evil" }), "auth_load");
      await saveAuthState(mcp, "sub", {
        cookies: [{ name: "loaded", value: "1", domain: "sub.red.localhost", path: "/" }],
        origins: [],
      });
      assertBlocked(await mcp.call("auth_load", { name: "sub" }), "auth_load of the subdomain");
      assertBlocked(
        await mcp.call("open_session", { session: "s2", authState: "evil" }),
        "open_session with it",
      );
      // Nothing loaded, nothing cleared (replace would have cleared every cookie first).
      assertEquals(await shownCookies(mcp, `${red}/show`), "cookies: p=1; h=1");
      // The normal path: a state of allowed origins loads.
      await saveAuthState(mcp, "good", {
        cookies: [{ name: "loaded", value: "1", domain: "red.localhost", path: "/" }],
        origins: [],
      });
      await mcp.ok("auth_load", { name: "good" });
      assertEquals(await shownCookies(mcp, `${red}/show`), "cookies: loaded=1");
    });

    await t.step("bad input: auth_load of a missing or bad name", async () => {
      const missing = await mcp.call("auth_load", { name: "nope" });
      assertEquals((missing.structuredContent?.error as R).code, "not-found", textOf(missing));
      const bad = await mcp.call("auth_load", { name: "../x" });
      assertEquals((bad.structuredContent?.error as R).code, "invalid-argument", textOf(bad));
    });
  } finally {
    await mcp.close();
    await srv.close();
    await other.close();
  }
});
