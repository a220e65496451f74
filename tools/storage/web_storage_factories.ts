/**
 * What the web storage tools share: `localstorage_get/list/set/delete/clear` and
 * `sessionstorage_get/list/set/delete/clear` work on the web storage of the active tab's origin,
 * and each is made by one factory per operation, for an area. The tab must show an http(s) page:
 * on about:blank and other documents without an origin of their own the call is refused with a
 * "navigate first" hint ({@link navigateFirstError}). The CDP work (DOMStorage, no page script) is
 * in `storage/web_storage.ts`.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type ToolOutput } from "../define_tool.ts";
import { objectList, resultOutput } from "../output_schemas.ts";
import type { ToolContext } from "../context.ts";
import {
  openWebStorage,
  StorageOriginError,
  type WebStorageArea,
  type WebStorageKind,
  webStorageOrigin,
} from "../../storage/web_storage.ts";
import { gateStorage } from "../../browser/storage/storage_gate.ts";
import { requireEvalForStoredCode } from "../../browser/storage/stored_code_gate.ts";
import { sessionField } from "../fields.ts";
import { navigateFirstError } from "../../browser/storage/origin_scope.ts";
import { ToolError } from "../../browser/tool_error.ts";

/**
 * Runs `fn` on the `kind` area of the session's active tab, in the session's turn (so no
 * action navigates the tab meanwhile).
 *
 * @throws ToolError refused ("navigate first") when the tab shows no http(s) page;
 *   `blocked-by-policy` when the policy stops its origin or, in an attached browser, the owner
 *   refuses a write (storage_gate.ts).
 */
async function withArea(
  ctx: ToolContext,
  tool: string,
  args: {
    kind: WebStorageKind;
    session?: string | undefined;
    write?: boolean;
    storesCode?: boolean;
  },
  fn: (area: WebStorageArea) => Promise<Record<string, unknown>>,
): Promise<ToolOutput> {
  const session = await ctx.sessions.get(args.session ?? "default");
  // The origin's policy, asked before the turn (a question must not hold the tab); in an
  // attached browser a write asks byob_action (storage_gate.ts).
  const gated = webStorageOrigin((await session.page()).url);
  if (gated !== undefined) {
    // A value the page may run, where a filled secret may be: eval's power (stored_code_gate.ts).
    if (args.storesCode) requireEvalForStoredCode(ctx, tool, { origins: [gated] });
    await gateStorage(ctx, session, { tool, url: gated, write: args.write === true });
  }
  return await session.exclusive(async () => {
    const page = await session.page();
    if (webStorageOrigin(page.url) !== gated && gated !== undefined) {
      throw new ToolError(
        "refused",
        `Refused "${tool}": the tab moved while ${gated} was checked`,
        `call ${tool} again`,
      );
    }
    let area: WebStorageArea;
    try {
      area = await openWebStorage(
        { session: page.session, frameId: page.mainFrameId, url: page.url },
        args.kind,
      );
    } catch (e) {
      if (!(e instanceof StorageOriginError)) throw e;
      throw navigateFirstError(tool, AREA[args.kind], e.url);
    }
    return { structured: { ...await fn(area), origin: area.origin } };
  });
}

const AREA: Record<WebStorageKind, string> = { local: "localStorage", session: "sessionStorage" };

const keyField = z.string().describe("Item key");

/**
 * An area's names: `area` (`localStorage`), the tool name `prefix` (`localstorage`), `where`
 * (for descriptions) and `base`, an operation's name, capability and toolset. Reads need `read`,
 * writes `action`; toolset `storage`.
 */
function names(kind: WebStorageKind) {
  const area = AREA[kind];
  const prefix = area.toLowerCase();
  const where = `of the active tab`;
  const base = (op: string, capability: "read" | "action") =>
    ({ name: `${prefix}_${op}`, capability, toolset: "storage" }) as const;
  return { area, prefix, where, base };
}

/** The `<area>_get` tool of one area (`localstorage_get`, `sessionstorage_get`). */
export function webStorageGetTool(kind: WebStorageKind) {
  const { area, prefix, where, base } = names(kind);
  return defineTool({
    ...base("get", "read"),
    title: `Get ${area} item`,
    description: `Get a ${area} value ${where}.`,
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    outputSchema: resultOutput({
      found: z.boolean(),
      value: z.string().nullable(),
      origin: z.string(),
    }),
    inputSchema: z.object({ key: keyField, session: sessionField }),
    handler: (ctx, args) =>
      withArea(ctx, `${prefix}_get`, { kind, session: args.session }, async (a) => {
        const value = await a.get(args.key);
        // `found` survives in the text, where a null value is left out as empty (as cookies_get).
        return { found: value !== null, value };
      }),
  });
}

/** The `<area>_list` tool of one area (`localstorage_list`, `sessionstorage_list`). */
export function webStorageListTool(kind: WebStorageKind) {
  const { area, prefix, where, base } = names(kind);
  return defineTool({
    ...base("list", "read"),
    title: `List ${area}`,
    description: `List the ${area} items ${where}.`,
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    outputSchema: resultOutput({ count: z.number(), entries: objectList, origin: z.string() }),
    inputSchema: z.object({ session: sessionField }),
    handler: (ctx, args) =>
      withArea(ctx, `${prefix}_list`, { kind, session: args.session }, async (a) => {
        const entries = await a.list();
        return { count: entries.length, entries };
      }),
  });
}

/** The `<area>_set` tool of one area (`localstorage_set`, `sessionstorage_set`). */
export function webStorageSetTool(kind: WebStorageKind) {
  const { area, prefix, where, base } = names(kind);
  return defineTool({
    ...base("set", "action"),
    title: `Set ${area} item`,
    description: `Set a ${area} item ${where}.`,
    // A value may fill the origin's quota (5 Mi characters): past the 1 Mi string cap.
    largeArgs: true,
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
    outputSchema: resultOutput({ origin: z.string() }),
    inputSchema: z.object({
      key: keyField,
      value: z.string().describe("Item value"),
      session: sessionField,
    }),
    handler: (ctx, args) =>
      withArea(ctx, `${prefix}_set`, {
        kind,
        session: args.session,
        write: true,
        storesCode: true,
      }, async (a) => {
        await a.set(args.key, args.value);
        // Chromium drops a set past the origin's quota without an error: read it back.
        if (await a.get(args.key) !== args.value) {
          throw new ToolError(
            "refused",
            `${area} did not store "${args.key}" (${args.value.length} characters): the ` +
              `origin's ${area} is full (Chromium keeps about 5 million characters per origin, ` +
              "keys and values together); nothing was changed",
            `remove items first (${prefix}_delete or ${prefix}_clear), or store less`,
          );
        }
        return { ok: true };
      }),
  });
}

/** The `<area>_delete` tool of one area (`localstorage_delete`, `sessionstorage_delete`). */
export function webStorageDeleteTool(kind: WebStorageKind) {
  const { area, prefix, where, base } = names(kind);
  return defineTool({
    ...base("delete", "action"),
    title: `Delete ${area} item`,
    description: `Delete a ${area} item ${where}.`,
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
    outputSchema: resultOutput({ existed: z.boolean(), origin: z.string() }),
    inputSchema: z.object({ key: keyField, session: sessionField }),
    handler: (ctx, args) =>
      withArea(
        ctx,
        `${prefix}_delete`,
        { kind, session: args.session, write: true },
        async (a) => ({
          ok: true,
          existed: await a.remove(args.key),
        }),
      ),
  });
}

/** The `<area>_clear` tool of one area (`localstorage_clear`, `sessionstorage_clear`). */
export function webStorageClearTool(kind: WebStorageKind) {
  const { area, prefix, where, base } = names(kind);
  return defineTool({
    ...base("clear", "action"),
    title: `Clear ${area}`,
    description: `Delete every ${area} item ${where}.`,
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
    outputSchema: resultOutput({ cleared: z.number(), origin: z.string() }),
    inputSchema: z.object({ session: sessionField }),
    handler: (ctx, args) =>
      withArea(ctx, `${prefix}_clear`, { kind, session: args.session, write: true }, async (a) => ({
        ok: true,
        cleared: await a.clear(),
      })),
  });
}
