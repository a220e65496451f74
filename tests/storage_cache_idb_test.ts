/**
 * The Cache API and IndexedDB tools end to end, over MCP stdio against real
 * Chromium: a page whose Service Worker fills the Cache API (a text and a
 * binary entry), and a notes app on IndexedDB with an in-line-key store and
 * an out-of-line-key store (and a Date value, which JSON cannot carry). Every
 * write is checked through the page's own view (its Cache API, its app code).
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { type McpHarness, startStdio, textOf, type ToolResult } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";

type R = Record<string, unknown>;

/** Asserts an isError result whose text includes `expect`, and returns its structuredContent. */
function assertRefused(r: ToolResult, expect: string, label: string): R {
  assertEquals(r.isError, true, `${label} should fail: ${textOf(r)}`);
  assertIncludes(textOf(r), expect, label);
  assertIncludes(textOf(r), "Next:", `${label} gives a next step`);
  return r.structuredContent ?? {};
}

/** Evaluates an expression in the page (eval_js) and returns its value. */
async function inPage(mcp: McpHarness, expression: string): Promise<unknown> {
  return (await mcp.ok("eval_js", { expression })).value;
}

/** Every byte value, 0 to 255, twice: a body no text decoding survives. */
const BINARY = new Uint8Array(512).map((_, i) => i % 256);

function b64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

Deno.test("Cache API and IndexedDB CRUD over MCP against real pages", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({
    env: {
      BROWX_CAPABILITIES: "read,navigation,action,eval,network-body",
      BROWX_TOOLSETS: "core,debug,storage",
    },
  });
  try {
    await t.step("about:blank is refused with a navigate-first hint", async () => {
      for (const tool of ["caches_list_storages", "idb_list_databases"]) {
        const r = await mcp.call(tool, {});
        const s = assertRefused(r, "navigate first", tool);
        assertEquals((s.error as R).code, "refused");
        assertIncludes(String((s.error as R).hint), "navigate(");
      }
    });

    await t.step("caches_* read what a Service Worker cached", async () => {
      await mcp.ok("navigate", { url: fx.url("storage-sw.html"), snapshot: "none" });
      await mcp.ok("wait_for", { text: "cached 2", timeoutMs: 15000 });
      const storages = await mcp.ok("caches_list_storages");
      assertEquals(storages.names, ["offline-v1"]);
      assertEquals(storages.count, 1);
      assertEquals(storages.origin, fx.origin);

      const list = await mcp.ok("caches_list", { cacheName: "offline-v1" });
      assertEquals(list.count, 2);
      assertEquals(list.entries, [
        { url: fx.url("offline/hello.txt"), method: "GET" },
        { url: fx.url("offline/logo.bin"), method: "GET" },
      ]);
      const filtered = await mcp.ok("caches_list", { cacheName: "offline-v1", urlPattern: "logo" });
      assertEquals(filtered.count, 1);
      assertEquals(
        (await mcp.ok("caches_list", { cacheName: "offline-v1", urlPattern: "LOGO" })).count,
        0,
        "urlPattern is case-sensitive",
      );

      const text = await mcp.ok("caches_get", {
        cacheName: "offline-v1",
        url: fx.url("offline/hello.txt"),
      });
      assertEquals(text.found, true);
      assertEquals(text.kind, "text");
      assertEquals(text.text, "Hello from the service worker");
      assertEquals(text.contentType, "text/plain; charset=utf-8");
      assertEquals(text.status, 200);
      assertEquals(text.byteLength, 29);
      assertEquals(text.contentBase64, undefined);
      assertEquals(text.origin, fx.origin);

      // A path is resolved against the page.
      const bin = await mcp.ok("caches_get", { cacheName: "offline-v1", url: "/offline/logo.bin" });
      assertEquals(bin.kind, "binary");
      assertEquals(bin.contentBase64, b64(new Uint8Array([0, 1, 2, 253, 254, 255])));
      assertEquals(bin.byteLength, 6);
      assertEquals(bin.url, fx.url("offline/logo.bin"));

      const missing = await mcp.ok("caches_get", { cacheName: "offline-v1", url: "/nothing" });
      assertEquals(missing.found, false);
      assertEquals(missing.text, undefined);

      const r = await mcp.call("caches_list", { cacheName: "offline-v2" });
      assertRefused(r, 'No cache "offline-v2"', "unknown cache");
      assertIncludes(textOf(r), '"offline-v1"', "the hint names the caches there are");
    });

    await t.step("caches_put: binary and text round trips the page sees", async () => {
      const put = await mcp.ok("caches_put", {
        cacheName: "fresh",
        url: "/put/bytes.bin",
        response: { headers: { "content-type": "image/png" }, contentBase64: b64(BINARY) },
      });
      assertEquals(put.ok, true);
      assertEquals(put.status, 200, "default status");
      assertEquals(put.byteLength, 512);
      assertEquals(put.url, fx.url("put/bytes.bin"));
      const got = await mcp.ok("caches_get", { cacheName: "fresh", url: "/put/bytes.bin" });
      assertEquals(got.kind, "binary");
      assertEquals(got.contentBase64, b64(BINARY), "binary round trip");
      assertEquals(got.byteLength, 512);
      // The page's own Cache API reads the same bytes.
      const sum = await inPage(
        mcp,
        `caches.open("fresh").then((c) => c.match("/put/bytes.bin")).then((r) => r.arrayBuffer())
          .then((b) => [...new Uint8Array(b)].reduce((a, x, i) => a + x * (i + 1), 0))`,
      );
      assertEquals(sum, BINARY.reduce((a, x, i) => a + x * (i + 1), 0));

      await mcp.ok("caches_put", {
        cacheName: "fresh",
        url: fx.url("put/page.html"),
        response: {
          status: 201,
          headers: { "content-type": "text/html; charset=utf-8", "x-note": "é" },
          body: "<p>héllo</p>",
        },
      });
      const html = await mcp.ok("caches_get", { cacheName: "fresh", url: "/put/page.html" });
      assertEquals(html.kind, "text");
      assertEquals(html.text, "<p>héllo</p>");
      assertEquals(html.status, 201);
      assertEquals((html.headers as R)["x-note"], "é");
      assertEquals(html.byteLength, 13);
      assertEquals(
        await inPage(
          mcp,
          `caches.match("/put/page.html").then(async (r) => r.status + await r.text())`,
        ),
        "201<p>héllo</p>",
      );

      // URLs with a query, and on another origin (a CDN's script, say).
      for (const url of ["/api/items?page=2&sort=name", "https://cdn.example/lib.js?v=1"]) {
        await mcp.ok("caches_put", {
          cacheName: "fresh",
          url,
          response: { headers: { "content-type": "application/json" }, body: `"${url}"` },
        });
        const r = await mcp.ok("caches_get", { cacheName: "fresh", url });
        assertEquals([r.found, r.text], [true, `"${url}"`], url);
      }
      const other = await mcp.ok("caches_get", { cacheName: "fresh", url: "/api/items?page=3" });
      assertEquals(other.found, false, "the query is part of the key");
      const apis = await mcp.ok("caches_list", { cacheName: "fresh", urlPattern: "page=2" });
      assertEquals(apis.entries, [{ url: fx.url("api/items?page=2&sort=name"), method: "GET" }]);

      // A text body without a type gets the Cache API's own text/plain.
      await mcp.ok("caches_put", {
        cacheName: "fresh",
        url: "/put/plain",
        response: { body: "x" },
      });
      const plain = await mcp.ok("caches_get", { cacheName: "fresh", url: "/put/plain" });
      assertEquals(plain.kind, "text");
      assertEquals(plain.text, "x");

      const both = await mcp.call("caches_put", {
        cacheName: "fresh",
        url: "/x",
        response: { body: "a", contentBase64: "YQ==" },
      });
      assertRefused(both, "not both", "body and contentBase64");
      const noBody = await mcp.call("caches_put", {
        cacheName: "fresh",
        url: "/x",
        response: { status: 204, body: "a" },
      });
      assertRefused(noBody, "The Cache API refused the response", "a body on 204");
      assertEquals(
        (await mcp.ok("caches_list_storages")).names,
        ["offline-v1", "fresh"],
        "caches_put created the cache",
      );
    });

    await t.step("caches_delete, caches_clear, caches_delete_storage", async () => {
      const del = await mcp.ok("caches_delete", { cacheName: "fresh", url: "/put/plain" });
      assertEquals(del.existed, true);
      const again = await mcp.ok("caches_delete", { cacheName: "fresh", url: "/put/plain" });
      assertEquals([again.ok, again.existed], [true, false], "idempotent");
      assertEquals(
        (await mcp.ok("caches_get", { cacheName: "fresh", url: "/put/plain" })).found,
        false,
      );
      const noCache = await mcp.ok("caches_delete", { cacheName: "nope", url: "/a" });
      assertEquals(noCache.existed, false);

      const cleared = await mcp.ok("caches_clear", { cacheName: "offline-v1" });
      assertEquals(cleared.cleared, 2);
      assertEquals((await mcp.ok("caches_list", { cacheName: "offline-v1" })).count, 0);
      assertEquals(await inPage(mcp, `caches.has("offline-v1")`), true, "the cache stays");

      const drop = await mcp.ok("caches_delete_storage", { cacheName: "fresh" });
      assertEquals(drop.existed, true);
      assertEquals((await mcp.ok("caches_delete_storage", { cacheName: "fresh" })).existed, false);
      assertEquals(await inPage(mcp, `caches.keys()`), ["offline-v1"]);
    });

    await t.step("idb_list_databases / idb_list_stores, without upgrading", async () => {
      await mcp.ok("navigate", { url: fx.url("storage-idb.html"), snapshot: "none" });
      await mcp.ok("wait_for", { text: "ready: 2 notes" });
      const dbs = await mcp.ok("idb_list_databases");
      assertEquals(dbs.databases, [{ dbName: "notes-db", version: 3 }]);
      assertEquals([dbs.count, dbs.supported, dbs.origin], [1, true, fx.origin]);

      const stores = await mcp.ok("idb_list_stores", { dbName: "notes-db" });
      assertEquals([stores.count, stores.version, stores.dbName], [2, 3, "notes-db"]);
      assertEquals(stores.stores, [
        { name: "notes", keyPath: "id", autoIncrement: false, indexes: [], records: 2 },
        { name: "settings", keyPath: null, autoIncrement: false, indexes: [], records: 5 },
      ]);
      // Not found, and not created either.
      const r = await mcp.call("idb_list_stores", { dbName: "other-db" });
      assertRefused(r, 'No IndexedDB database "other-db"', "unknown database");
      assertIncludes(textOf(r), '"notes-db"');
      assertEquals(
        await inPage(mcp, `indexedDB.databases().then((l) => JSON.stringify(l))`),
        JSON.stringify([{ name: "notes-db", version: 3 }]),
        "no database created, none upgraded",
      );
    });

    await t.step("idb_get: JSON values, and a Date or a Blob shown by a marker", async () => {
      const n1 = await mcp.ok("idb_get", { dbName: "notes-db", storeName: "notes", key: "n1" });
      assertEquals(n1.found, true);
      assertEquals(n1.value, { id: "n1", title: "First note", tags: ["a", "b"], pinned: true });
      const font = await mcp.ok("idb_get", {
        dbName: "notes-db",
        storeName: "settings",
        key: "font",
      });
      assertEquals(font.value, { size: 14, family: "serif" });
      const theme = await mcp.ok("idb_get", {
        dbName: "notes-db",
        storeName: "settings",
        key: "theme",
      });
      assertEquals(theme.value, "dark");
      const none = await mcp.ok("idb_get", { dbName: "notes-db", storeName: "notes", key: "n9" });
      assertEquals(none.found, false);
      assertEquals("value" in none, false);

      const date = await mcp.ok("idb_get", {
        dbName: "notes-db",
        storeName: "settings",
        key: "lastSync",
      });
      assertEquals(date.value, { $date: "2024-01-02T03:04:05.000Z" }, "a Date, marked");
      assertEquals(date.marked, [{ path: "$", type: "Date" }]);
      assertIncludes(String(date.note), "the stored values are unchanged");
      assertEquals(
        await inPage(mcp, `app.readSetting("lastSync").then((d) => d.toISOString())`),
        "2024-01-02T03:04:05.000Z",
        "the value stays as it was",
      );
      const blob = await mcp.ok("idb_get", {
        dbName: "notes-db",
        storeName: "settings",
        key: "avatar",
      });
      assertEquals(
        blob.value,
        { name: "me", picture: { $opaque: "Blob, File or other platform object" } },
        "a Blob inside a value hides only itself",
      );
      assertEquals(blob.marked, [{
        path: "$.picture",
        type: "Blob, File or other platform object",
      }]);
      // A Date key is named by its ISO string.
      const dateKey = await mcp.ok("idb_get", {
        dbName: "notes-db",
        storeName: "settings",
        key: "2024-01-01T00:00:00.000Z",
      });
      assertEquals(dateKey.value, "new year");
      // Listed, a Date key reads as its ISO string, and pages on from it.
      const listed = await mcp.ok("idb_get", {
        dbName: "notes-db",
        storeName: "settings",
        limit: 2,
      });
      const keys = (listed.records as R[]).map((r) => r.key);
      assertEquals(keys, ["2024-01-01T00:00:00.000Z", "avatar"], "Date keys sort before strings");
      const after = await mcp.ok("idb_get", {
        dbName: "notes-db",
        storeName: "settings",
        after: "2024-01-01T00:00:00.000Z",
        limit: 1,
      });
      assertEquals((after.records as R[]).map((r) => r.key), ["avatar"]);
      const store = await mcp.call("idb_get", { dbName: "notes-db", storeName: "drafts", key: 1 });
      assertRefused(store, 'No object store "drafts"', "unknown store");
    });

    await t.step("idb_put: in-line keyPath wins, out-of-line keys, no new stores", async () => {
      const inline = await mcp.ok("idb_put", {
        dbName: "notes-db",
        storeName: "notes",
        key: "ignored",
        value: { id: "n3", title: "Third note", tags: [], pinned: false },
      });
      assertEquals([inline.key, inline.keyPath, inline.keyIgnored], ["n3", "id", true]);
      assertEquals(await inPage(mcp, `app.readNote("n3").then((n) => n.title)`), "Third note");
      assertEquals(await inPage(mcp, `app.readNote("ignored").then((n) => n ?? null)`), null);

      const outline = await mcp.ok("idb_put", {
        dbName: "notes-db",
        storeName: "settings",
        key: "lang",
        value: { code: "fr", rtl: false },
      });
      assertEquals([outline.key, outline.keyPath, outline.keyIgnored], ["lang", null, false]);
      assertEquals(await inPage(mcp, `app.readSetting("lang").then((v) => v.code)`), "fr");
      await mcp.ok("idb_put", {
        dbName: "notes-db",
        storeName: "settings",
        key: [2024, "q1"],
        value: 7,
      });
      assertEquals(
        (await mcp.ok("idb_get", { dbName: "notes-db", storeName: "settings", key: [2024, "q1"] }))
          .value,
        7,
      );

      const noKey = await mcp.call("idb_put", {
        dbName: "notes-db",
        storeName: "settings",
        value: 1,
      });
      assertRefused(noKey, "DataError", "an out-of-line store without a key");
      const noStore = await mcp.call("idb_put", {
        dbName: "notes-db",
        storeName: "drafts",
        key: "d1",
        value: { text: "x" },
      });
      const s = assertRefused(noStore, 'Refused "idb_put": no object store "drafts"', "no store");
      assertIncludes(String((s.error as R).hint), "never creates stores");
      const noDb = await mcp.call("idb_put", {
        dbName: "drafts-db",
        storeName: "drafts",
        key: "d1",
        value: 1,
      });
      assertRefused(noDb, 'No IndexedDB database "drafts-db"', "missing database");
      const stores = await mcp.ok("idb_list_stores", { dbName: "notes-db" });
      assertEquals([stores.count, stores.version], [2, 3], "schema unchanged");
      assertEquals((await mcp.ok("idb_list_databases")).count, 1);
    });

    await t.step("idb_put: idb_get's markers are stored as the values they stand for", async () => {
      const shown = `({ when: new Date("2024-05-06T07:08:09.000Z"), big: 12n, nan: NaN,
        tags: new Set(["a", "b"]), m: new Map([["k", -Infinity]]), re: /a+/gi, gone: undefined,
        plain: { $date: "not a date" } })`;
      await inPage(mcp, `app.writeSetting("typed", ${shown})`);
      const got = await mcp.ok("idb_get", {
        dbName: "notes-db",
        storeName: "settings",
        key: "typed",
      });
      // Written back under another key: every type comes back, the lookalike stays an object.
      const put = await mcp.ok("idb_put", {
        dbName: "notes-db",
        storeName: "settings",
        key: "typed2",
        value: got.value,
      });
      assertEquals(
        [...(put.revived as string[])].sort(),
        ["$.big", "$.gone", "$.m", "$.m[0][1]", "$.nan", "$.re", "$.tags", "$.when"].sort(),
      );
      const read = await inPage(
        mcp,
        `app.readSetting("typed2").then((v) => [v.when instanceof Date && v.when.toISOString(),
          typeof v.big, v.big === 12n, Number.isNaN(v.nan), v.tags instanceof Set && [...v.tags],
          v.m instanceof Map && v.m.get("k"), v.re instanceof RegExp && String(v.re),
          "gone" in v && v.gone === undefined, JSON.stringify(v.plain)].map(String).join("|"))`,
      );
      assertEquals(
        read,
        '2024-05-06T07:08:09.000Z|bigint|true|true|a,b|-Infinity|/a+/gi|true|{"$date":"not a date"}',
      );
      // A Blob's marker carries no value: refused, nothing written.
      const opaque = await mcp.call("idb_put", {
        dbName: "notes-db",
        storeName: "settings",
        key: "typed3",
        value: { pic: { $opaque: "Blob" } },
      });
      assertRefused(opaque, "$.pic is $opaque (Blob)", "an opaque marker");
      assertEquals(await inPage(mcp, `app.readSetting("typed3").then((v) => v ?? null)`), null);
    });

    await t.step("idb_delete and idb_clear", async () => {
      const args = { dbName: "notes-db", storeName: "notes", key: "n2" };
      const del = await mcp.ok("idb_delete", args);
      assertEquals(del.ok, true);
      assertEquals((await mcp.ok("idb_get", args)).found, false);
      const again = await mcp.ok("idb_delete", args);
      assertEquals(JSON.stringify(again), JSON.stringify(del), "same shape when nothing was there");

      const dateKey = {
        dbName: "notes-db",
        storeName: "settings",
        key: "2024-01-01T00:00:00.000Z",
      };
      await mcp.ok("idb_delete", dateKey);
      assertEquals((await mcp.ok("idb_get", dateKey)).found, false, "the Date key's record went");
      assertEquals(
        await inPage(mcp, `app.readSetting(new Date(Date.UTC(2024, 0, 1))).then((v) => v ?? null)`),
        null,
      );

      const cleared = await mcp.ok("idb_clear", { dbName: "notes-db", storeName: "settings" });
      // theme, font, lastSync, avatar, lang, [2024, "q1"], typed, typed2.
      assertEquals(cleared.cleared, 8);
      assertEquals(
        (await mcp.ok("idb_get", { dbName: "notes-db", storeName: "settings", key: "theme" }))
          .found,
        false,
      );
      assertEquals((await mcp.ok("idb_list_stores", { dbName: "notes-db" })).count, 2);
      // The app still runs on what is left: n1 and n3.
      await mcp.ok("reload", { snapshot: "none" });
      await mcp.ok("wait_for", { text: "ready: 2 notes" });
      assertEquals(
        await inPage(mcp, `[...document.querySelectorAll("li")].map((li) => li.textContent)`),
        ["First note", "Third note"],
      );
    });

    await t.step("another origin has storage of its own", async () => {
      await mcp.ok("navigate", { url: fx.crossUrl("basic.html"), snapshot: "none" });
      const dbs = await mcp.ok("idb_list_databases");
      assertEquals([dbs.count, dbs.origin], [0, fx.crossOrigin]);
      const caches = await mcp.ok("caches_list_storages");
      assertEquals([caches.count, caches.origin], [0, fx.crossOrigin]);
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("caches_get leaves the body out without the network-body capability", async () => {
  const fx = await startFixtureServer();
  // `eval` for caches_put (a service worker may serve what it stores as the site's code).
  const mcp = await startStdio({
    env: { BROWX_TOOLSETS: "core,storage", BROWX_CAPABILITIES: "read,navigation,action,eval" },
  });
  try {
    await mcp.ok("navigate", { url: fx.url("storage-sw.html"), snapshot: "none" });
    await mcp.ok("wait_for", { text: "cached 2", timeoutMs: 15000 });
    for (const [url, kind] of [["/offline/hello.txt", "text"], ["/offline/logo.bin", "binary"]]) {
      const r = await mcp.call("caches_get", { cacheName: "offline-v1", url });
      assertEquals(r.isError, undefined, textOf(r));
      const s = r.structuredContent!;
      assertEquals([s.found, s.kind, s.bodyOmitted], [true, kind, true]);
      assertEquals(s.requiredCapability, "network-body");
      assertIncludes(String(s.hint), "BROWX_CAPABILITIES");
      assertTrue(!("text" in s) && !("contentBase64" in s), "no body");
      assertTrue(!textOf(r).includes("Hello from"), "no body in the text either");
    }
    // Writes need no body capability.
    await mcp.ok("caches_put", { cacheName: "w", url: "/w", response: { body: "secret" } });
    const got = await mcp.ok("caches_get", { cacheName: "w", url: "/w" });
    assertEquals([got.byteLength, got.bodyOmitted], [6, true]);
  } finally {
    await mcp.close();
    await fx.close();
  }
});
