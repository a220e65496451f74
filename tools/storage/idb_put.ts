/**
 * `idb_put`: writes a record to an existing store. Each record is keyed by (dbName, storeName,
 * key); no tool creates or upgrades a database or a store (that is the app's schema). The CDP work
 * is in `storage/indexed_db.ts`.
 *
 * @module
 */
import { z } from "zod";
import { IdbWriteError } from "../../storage/indexed_db.ts";
import { OpaqueMarkerError, putRecord } from "../../storage/indexed_db_put.ts";
import { defineTool } from "../define_tool.ts";
import { anyValue, resultOutput } from "../output_schemas.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { sessionField } from "../fields.ts";
import { requireEvalForStoredCode } from "../../browser/storage/stored_code_gate.ts";
import {
  checkKey,
  dbNameField,
  keyField,
  requireStore,
  storeNameField,
  write,
} from "./idb_fields.ts";

/** The `idb_put` tool. */
export const idbPutTool = defineTool({
  name: "idb_put",
  title: "Put IndexedDB record",
  description:
    "Write a record to an existing store; an in-line keyPath overrides key; idb_get's markers are stored as their values.",
  capability: "action",
  toolset: "storage",
  // Carries data (bytes, a state, a body, a record) past the 1 Mi string cap.
  largeArgs: true,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({
    dbName: z.string(),
    storeName: z.string(),
    key: anyValue,
    keyPath: anyValue,
    keyIgnored: z.boolean(),
    revived: z.array(z.string()),
    origin: z.string(),
  }),
  inputSchema: z.object({
    dbName: dbNameField,
    storeName: storeNameField,
    key: keyField.optional(),
    value: anyValue.describe("JSON value"),
    session: sessionField,
  }),
  async handler(ctx, args) {
    const key = args.key === undefined ? undefined : checkKey(args.key);
    return await write(ctx, "idb_put", args.session, async (s) => {
      // A record the page may run, where a filled secret may be (stored_code_gate.ts).
      requireEvalForStoredCode(ctx, "idb_put", { origins: [s.origin] });
      await requireStore(s, args, "idb_put");
      let put;
      try {
        put = await putRecord(s.page, { ...args, key, value: args.value });
      } catch (e) {
        if (e instanceof OpaqueMarkerError) {
          throw new ToolError(
            "invalid-argument",
            `Refused: ${e.message} (idb_get shows a Blob, a typed array or a cycle so)`,
            "leave that field out of value, or write it with eval_js; nothing was written",
          );
        }
        if (!(e instanceof IdbWriteError)) throw e;
        throw new ToolError(
          "invalid-argument",
          `IndexedDB refused the record: ${e.message}`,
          "an in-line keyPath must be in the value; an out-of-line store without a key " +
            "generator needs key (idb_list_stores shows which)",
        );
      }
      if (!put) {
        throw new ToolError(
          "not-found",
          `Refused: database "${args.dbName}" or its store "${args.storeName}" went away`,
          "check with idb_list_stores, then call again",
        );
      }
      return {
        structured: {
          ok: true,
          dbName: args.dbName,
          storeName: args.storeName,
          key: put.key,
          keyPath: put.keyPath,
          keyIgnored: put.keyIgnored,
          // Markers of idb_get stored as the values they stand for (Date, Map, …).
          ...(put.revived.length ? { revived: put.revived } : {}),
          origin: s.origin,
        },
      };
    });
  },
});
