/**
 * `idb_get`: a record's value as JSON, or without `key` the store's records in key order, a
 * page at a time (`after`, `limit`). Each record is keyed by (dbName, storeName, key); no tool
 * creates or upgrades a database or a store (that is the app's schema). What JSON cannot carry
 * (Date, Blob, Map, …) is shown by a marker (`{"$date": "…"}`) and listed in `marked`. The CDP
 * work is in `storage/indexed_db.ts` and `storage/indexed_db_list.ts`.
 *
 * @module
 */
import { z } from "zod";
import { getRecord, type MarkedPlace, NonJsonValueError } from "../../storage/indexed_db.ts";
import { countRecords, listRecords } from "../../storage/indexed_db_list.ts";
import { defineTool, type ToolOutput } from "../define_tool.ts";
import type { ToolContext } from "../context.ts";
import { anyValue, objectList, resultOutput } from "../output_schemas.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { sessionField } from "../fields.ts";
import {
  checkKey,
  dbNameField,
  keyField,
  requireStore,
  scope,
  storeNameField,
} from "./idb_fields.ts";

/** Records listed when no `limit` is given. */
export const DEFAULT_LISTED_RECORDS = 20;
/** Most records one listing returns. */
export const MAX_LISTED_RECORDS = 200;
/** Characters of values (as JSON) one listing returns at most (at least one record). */
export const LISTED_VALUE_CHARS = 64_000;

/** The note of a value with markers: what they are, and that the store is unchanged. */
function markedNote(marked: MarkedPlace[]): string {
  const types = [...new Set(marked.map((m) => m.type))].join(", ");
  return `JSON cannot carry ${types}: shown as markers ({"$date": …}, {"$opaque": …}, …; ` +
    `places in "marked"); the stored values are unchanged`;
}

/** The `idb_get` tool. */
export const idbGetTool = defineTool({
  name: "idb_get",
  title: "Get IndexedDB records",
  description: "Read a record as JSON; no key: list records in key order.",
  capability: "read",
  toolset: "storage",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({
    found: z.boolean(),
    value: anyValue,
    marked: objectList,
    note: z.string(),
    records: objectList,
    count: z.number(),
    total: z.number(),
    hasMore: z.boolean(),
    next: anyValue,
    valueType: z.string(),
    path: z.string(),
    dbName: z.string(),
    storeName: z.string(),
    key: anyValue,
    origin: z.string(),
  }),
  inputSchema: z.object({
    dbName: dbNameField,
    storeName: storeNameField,
    key: keyField.optional(),
    after: keyField.optional().describe("After"),
    limit: z.number().int().min(1).max(MAX_LISTED_RECORDS).optional().describe(
      `Default ${DEFAULT_LISTED_RECORDS}`,
    ),
    session: sessionField,
  }),
  async handler(ctx, args) {
    if (args.key !== undefined && (args.after !== undefined || args.limit !== undefined)) {
      throw new ToolError(
        "invalid-argument",
        `"${args.after !== undefined ? "after" : "limit"}" lists records; "key" reads one`,
        "pass key alone to read a record, or after/limit without key to list",
      );
    }
    if (args.key === undefined) return await listed(ctx, args);
    const key = checkKey(args.key);
    const s = await scope(ctx, "idb_get", args.session);
    await requireStore(s, args);
    const where = { dbName: args.dbName, storeName: args.storeName, key, origin: s.origin };
    try {
      const r = await getRecord(s.page.session, s.storageKey, { ...args, key });
      if (!r.found) return { structured: { found: false, ...where } };
      const { marked, ...rest } = r;
      const more = marked.length ? { marked, note: markedNote(marked) } : {};
      return { structured: { ...rest, ...more, ...where } };
    } catch (e) {
      if (!(e instanceof NonJsonValueError)) throw e;
      throw new ToolError(
        "not-json",
        `The record exists but its value cannot be returned as JSON: ${e.message}`,
        "the value stays untouched in the store; read it through the app (or eval_js)",
        { found: true, path: e.path, valueType: e.valueType, ...where },
      );
    }
  },
});

/** `idb_get` without a key: a page of records, and how many the store holds. */
async function listed(
  ctx: ToolContext,
  args: {
    dbName: string;
    storeName: string;
    after?: unknown;
    limit?: number | undefined;
    session?: string | undefined;
  },
): Promise<ToolOutput> {
  const after = args.after === undefined ? undefined : checkKey(args.after, "after");
  const s = await scope(ctx, "idb_get", args.session);
  await requireStore(s, args);
  const ref = { dbName: args.dbName, storeName: args.storeName };
  const total = await countRecords(s.page.session, s.storageKey, ref);
  const page = await listRecords(s.page.session, s.storageKey, {
    ...ref,
    after,
    limit: args.limit ?? DEFAULT_LISTED_RECORDS,
    maxChars: LISTED_VALUE_CHARS,
  });
  const marked = page.records.flatMap((r) => r.marked ?? []);
  const last = page.records.at(-1);
  return {
    structured: {
      records: page.records,
      count: page.records.length,
      total,
      hasMore: page.hasMore,
      ...(page.hasMore && last ? { next: last.key } : {}),
      ...(marked.length ? { note: markedNote(marked) } : {}),
      ...ref,
      origin: s.origin,
    },
  };
}
