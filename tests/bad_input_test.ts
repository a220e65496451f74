/**
 * Bad input for every tool: wrong types, unknown fields, unknown refs and
 * sessions, missing or double targets. Each returns a clear isError result
 * with a next step, and the server keeps serving.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio, textOf } from "./_mcp.ts";

type Case = [tool: string, args: Record<string, unknown>, expect: string];

Deno.test("bad input: every tool answers with an actionable error and the server survives", async () => {
  const fx = await startFixtureServer();
  // Every tool of every toolset is listed, and must have a case below.
  const mcp = await startStdio({
    env: {
      // All but `human`, which would ask a person before each new site.
      BROWX_CAPABILITIES: "read,navigation,action,eval,self-approval,file-io,network-body",
      BROWX_TOOLSETS: "all",
    },
  });
  try {
    await mcp.ok("navigate", { url: fx.url("form.html"), snapshot: "none" });
    const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const closedPort = (closed.addr as Deno.NetAddr).port;
    closed.close();
    const cases: Case[] = [
      ["navigate", {}, '"url"'],
      ["navigate", { url: 42 }, '"url"'],
      ["navigate", { url: "example.com" }, 'did you mean "https://example.com"'],
      // Any string past 1 Mi characters, refused before any work on it (a red team's 80 MB URL
      // held another client's calls ~24 s).
      ["navigate", { url: `http://127.0.0.1/${"a".repeat(1_048_576)}` }, "url: a string of"],
      ["press", { key: "a".repeat(2_000_000) }, "at most 1048576"],
      // Local servers and bare IPs get http (no certificate); a host:port parses as a scheme.
      ["navigate", { url: "127.0.0.1:8765" }, 'did you mean "http://127.0.0.1:8765"'],
      ["navigate", { url: "localhost:8765/a" }, 'did you mean "http://localhost:8765/a"'],
      ["navigate", { url: "[::1]:8765" }, 'did you mean "http://[::1]:8765"'],
      ["navigate", { url: "10.0.0.1:3000" }, 'did you mean "http://10.0.0.1:3000"'],
      ["navigate", { url: "example.com:8443/x" }, 'did you mean "https://example.com:8443/x"'],
      ["navigate", { url: "file:///etc/passwd" }, "Refused"],
      ["navigate", { url: "javascript:alert(1)" }, "Refused"],
      ["navigate", { url: fx.url("basic.html"), waitUntil: "never" }, '"waitUntil"'],
      ["navigate", { url: fx.url("basic.html"), timeoutMs: 999_999 }, '"timeoutMs"'],
      ["navigate", { url: fx.url("basic.html"), bogus: 1 }, 'unknown field "bogus"'],
      ["snapshot", { ref: "e424242" }, "snapshot"],
      ["snapshot", { maxTokens: "lots" }, '"maxTokens"'],
      ["snapshot", { session: "nope" }, 'Unknown session "nope"'],
      ["click", {}, "Missing target"],
      ["click", { ref: "e1", selector: "#name" }, "Too many targets"],
      ["click", { ref: "e999999" }, "snapshot"],
      ["click", { ref: "not-a-ref" }, "ref"],
      ["click", { selector: "###" }, "Invalid selector"],
      ["click", { selector: "#nothing-here" }, "No element matches"],
      // Playwright's forms: refused at once by name (not read as CSS or as a text= to wait for).
      ["click", { selector: "text=Sign up >> .destroy" }, 'Playwright syntax (">>" chaining)'],
      ["click", { selector: "button >> nth=1" }, '">>" chaining and "nth="'],
      ["click", { selector: 'role=button[name="Sign up"]' }, 'the "role=" engine'],
      ["click", { selector: 'button:has-text("Sign up")' }, '":has-text()"'],
      ["click", { selector: "//button[1]" }, "Playwright syntax (XPath)"],
      ["wait_for", { selector: "button >> nth=1" }, "Playwright syntax"],
      ["click", { coords: { x: "a", y: 1 } }, '"coords.x"'],
      ["click", { coords: { x: 99999, y: 1 } }, "outside the viewport"],
      ["click", { selector: "#name", button: "huge" }, '"button"'],
      ["fill", { selector: "#name" }, '"value"'],
      ["fill", { coords: { x: 1, y: 1 }, value: "x" }, "coords"],
      ["fill", { selector: "#submit", value: "x" }, "cannot be filled"],
      ["type", {}, '"text"'],
      ["type", { text: "" }, '"text"'],
      ["press", { key: "Entr" }, "Unknown key"],
      ["press", { key: "" }, '"key"'],
      ["press", { key: "Control++a+" }, "key"],
      ["select", { selector: "#plan" }, "exactly one of value, label, index"],
      ["select", { selector: "#plan", value: "a", index: 1 }, "exactly one"],
      ["select", { selector: "#name", value: "x" }, "not a native <select>"],
      ["select", { selector: "#plan", value: "enterprise" }, "no such option"],
      [
        "select",
        { selector: "#plan", value: "Pro" },
        'an option has that label: pass label: "Pro"',
      ],
      [
        "select",
        // ("team" in another case is the label "Team": chosen, with a warning.)
        { selector: "#plan", label: "enterprise" },
        "pick one of the options",
      ],
      ["hover", {}, "Missing target"],
      ["drag", { to: { selector: "#name" } }, '"from"'],
      ["drag", { from: {}, to: { selector: "#name" } }, 'Missing target for "from"'],
      ["drag", { from: { selector: "#name" }, to: { x: 5 } }, "needs both x and y"],
      ["drag", { from: { x: -1, y: 5 }, to: { x: 5, y: 5 } }, "outside the viewport"],
      ["drag", { from: { selector: "#name" }, to: { selector: "#name" } }, "same element"],
      ["mouse", { action: "wheel", x: 5, y: 5 }, "needs deltaX or deltaY"],
      ["mouse", { action: "move", x: -1, y: 5 }, "outside the viewport"],
      ["mouse", { action: "click", x: 5 }, '"y"'],
      ["mouse", { action: "move", x: 5, y: 5, deltaY: 3 }, "for wheel"],
      ["handle_dialog", { accept: "yes" }, '"accept"'],
      ["handle_dialog", { text: 5 }, '"text"'],
      ["scroll", {}, "Nothing to scroll"],
      ["scroll", { coords: { x: 1, y: 1 } }, "needs by"],
      ["scroll", { to: "sideways" }, '"to"'],
      ["wait_for", {}, "exactly one condition"],
      ["wait_for", { text: "a", selector: "b" }, "exactly one condition"],
      ["wait_for", { url: "**/x", state: "hidden" }, '"state" applies'],
      ["wait_for", { selector: "" }, "Empty selector"],
      ["go_back", { session: 7 }, '"session"'],
      ["go_forward", { extra: true }, 'unknown field "extra"'],
      ["reload", { timeoutMs: -5 }, '"timeoutMs"'],
      ["tabs", {}, '"action"'],
      ["tabs", { action: "switch" }, "needs index"],
      ["tabs", { action: "close", index: 42 }, "No tab at index 42"],
      ["screenshot", { format: "gif" }, '"format"'],
      ["screenshot", { quality: 50 }, "jpeg only"],
      ["screenshot", { scale: 2 }, '"scale"'],
      ["screenshot", { ref: "e999999" }, "snapshot"],
      ["screenshot", { selector: "#name", fullPage: true }, "not both"],
      ["screenshot", { path: "../up.png" }, ".."],
      ["screenshot", { path: "/etc/shot.png" }, "outside the workspace"],
      ["open_session", { session: "../etc" }, "Invalid session name"],
      ["open_session", { mode: "cloud" }, '"mode"'],
      ["open_session", { mode: "attached", endpoint: "ws://127.0.0.1:1/x" }, "byob-attach"],
      ["open_session", { session: "e1", endpoint: "ws://x" }, "attached"],
      ["open_session", { session: "v", viewport: { width: 5, height: 5 } }, '"viewport.width"'],
      ["close_session", {}, '"session"'],
      ["list_sessions", { verbose: true }, 'unknown field "verbose"'],
      ["console_read", { level: "loud" }, '"level"'],
      ["console_read", { pattern: "(" }, "Invalid pattern"],
      ["network_read", { limit: 0 }, '"limit"'],
      ["network_read", { since_seq: -1 }, '"since_seq"'],
      ["eval_js", {}, '"expression"'],
      ["eval_js", { expression: "throw new Error('nope')" }, "threw: Error: nope"],
      ["eval_js", { expression: "(" }, "SyntaxError"],
      ["get_config", { verbose: true }, 'unknown field "verbose"'],
      ["approve_actions", { scopes: ["nope"] }, '"nope"'],
      ["approve_actions", { scopes: ["submit"], ttlSeconds: 0 }, "out of range"],
      ["list_approvals", { scope: "submit" }, 'unknown field "scope"'],
      ["upload_file", { selector: "#name" }, '"paths"'],
      ["upload_file", { paths: ["a.txt"] }, "Missing target"],
      ["upload_file", { selector: "#name", paths: ["../secret.txt"] }, 'contains ".."'],
      ["upload_file", { selector: "#name", paths: ["no-such-file.txt"] }, "no-such-file.txt"],
      ["downloads_capture", {}, '"on"'],
      ["downloads_list", { all: true }, 'unknown field "all"'],
      ["download_get", { id: "d42" }, 'No download "d42"'],
      ["download_get", { id: "d1", maxBytes: 0 }, '"maxBytes"'],
      ["pdf_save", { paperFormat: "b7" }, '"paperFormat"'],
      ["pdf_save", { paperFormat: "a4", paperWidth: 5 }, "not both"],
      ["pdf_save", { scale: 5 }, '"scale"'],
      ["pdf_save", { path: "../../out.pdf" }, ".."],
      ["trace_stop", {}, "No trace runs"],
      ["har_save", { path: "../net.har" }, ".."],
      ["har_save", { path: "" }, "Empty path"],
      ["trace_stop", { path: "/tmp/t.json" }, "outside the workspace"],
      ["trace_start", { categories: [] }, '"categories"'],
      ["trace_start", { screenshots: "yes" }, '"screenshots"'],
      ["read_form", { root: "#no-such-form" }, "No element matches root"],
      ["read_form", { whole_page: "yes" }, '"whole_page"'],
      ["fill_form", { fields: [] }, '"fields"'],
      ["fill_form", { fields: [{ name: "name", ref: "e1", value: "x" }] }, "exactly one of name"],
      ["set_editor", { text: "x" }, "No rich-text editor"],
      ["set_editor", { selector: "#name" }, '"text"'],
      ["review_form", { root: "###" }, "Invalid selector"],
      ["save_draft", { submit: "Sign up" }, "no publish/draft control"],
      ["save_draft", { submit: "No such button" }, "No submit control matches"],
      ["publish", { submit: "Sign up" }, '"selector"'],
      ["publish", { selector: "#name", submit: "Sign up" }, "not a publish control"],
      ["batch", { calls: [] }, '"calls"'],
      ["batch", { calls: [{ tool: "batch" }] }, 'batch cannot run "batch"'],
      ["flake_check", { calls: [{ tool: "snapshot" }], n: 2 }, '"n"'],
      ["cookies_get", {}, '"name"'],
      ["cookies_get", { name: "a", url: "example.com" }, "absolute URL"],
      ["cookies_list", { urls: ["about:blank"] }, "http(s)"],
      ["cookies_set", { name: "a", value: "1" }, "needs url, or domain and path"],
      ["cookies_set", { name: "a", value: "1", domain: "127.0.0.1" }, "needs path"],
      ["cookies_set", { name: "a", value: "1", url: fx.url("/"), path: "/" }, "not both"],
      ["cookies_set", { name: "a", value: "1", url: fx.url("/"), sameSite: "Loose" }, '"sameSite"'],
      ["cookies_set", { name: "a", value: "1", url: fx.url("/"), expires: -2 }, "Invalid expires"],
      ["cookies_set", { name: "", value: "1", url: fx.url("/") }, "needs a name"],
      ["cookies_delete", { name: "a", url: fx.url("/"), domain: "x" }, "not both"],
      ["cookies_clear", { session: "nope" }, 'Unknown session "nope"'],
      ["localstorage_get", {}, '"key"'],
      ["localstorage_list", { key: "k" }, 'unknown field "key"'],
      ["localstorage_set", { key: "k" }, '"value"'],
      ["localstorage_delete", { key: 5 }, '"key"'],
      ["localstorage_clear", { session: "nope" }, 'Unknown session "nope"'],
      ["sessionstorage_get", { key: ["k"] }, '"key"'],
      ["sessionstorage_list", { session: 1 }, '"session"'],
      ["sessionstorage_set", { value: "v" }, '"key"'],
      ["sessionstorage_delete", {}, '"key"'],
      ["sessionstorage_clear", { all: true }, 'unknown field "all"'],
      ["artifact_save", { name: "../x", content: "1" }, "Invalid artifact name"],
      ["artifact_get", { name: "never-saved" }, 'No artifact "never-saved"'],
      ["artifact_list", { session: "../x" }, "Invalid session name"],
      ["caches_list_storages", { origin: "x" }, 'unknown field "origin"'],
      ["caches_list", {}, '"cacheName"'],
      ["caches_list", { cacheName: "no-such-cache" }, 'No cache "no-such-cache"'],
      ["caches_get", { cacheName: "c", url: "ftp://x/" }, "not an http(s) URL"],
      [
        "caches_put",
        { cacheName: "c", url: "/a", response: { body: "a", contentBase64: "YQ==" } },
        "not both",
      ],
      [
        "caches_put",
        { cacheName: "c", url: "/a", response: { contentBase64: "%%" } },
        "not standard base64",
      ],
      ["caches_put", { cacheName: "c", url: "/a", response: { status: 99 } }, "out of range"],
      [
        "caches_put",
        { cacheName: "c", url: "/a", response: { text: "a" } },
        'unknown field "text"',
      ],
      ["caches_delete", { cacheName: "c" }, '"url"'],
      ["caches_clear", { cacheName: "no-such-cache" }, 'No cache "no-such-cache"'],
      ["caches_delete_storage", { cacheName: 7 }, '"cacheName"'],
      ["idb_list_databases", { dbName: "x" }, 'unknown field "dbName"'],
      ["idb_list_stores", { dbName: "no-such-db" }, 'No IndexedDB database "no-such-db"'],
      ["idb_get", { dbName: "d", storeName: "s", key: 1, after: 0 }, '"after" lists records'],
      ["idb_get", { dbName: "d", storeName: "s", limit: 0 }, '"limit"'],
      [
        "idb_get",
        { dbName: "d", storeName: "s", key: { a: 1 } },
        '"key": expected string or number or array, got object',
      ],
      ["idb_put", { dbName: "no-such-db", storeName: "s", value: 1 }, "No IndexedDB database"],
      [
        "idb_put",
        { dbName: "d", storeName: "s", key: true, value: 1 },
        '"key": expected string or number or array',
      ],
      ["idb_put", { dbName: "d", storeName: "s", key: 1 }, '"value"'],
      ["dump_storage_state", { path: "/etc/state.json" }, "workspace"],
      ["dump_storage_state", { path: "../up.json" }, ".."],
      ["inject_storage_state", {}, '"state"'],
      ["inject_storage_state", { state: { cookies: "x" } }, "Invalid state.cookies"],
      ["inject_storage_state", { state: "no-such.json" }, "No file"],
      ["inject_storage_state", { state: {}, mode: "swap" }, '"mode"'],
      ["auth_save", { name: "../evil" }, "Invalid auth state name"],
      ["auth_load", { name: "never-saved" }, 'No auth state "never-saved"'],
      ["auth_list", { name: "x" }, 'unknown field "name"'],
      ["auth_delete", { name: ".hidden" }, "Invalid auth state name"],
      ["open_session", { session: "seeded", storageState: {}, authState: "a" }, "not both"],
      ["idb_delete", { dbName: "no-such-db", storeName: "s", key: 1 }, "No IndexedDB database"],
      ["idb_clear", { dbName: "d" }, '"storeName"'],
      ["set_timezone", { timezoneId: "Mars/Olympus_Mons" }, 'Unknown timezone "Mars/Olympus_Mons"'],
      ["set_timezone", { timezoneId: " UTC" }, 'did you mean "UTC"'],
      ["set_timezone", {}, '"timezoneId"'],
      ["set_locale", { locale: "not a locale" }, 'Invalid locale "not a locale"'],
      ["set_locale", { locale: "" }, "Invalid locale"],
      ["set_color_scheme", { scheme: "purple" }, '"scheme"'],
      ["set_reduced_motion", { on: "reduce" }, '"on"'],
      ["set_user_agent", { userAgent: "a\nb" }, "one non-empty line"],
      ["set_user_agent", { userAgent: "" }, "one non-empty line"],
      ["set_viewport", { width: 0, height: 400 }, '"width"'],
      ["set_viewport", { width: 800 }, "needs height"],
      ["set_viewport", { width: 100000, height: 100000 }, '"width"'],
      ["set_viewport", { width: 800.5, height: 600 }, "whole CSS px"],
      ["set_geolocation", { latitude: 91, longitude: 0 }, '"latitude"'],
      ["set_geolocation", { latitude: 1 }, "needs longitude"],
      ["grant_permissions", { permissions: ["telepathy"] }, 'Unknown permission "telepathy"'],
      ["grant_permissions", { permissions: ["camera"], origin: "nope" }, 'Invalid origin "nope"'],
      [
        "tab_visibility",
        { state: "foreground", holdMs: 100 },
        'holdMs only goes with state "background"',
      ],
      ["tab_visibility", { state: "hidden" }, '"state"'],
      ["text_search", { query: " " }, "Empty query"],
      ["text_search", { query: "a(", regex: true }, 'Invalid query "a("'],
      ["text_search", { query: "a", limit: 0 }, '"limit" is 0'],
      [
        "read_page",
        { selector: "#no-such-region" },
        'No element matches selector "#no-such-region"',
      ],
      ["read_page", { max_chars: 1 }, '"max_chars" is 1'],
      ["get_url", { session: "nope" }, 'Unknown session "nope"'],
      ["name_ref", { name: "1 bad", ref: "e1" }, 'Invalid name "1 bad"'],
      ["name_ref", { name: "ok", ref: "e999999" }, 'Unknown ref "e999999"'],
      ["list_named_refs", { session: "nope" }, 'Unknown session "nope"'],
      ["plan", { query: "Name field", verb: "fill" }, "fill needs value"],
      ["execute", { descriptor: { verb: "drag" } }, "Invalid descriptor"],
      ["click", { named: "never_named" }, 'No named ref "never_named"'],
      ["choose_option", { selector: "#plan" }, '"option"'],
      ["choose_option", { selector: "#plan", option: "Gold" }, 'No option "Gold"'],
      ["choose_option", { selector: "h2", option: "Pro" }, "nothing to choose from"],
      ["dom_read", { ref: "e999999" }, "snapshot"],
      ["dom_read", { depth: 99 }, '"depth"'],
      ["styles_read", {}, "Missing target"],
      ["styles_read", { selector: "#name", properties: ["colr"] }, 'Unknown CSS property: "colr"'],
      ["styles_write", { selector: "#name", property: "colr", value: "red" }, "unknown CSS"],
      ["styles_write", { selector: "#name", property: "color" }, '"value"'],
      ["find", { query: "" }, "Empty query"],
      ["find", { query: "the" }, "only filler words"],
      ["find", { query: "Sign up", limit: 0 }, '"limit"'],
      ["find", { query: "Sign up", contextRef: "e9999" }, "e9999"],
      ["find_feedback", { query: "Sign up", ref: "e9999" }, "e9999"],
      ["find_feedback", { query: " ", ref: "e1" }, "Empty query"],
      ["open_session", { mode: "attached", endpoint: "ws://x", headful: true }, "headful"],
      ["open_session", { session: "shown", headful: "yes" }, '"headful"'],
      ["ask_human", {}, '"instruction"'],
      ["ask_human", { instruction: " " }, '"instruction"'],
      ["ask_human", { instruction: "x".repeat(2001) }, "1..2000 characters"],
      ["ask_human", { instruction: "Log in", session: "nope" }, 'Unknown session "nope"'],
      // Nobody watches this headless server's session: answered at once, never a wait.
      ["ask_human", { instruction: "Solve the CAPTCHA" }, "unattended"],
      ["highlight", {}, '"ref"'],
      ["highlight", { ref: "e1", note: "x".repeat(501) }, "at most 500"],
      ["highlight", { ref: "e1" }, "unattended"],
      ["picked", { session: "nope" }, 'Unknown session "nope"'],
      ["picked", { clear: "yes" }, '"clear"'],
      ["route", { urlPattern: "**/api/*" }, "needs response or abort"],
      ["route", { urlPattern: "**/x", response: { body: "a" }, abort: "failed" }, "not both"],
      ["route", { urlPattern: "**/x", response: { status: 999 } }, '"response.status"'],
      ["route", { urlPattern: "**/x", abort: "exploded" }, '"abort"'],
      ["route", { urlPattern: "*".repeat(2001), abort: "failed" }, "at most 2000"],
      ["route", { urlPattern: "", abort: "failed" }, '"urlPattern"'],
      [
        "route",
        { urlPattern: "**/x", response: { body: "x".repeat(1024 * 1024 + 1) } },
        "at most 1048576",
      ],
      ["route", { urlPattern: "**/x", response: { headers: { "a b": "1" } } }, "Invalid response"],
      [
        "route",
        { urlPattern: "**/x", response: { headers: { "x-a": "a".repeat(8 * 1024 + 1) } } },
        "is too long",
      ],
      [
        "route",
        {
          urlPattern: "**/x",
          response: {
            headers: Object.fromEntries(
              Array.from({ length: 9 }, (_, i) => [`x-${i}`, "a".repeat(8 * 1024)]),
            ),
          },
        },
        "at most 65536 in all",
      ],
      ["unroute", {}, "needs urlPattern or all"],
      ["list_routes", { session: "nope" }, 'Unknown session "nope"'],
      // takeover and release need `human` (not listed here): tests/takeover_test.ts has their cases.
      ["takeover", { reason: "x" }, '"human" capability'],
      // Last: a failed navigation leaves the tab on an error page.
      ["navigate", { url: `http://127.0.0.1:${closedPort}/` }, "ERR_CONNECTION_REFUSED"],
    ];
    const { tools } = await mcp.client.listTools();
    const covered = new Set(cases.map((c) => c[0]));
    for (const tool of tools) {
      assertTrue(covered.has(tool.name), `no bad-input case for ${tool.name}`);
    }
    for (const [tool, args, expect] of cases) {
      const r = await mcp.call(tool, args);
      assertEquals(r.isError, true, `${tool} ${JSON.stringify(args)} should fail: ${textOf(r)}`);
      const text = textOf(r);
      assertIncludes(text, expect, `${tool} ${JSON.stringify(args)}`);
      assertIncludes(text, "Next:", `${tool} gives a next step`);
      const err = r.structuredContent?.error as Record<string, unknown> | undefined;
      assertTrue(
        err && typeof err.code === "string" && typeof err.hint === "string",
        `${tool} structured error`,
      );
    }
    // A huge argument is not echoed back whole (was: a 2 MB selector, a 2 MB error); a
    // selector that long is refused before the page is asked.
    for (
      const [tool, args, said] of [
        ["click", { selector: "#" + "x".repeat(2_000_000) + "[" }, "at most 10000 characters"],
        ["press", { key: "K".repeat(100_000) }, "characters cut"],
        // Free text is capped before the tool runs: a 50 MB find query kept the server busy a
        // minute for every client (red team #7).
        ["find", { query: "a ".repeat(2_000_000) }, "a query of at most 8192 characters"],
        ["plan", { query: "a ".repeat(5_000) }, "a query of at most 8192 characters"],
        ["text_search", { query: "a".repeat(8_193) }, "(this one has 8193)"],
        ["wait_for", { text: "a ".repeat(5_000) }, "a text of at most 8192 characters"],
        ["fill", { selector: "#x", value: "v".repeat(1_048_577) }, "at most 1048576 characters"],
      ] as const
    ) {
      const r = await mcp.call(tool, args);
      assertEquals(r.isError, true);
      if (tool !== "press") {
        const code = (r.structuredContent?.error as Record<string, unknown> | undefined)?.code;
        assertEquals(code, "invalid-argument", textOf(r));
      }
      assertTrue(textOf(r).length < 6000, `${tool}: ${textOf(r).length} characters`);
      assertIncludes(textOf(r), said);
    }
    // Still serving.
    await mcp.ok("navigate", { url: fx.url("form.html"), snapshot: "none" });
    const still = await mcp.ok("snapshot");
    assertIncludes(String(still.tree), "Sign up");
  } finally {
    await mcp.close();
    await fx.close();
  }
});
