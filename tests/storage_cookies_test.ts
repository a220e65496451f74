/**
 * Storage layer 2 end to end, over MCP stdio against real Chromium and pages on the two
 * fixture origins (127.0.0.1 and localhost): `cookies_*` (set / get / list with the URL
 * filter / delete / clear, a server's httpOnly cookie, two sessions isolated), the TodoMVC
 * app's todos read and rewritten through `localstorage_*` and seen by the app after a
 * reload, `sessionstorage_*` per tab and origin, the "navigate first" refusal, and secrets
 * masked in cookie results.
 */
import { join } from "node:path";
import { assertEquals, assertIncludes, assertNotIncludes, assertTrue } from "./_assert.ts";
import { type McpHarness, startStdio, textOf } from "./_mcp.ts";
import { type FixtureServer, startFixtureServer } from "./fixtures/server.ts";
import { ensureTodoMvc } from "./fixtures/todomvc.ts";

type R = Record<string, unknown>;
interface Cookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite?: string;
}

const names = (r: R) => (r.cookies as Cookie[]).map((c) => c.name).sort();

/** The Cookie header of the last request the fixture servers saw for `path`. */
function cookieHeader(fx: FixtureServer, server: "origin" | "cross", path: string): string {
  const r = fx.requests.findLast((q) => q.server === server && q.path === path);
  assertTrue(r, `no request for ${path} on ${server}`);
  return r.headers["cookie"] ?? "";
}

Deno.test("storage: cookies, localStorage and sessionStorage through MCP", async (t) => {
  await ensureTodoMvc();
  const fx = await startFixtureServer();
  const mcp = await startStdio({
    env: { BROWX_TOOLSETS: "core,sessions,storage", BROWX_CAPABILITIES: "read,navigation,action" },
  });
  try {
    await t.step("cookies_set by url and by domain+path; cookies_get; stored shape", async () => {
      const a = (await mcp.ok("cookies_set", { name: "a", value: "1", url: fx.url("/x") }))
        .cookie as Cookie;
      assertEquals(a, {
        name: "a",
        value: "1",
        domain: "127.0.0.1",
        path: "/",
        expires: -1,
        httpOnly: false,
        secure: false,
      });
      const expires = Math.floor(Date.now() / 1000) + 3600;
      const b = (await mcp.ok("cookies_set", {
        name: "b",
        value: "2",
        domain: "localhost",
        path: "/",
        expires,
        sameSite: "Strict",
        httpOnly: true,
      })).cookie as Cookie;
      assertEquals([b.domain, b.path, b.sameSite, b.httpOnly], ["localhost", "/", "Strict", true]);
      assertEquals(Math.round(b.expires), expires);
      // A URL's directory becomes the path (Playwright's rule).
      const deep = (await mcp.ok("cookies_set", {
        name: "deep",
        value: "3",
        url: fx.crossUrl("/app/page"),
      })).cookie as Cookie;
      assertEquals([deep.domain, deep.path], ["localhost", "/app/"]);

      assertEquals(((await mcp.ok("cookies_get", { name: "a" })).cookie as Cookie).value, "1");
      assertEquals((await mcp.ok("cookies_get", { name: "nope" })).cookie, null);
      const missing = await mcp.call("cookies_get", { name: "nope" });
      assertIncludes(missing.content.map((c) => c.text ?? "").join(""), '"found":false');
      assertEquals(
        (await mcp.ok("cookies_get", { name: "a", url: fx.crossUrl("/") })).cookie,
        null,
      );
      const sent = await mcp.ok("cookies_get", { name: "deep", url: fx.crossUrl("/app/x") });
      assertEquals((sent.cookie as Cookie).value, "3");
      assertEquals(
        (await mcp.ok("cookies_get", { name: "deep", url: fx.crossUrl("/") })).cookie,
        null,
      );
    });

    await t.step(
      "cookies_list: the URL filter across the two origins, as the browser sends",
      async () => {
        const all = await mcp.ok("cookies_list");
        assertEquals([all.count, names(all)], [3, ["a", "b", "deep"]]);
        assertEquals(names(await mcp.ok("cookies_list", { urls: [fx.url("/")] })), ["a"]);
        assertEquals(names(await mcp.ok("cookies_list", { urls: [fx.crossUrl("/")] })), ["b"]);
        assertEquals(
          names(await mcp.ok("cookies_list", { urls: [fx.crossUrl("/app/x")] })),
          ["b", "deep"],
        );
        assertEquals(
          names(await mcp.ok("cookies_list", { urls: [fx.url("/"), fx.crossUrl("/app/")] })),
          ["a", "b", "deep"],
        );
        // What the filter says is what Chromium sends.
        await mcp.ok("navigate", { url: fx.crossUrl("/app/x"), snapshot: "none" });
        const cross = cookieHeader(fx, "cross", "/app/x");
        assertEquals(cross.split("; ").sort(), ["b=2", "deep=3"]);
        await mcp.ok("navigate", { url: fx.url("/basic.html"), snapshot: "none" });
        assertEquals(cookieHeader(fx, "origin", "/basic.html"), "a=1");
      },
    );

    await t.step("a server's httpOnly cookie is visible; a set cookie is replaced", async () => {
      await mcp.ok("navigate", { url: fx.url("/set-cookie?name=srv&value=xyz"), snapshot: "none" });
      const srv = (await mcp.ok("cookies_get", { name: "srv", url: fx.url("/") })).cookie as Cookie;
      assertEquals(
        [srv.value, srv.domain, srv.httpOnly, srv.sameSite],
        ["xyz", "127.0.0.1", true, "Lax"],
      );
      await mcp.ok("cookies_set", { name: "a", value: "1b", url: fx.url("/") });
      assertEquals(((await mcp.ok("cookies_get", { name: "a" })).cookie as Cookie).value, "1b");
      assertEquals((await mcp.ok("cookies_list")).count, 4);
    });

    await t.step("cookies_set: a cookie Chromium drops is an error with the reason", async () => {
      const r = await mcp.call("cookies_set", {
        name: "n",
        value: "v",
        url: fx.url("/"),
        sameSite: "None",
      });
      assertTrue(r.isError, textOf(r));
      assertIncludes(textOf(r), 'did not store cookie "n"');
      assertIncludes(textOf(r), "sameSite None needs secure: true");
    });

    await t.step("cookies_delete: by url, by domain and path; idempotent", async () => {
      assertEquals(
        (await mcp.ok("cookies_delete", { name: "deep", url: fx.crossUrl("/") })).deleted,
        0,
      );
      assertEquals(
        (await mcp.ok("cookies_delete", { name: "deep", url: fx.crossUrl("/app/x") })).deleted,
        1,
      );
      assertEquals(
        (await mcp.ok("cookies_delete", { name: "deep", url: fx.crossUrl("/app/x") })).deleted,
        0,
      );
      // httpOnly, by exact domain and path.
      assertEquals(
        (await mcp.ok("cookies_delete", { name: "srv", domain: "127.0.0.1", path: "/" })).deleted,
        1,
      );
      // Secure (127.0.0.1 is a secure context), by name alone.
      const sec = (await mcp.ok("cookies_set", {
        name: "sec",
        value: "s",
        url: fx.url("/"),
        secure: true,
      })).cookie as Cookie;
      assertEquals(sec.secure, true);
      assertEquals((await mcp.ok("cookies_delete", { name: "sec" })).deleted, 1);
      assertEquals(names(await mcp.ok("cookies_list")), ["a", "b"]);
    });

    await t.step("two sessions' cookies are isolated", async () => {
      await mcp.ok("open_session", { session: "other" });
      await mcp.ok("cookies_set", { session: "other", name: "o", value: "x", url: fx.url("/") });
      assertEquals(names(await mcp.ok("cookies_list", { session: "other" })), ["o"]);
      assertEquals(names(await mcp.ok("cookies_list")), ["a", "b"]);
      assertEquals((await mcp.ok("cookies_get", { name: "o" })).cookie, null);
      assertEquals((await mcp.ok("cookies_clear", { session: "other" })).cleared, 1);
      assertEquals(names(await mcp.ok("cookies_list")), ["a", "b"]);
      await mcp.ok("close_session", { session: "other" });
    });

    await t.step("cookies_clear empties the context, web storage stays", async () => {
      await mcp.ok("navigate", { url: fx.url("/basic.html"), snapshot: "none" });
      await mcp.ok("localstorage_set", { key: "keep", value: "me" });
      assertEquals((await mcp.ok("cookies_clear")).cleared, 2);
      assertEquals((await mcp.ok("cookies_list")).count, 0);
      assertEquals((await mcp.ok("localstorage_get", { key: "keep" })).value, "me");
      assertEquals((await mcp.ok("localstorage_clear")).cleared, 1);
    });

    await t.step("localstorage_set past the origin's quota fails and changes nothing", async () => {
      await mcp.ok("localstorage_set", { key: "big", value: "small" });
      // Chromium dropped it silently (was: ok: true).
      const r = await mcp.call("localstorage_set", { key: "big", value: "v".repeat(6_000_000) });
      assertEquals(r.isError, true);
      assertIncludes(textOf(r), "is full");
      assertEquals((await mcp.ok("localstorage_get", { key: "big" })).value, "small");
      await mcp.ok("localstorage_clear");
    });

    await t.step("TodoMVC: todos read and rewritten through localstorage_*", async () => {
      const app = fx.todomvcUrl("vanillajs");
      await mcp.ok("navigate", { url: app, snapshot: "none" });
      await mcp.ok("wait_for", { selector: "#new-todo" });
      await mcp.ok("fill", { selector: "#new-todo", value: "Buy milk", submit: true });
      const listed = await mcp.ok("localstorage_list");
      assertEquals(listed.origin, fx.origin);
      const keys = (listed.entries as Array<{ key: string }>).map((e) => e.key);
      assertTrue(keys.includes("todos-vanillajs"), keys.join());
      const got = await mcp.ok("localstorage_get", { key: "todos-vanillajs" });
      assertEquals(got.origin, fx.origin);
      const todos = JSON.parse(String(got.value)).todos as Array<{ title: string }>;
      assertEquals(todos.map((x) => x.title), ["Buy milk"]);

      const rewritten = {
        todos: [
          { title: "Written by browxai", completed: false, id: 1 },
          { title: "Already done", completed: true, id: 2 },
        ],
      };
      await mcp.ok("localstorage_set", {
        key: "todos-vanillajs",
        value: JSON.stringify(rewritten),
      });
      await mcp.ok("reload", { snapshot: "none" });
      await mcp.ok("wait_for", { text: "Written by browxai" });
      const tree = String((await mcp.ok("snapshot")).tree);
      assertIncludes(tree, "Written by browxai");
      assertIncludes(tree, "Already done");
      assertNotIncludes(tree, "Buy milk");
      assertIncludes(tree, "1 item left");

      const del = await mcp.ok("localstorage_delete", { key: "todos-vanillajs" });
      assertEquals([del.existed, del.origin], [true, fx.origin]);
      assertEquals(
        (await mcp.ok("localstorage_delete", { key: "todos-vanillajs" })).existed,
        false,
      );
      // A missing key says found: false (a null value is left out of the text as empty).
      const missing = await mcp.call("localstorage_get", { key: "todos-vanillajs" });
      assertEquals(
        [missing.structuredContent!.found, missing.structuredContent!.value],
        [false, null],
      );
      assertIncludes(textOf(missing), '"found":false');
      await mcp.ok("reload", { snapshot: "none" });
      await mcp.ok("wait_for", { selector: "#new-todo" });
      assertNotIncludes(String((await mcp.ok("snapshot")).tree), "Written by browxai");
    });

    await t.step("sessionStorage: per tab and origin, apart from localStorage", async () => {
      await mcp.ok("navigate", { url: fx.url("/basic.html"), snapshot: "none" });
      await mcp.ok("sessionstorage_set", { key: "k", value: "tab0" });
      const got = await mcp.ok("sessionstorage_get", { key: "k" });
      assertEquals([got.found, got.value, got.origin], [true, "tab0", fx.origin]);
      const local = await mcp.ok("localstorage_get", { key: "k" });
      assertEquals([local.found, local.value], [false, null]);
      assertEquals((await mcp.ok("sessionstorage_get", { key: "none" })).found, false);
      const listed = await mcp.ok("sessionstorage_list");
      assertEquals([listed.count, listed.entries], [1, [{ key: "k", value: "tab0" }]]);

      // A new tab on the same origin has its own sessionStorage.
      await mcp.ok("tabs", { action: "new" });
      await mcp.ok("navigate", { url: fx.url("/basic.html"), snapshot: "none" });
      assertEquals((await mcp.ok("sessionstorage_get", { key: "k" })).value, null);
      await mcp.ok("sessionstorage_set", { key: "k", value: "tab1" });
      // The other origin in that tab: its own area too.
      await mcp.ok("navigate", { url: fx.crossUrl("/basic.html"), snapshot: "none" });
      const cross = await mcp.ok("sessionstorage_list");
      assertEquals([cross.count, cross.origin], [0, fx.crossOrigin]);
      await mcp.ok("tabs", { action: "close", index: 1 });
      assertEquals((await mcp.ok("sessionstorage_get", { key: "k" })).value, "tab0");
      const deleted = await mcp.ok("sessionstorage_delete", { key: "k" });
      assertEquals(deleted.existed, true);
      await mcp.ok("sessionstorage_set", { key: "x", value: "1" });
      await mcp.ok("sessionstorage_set", { key: "y", value: "2" });
      assertEquals((await mcp.ok("sessionstorage_clear")).cleared, 2);
      assertEquals((await mcp.ok("sessionstorage_list")).count, 0);
    });

    await t.step('about:blank: web storage is refused with "navigate first"', async () => {
      await mcp.ok("open_session", { session: "blank" });
      for (
        const [tool, args] of [
          ["localstorage_get", { key: "k" }],
          ["localstorage_set", { key: "k", value: "v" }],
          ["sessionstorage_list", {}],
          ["sessionstorage_clear", {}],
        ] as const
      ) {
        const r = await mcp.call(tool, { ...args, session: "blank" });
        assertTrue(r.isError, `${tool}: ${textOf(r)}`);
        assertIncludes(textOf(r), "navigate first");
        assertIncludes(textOf(r), '"about:blank"');
        assertIncludes(textOf(r), "Next: navigate({ url })");
        assertEquals((r.structuredContent?.error as R).code, "refused");
      }
      // Cookies need no page.
      await mcp.ok("cookies_set", { session: "blank", name: "c", value: "1", url: fx.url("/") });
      assertEquals((await mcp.ok("cookies_list", { session: "blank" })).count, 1);
      await mcp.ok("close_session", { session: "blank" });
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});

const TOKEN = "tok_storage_5e4d3c2b1a";

Deno.test("storage: registered secrets are masked in cookie and web storage results", async () => {
  const fx = await startFixtureServer();
  const dir = await Deno.makeTempDir({ prefix: "browxai-storage-secrets-" });
  const secrets = join(dir, "secrets.env");
  await Deno.writeTextFile(secrets, `API_TOKEN=${TOKEN}\n`, { mode: 0o600 });
  await Deno.chmod(secrets, 0o600);
  let mcp: McpHarness | undefined;
  try {
    mcp = await startStdio({
      workspace: dir,
      env: {
        BROWX_TOOLSETS: "core,storage",
        BROWX_CAPABILITIES: "read,navigation,action,secrets",
        BROWX_SECRETS: secrets,
      },
    });
    // One set by the server, one by the agent through the placeholder.
    await mcp.ok("navigate", {
      // Reversed: the value in clear in a URL would be refused as guessing (secret_guess.ts).
      url: fx.url(`/set-cookie?name=srv_token&reversed=1&value=${[...TOKEN].reverse().join("")}`),
      snapshot: "none",
    });
    await mcp.ok("cookies_set", {
      name: "agent_token",
      value: "{{secret:API_TOKEN}}",
      url: fx.url("/"),
    });
    await mcp.ok("localstorage_set", { key: "token", value: "{{secret:API_TOKEN}}" });
    const results = [
      await mcp.call("cookies_get", { name: "srv_token" }),
      await mcp.call("cookies_get", { name: "agent_token" }),
      await mcp.call("cookies_list"),
      await mcp.call("localstorage_get", { key: "token" }),
      await mcp.call("localstorage_list"),
    ];
    for (const r of results) {
      assertTrue(!r.isError, textOf(r));
      assertNotIncludes(textOf(r), TOKEN);
      assertNotIncludes(JSON.stringify(r.structuredContent), TOKEN);
      assertIncludes(textOf(r), "[secret:API_TOKEN]");
    }
    assertEquals(
      ((results[1]!.structuredContent as R).cookie as Cookie).value,
      "[secret:API_TOKEN]",
    );
    // The browser holds, and sends, the real values.
    await mcp.ok("navigate", { url: fx.url("/basic.html"), snapshot: "none" });
    const sent = cookieHeader(fx, "origin", "/basic.html").split("; ").sort();
    assertEquals(sent, [`agent_token=${TOKEN}`, `srv_token=${TOKEN}`]);
  } finally {
    await mcp?.close();
    await fx.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
