/**
 * Listing IndexedDB records (`idb_get` without a key) and counting them (`idb_list_stores`),
 * over MCP stdio against real Chromium: an orders app whose records carry a Date each, a store
 * of every structured-clonable kind JSON cannot carry, and a store of big values. A new user
 * could not list a store's keys, and one Date made a record unreadable (session 13, #11).
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";

type R = Record<string, unknown>;

Deno.test("idb_get lists a store's records a page at a time, non-JSON values marked", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,storage" } });
  try {
    await mcp.ok("navigate", { url: fx.url("idb-kinds.html"), snapshot: "none" });
    await mcp.ok("wait_for", { text: "orders ready" });
    const db = { dbName: "orders-db" };

    await t.step("idb_list_stores counts each store's records", async () => {
      const stores = await mcp.ok("idb_list_stores", db);
      const counts = (stores.stores as R[]).map((s) => [s.name, s.records]);
      assertEquals(counts, [["big", 3], ["orders", 30], ["kinds", 4]]);
    });

    await t.step("pages in key order, after the last key, until hasMore is false", async () => {
      const first = await mcp.ok("idb_get", { ...db, storeName: "orders" });
      assertEquals([first.count, first.total, first.hasMore, first.next], [20, 30, true, 20]);
      const r1 = (first.records as R[])[0]!;
      assertEquals(r1.key, 1);
      assertEquals(r1.value, {
        id: 1,
        item: "Item 1",
        when: { $date: "2026-01-01T00:00:00.000Z" },
      });
      assertEquals(r1.marked, [{ path: "$.when", type: "Date" }]);
      assertIncludes(String(first.note), "Date");
      const rest = await mcp.ok("idb_get", {
        ...db,
        storeName: "orders",
        after: first.next,
        limit: 50,
      });
      assertEquals((rest.records as R[]).map((r) => r.key), [...Array(10)].map((_, i) => 21 + i));
      assertEquals([rest.hasMore, "next" in rest], [false, false]);
      const two = await mcp.ok("idb_get", { ...db, storeName: "orders", after: 28.5, limit: 5 });
      assertEquals((two.records as R[]).map((r) => r.key), [29, 30], "after need not be a key");
    });

    await t.step("every kind JSON cannot carry hides only itself", async () => {
      const kinds = await mcp.ok("idb_get", { ...db, storeName: "kinds" });
      const byKey = Object.fromEntries((kinds.records as R[]).map((r) => [r.key, r]));
      assertEquals(Object.keys(byKey), ["all", "bigint", "cycle", "undefined"]);
      assertEquals(byKey.all!.value, {
        map: { $map: [["a", 1], ["b", { $date: "2026-02-03T00:00:00.000Z" }]] },
        set: { $set: ["x", "y"] },
        bytes: { $opaque: "typed array" },
        buffer: { $opaque: "ArrayBuffer" },
        blob: { $opaque: "Blob, File or other platform object" },
        big: { $bigint: "12345678901234567890" },
        nan: { $number: "NaN" },
        nothing: { $undefined: true },
        re: { $regexp: "/ab+c/gi" },
        ok: "plain",
      });
      const paths = (byKey.all!.marked as R[]).map((m) => m.path);
      assertEquals(paths, [
        "$.map",
        "$.map[1][1]",
        "$.set",
        "$.bytes",
        "$.buffer",
        "$.blob",
        "$.big",
        "$.nan",
        "$.nothing",
        "$.re",
      ]);
      assertEquals(byKey.cycle!.value, { name: "loop", self: { $cycle: "$" } });
      assertEquals(byKey.bigint!.value, { $bigint: "7" });
      assertEquals(byKey.undefined!.value, { $undefined: true });
      // idb_get by key marks the same way.
      const one = await mcp.ok("idb_get", { ...db, storeName: "kinds", key: "bigint" });
      assertEquals([one.found, one.value, one.marked], [true, { $bigint: "7" }, [
        { path: "$", type: "BigInt" },
      ]]);
    });

    await t.step("a page stops at its character budget, at least one record", async () => {
      const big = await mcp.ok("idb_get", { ...db, storeName: "big", limit: 3 });
      assertEquals([big.count, big.hasMore, big.next], [1, true, "a"]);
      const next = await mcp.ok("idb_get", { ...db, storeName: "big", after: "a", limit: 3 });
      assertEquals((next.records as R[]).map((r) => r.key), ["b"]);
      const size = JSON.stringify(next).length;
      assertTrue(size < 100_000, `a page is ${size} chars`);
    });

    await t.step(
      "bad input: key with after or limit, an empty limit, a missing store",
      async () => {
        const both = await mcp.call("idb_get", { ...db, storeName: "orders", key: 1, limit: 2 });
        assertEquals(both.isError, true);
        assertIncludes(textOf(both), '"limit" lists records; "key" reads one');
        const zero = await mcp.call("idb_get", { ...db, storeName: "orders", limit: 0 });
        assertEquals(zero.isError, true);
        assertIncludes(textOf(zero), '"limit"');
        const obj = await mcp.call("idb_get", { ...db, storeName: "orders", after: { id: 1 } });
        assertEquals(obj.isError, true);
        assertIncludes(textOf(obj), '"after"');
        const none = await mcp.call("idb_get", { ...db, storeName: "drafts" });
        assertEquals(none.isError, true);
        assertIncludes(textOf(none), 'No object store "drafts"');
      },
    );
  } finally {
    await mcp.close();
    await fx.close();
  }
});
