/**
 * The red team's storage attacks (session 16), over MCP stdio against real Chromium: storage
 * tools ignored the origin policy and `byob_action`. In an attached browser (the person's own)
 * whose tab is on B (off the allowlist), the agent read the person's HttpOnly bank cookie,
 * overwrote it, read B's localStorage and cleared the whole jar, unasked; in an incognito
 * session it set cookies and injected localStorage for blocked origins. Now storage reaches
 * only origins a tab may reach, attached-browser writes ask `byob_action`, and a dump skips
 * (and names) the origins the policy stops.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { startTwoOrigins } from "./_two_origins.ts";
import { eventually } from "./_util.ts";
import { Browser } from "../cdp/browser.ts";
import { findChromium } from "../cdp/discovery.ts";
import { assertBlocked, saveAuthState } from "./_storage_policy.ts";

type R = Record<string, unknown>;
const BANK = "BANK-SESSION-SECRET-777";

Deno.test("storage in an attached browser: off-list origins unreachable, writes ask byob_action", async () => {
  const srv = startTwoOrigins((_a, _b) => ({
    "/ls": "<title>B</title><script>localStorage.token = 'B-LS-TOKEN-42'</script>",
  }));
  const theirs = await Browser.launch({ executablePath: findChromium().path, debugPort: true });
  const jar = async () =>
    (await theirs.connection.send("Storage.getCookies", {})).cookies.map((c) =>
      `${c.name}=${c.value}`
    );
  const asked: string[] = [];
  const mcp = await startStdio({
    env: {
      BROWX_TOOLSETS: "core,sessions,storage",
      BROWX_CAPABILITIES: "read,navigation,action,byob-attach",
      BROWX_ALLOWED_ORIGINS: "127.0.0.1",
      BROWX_CONFIRM_REQUIRED: "byob_action",
    },
    elicit(params) {
      asked.push(params.message);
      return { action: "decline" };
    },
  });
  try {
    await theirs.connection.send("Storage.setCookies", {
      cookies: [{
        name: "bank_session",
        value: BANK,
        domain: "bank.example",
        path: "/",
        secure: true,
        httpOnly: true,
      }],
    });
    await theirs.newPage(undefined, `${srv.b}/ls`);
    await mcp.ok("open_session", { session: "me", mode: "attached", endpoint: theirs.wsEndpoint! });
    const me = { session: "me" };

    const list = await mcp.ok("cookies_list", me);
    assertTrue(!JSON.stringify(list).includes(BANK), JSON.stringify(list));
    assertEquals(list.withheld, 1);
    const got = await mcp.ok("cookies_get", {
      ...me,
      name: "bank_session",
      url: "https://bank.example/",
    });
    assertEquals(got.found, false);

    assertBlocked(
      await mcp.call("cookies_set", {
        ...me,
        name: "bank_session",
        value: "FIXED",
        url: "https://bank.example/",
      }),
      "cookies_set on the bank",
    );
    assertBlocked(await mcp.call("localstorage_get", { ...me, key: "token" }), "B's localStorage");
    assertBlocked(
      await mcp.call("inject_storage_state", { ...me, state: { cookies: [], origins: [] } }),
      "inject (replace) in their browser",
    );
    assertBlocked(await mcp.call("cookies_clear", me), "cookies_clear in their browser");
    // auth_load replaces the whole jar: asked too (session 17: it cleared theirs unasked).
    await saveAuthState(mcp, "other", { cookies: [], origins: [] });
    assertBlocked(await mcp.call("auth_load", { ...me, name: "other" }), "auth_load there");
    assertTrue(asked.some((q) => q.includes("auth_load")), asked.join("\n"));
    assertEquals(await jar(), [`bank_session=${BANK}`], "the person's jar is untouched");
    assertTrue(asked.length >= 2, "the person was asked");
    assertTrue(asked.some((q) => q.includes("cookies_clear")), asked.join("\n"));

    const dump = await mcp.ok("dump_storage_state", me);
    assertTrue(!JSON.stringify(dump).includes(BANK), JSON.stringify(dump));
    assertTrue(!JSON.stringify(dump).includes("B-LS-TOKEN-42"), JSON.stringify(dump));
    const skipped = dump.skipped as string[];
    assertTrue(skipped.includes("https://bank.example"), JSON.stringify(dump));
    assertIncludes(String(dump.note), "policy");
  } finally {
    await mcp.close();
    await theirs.close();
    await srv.close();
  }
});

Deno.test("storage in an incognito session: blocked and unlisted origins are refused", async () => {
  const srv = startTwoOrigins(() => ({}));
  const mcp = await startStdio({
    env: {
      BROWX_TOOLSETS: "core,storage",
      BROWX_ALLOWED_ORIGINS: "127.0.0.1,localhost",
    },
    args: ["--blocked-origins", new URL(srv.b).host],
  });
  try {
    await mcp.ok("navigate", { url: `${srv.a}/`, snapshot: "none" });
    // On the list: works.
    await mcp.ok("cookies_set", { name: "a", value: "1", url: `${srv.a}/` });
    await mcp.ok("localstorage_set", { key: "k", value: "v" });
    // Blocked, or off the list: refused, nothing stored.
    assertBlocked(
      await mcp.call("cookies_set", { name: "b", value: "1", url: `${srv.b}/` }),
      "cookie for a blocked origin",
    );
    assertBlocked(
      await mcp.call("cookies_set", { name: "c", value: "1", domain: "bank.example", path: "/" }),
      "cookie for an unlisted domain",
    );
    assertBlocked(
      await mcp.call("inject_storage_state", {
        mode: "merge",
        state: {
          cookies: [],
          origins: [{ origin: srv.b, localStorage: [{ name: "x", value: "y" }] }],
        },
      }),
      "localStorage injected into a blocked origin",
    );
    const names = ((await mcp.ok("cookies_list")).cookies as R[]).map((c) => c.name);
    assertEquals(names, ["a"]);
    await eventually(async () => (await mcp.ok("localstorage_get", { key: "k" })).value === "v");
  } finally {
    await mcp.close();
    await srv.close();
  }
});
