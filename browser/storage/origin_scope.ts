/**
 * The active tab's origin for the origin-scoped Cache API and IndexedDB
 * tools: its page, http(s) origin and storage key, or the "navigate first"
 * refusal on about:blank and other documents without a web origin.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { ProtocolError } from "../../cdp/errors.ts";
import { frameStorageKey } from "../../storage/origin_key.ts";
import { webStorageOrigin } from "../../storage/web_storage.ts";
import type { CallContext } from "../call_context.ts";
import { ToolError } from "../tool_error.ts";
import { gateStorage } from "./storage_gate.ts";

/**
 * The refusal of an origin-scoped storage tool on a tab without an http(s) document.
 *
 * @param tool The tool refused, e.g. `localstorage_get`.
 * @param what What the tool needs, e.g. `localStorage`.
 * @param url The tab's URL.
 */
export function navigateFirstError(tool: string, what: string, url: string): ToolError {
  return new ToolError(
    "refused",
    `Refused "${tool}": the active tab is on "${url}", not an http(s) page, so it has no ` +
      `${what}: navigate first`,
    `navigate({ url }) to the site whose ${what} you want (it is per origin), then call ` +
      `${tool} again`,
    { url },
  );
}

/** The origin a storage tool acts on. */
export interface OriginScope {
  /** The active tab. */
  page: Page;
  /** E.g. `http://127.0.0.1:8080`. */
  origin: string;
  /** CDP storage key of the tab's main frame, e.g. `http://127.0.0.1:8080/`. */
  storageKey: string;
}

/**
 * The session's active tab (opened when there is none) and its origin.
 * CDP: `Storage.getStorageKey`.
 *
 * @param tool The calling tool, for the refusal.
 * @param what What the tool needs, e.g. `Cache API`, for the refusal.
 * @throws ToolError refused ("navigate first") when the tab shows no http(s) page;
 *   `blocked-by-policy` when the policy stops its origin (storage_gate.ts).
 */
export async function originScope(
  ctx: CallContext,
  args: { session?: string | undefined },
  tool: string,
  what: string,
  options: { gated?: boolean } = {},
): Promise<OriginScope> {
  const session = await ctx.sessions.get(args.session ?? "default");
  const page = await session.page();
  const origin = webStorageOrigin(page.url);
  if (origin === undefined) throw navigateFirstError(tool, what, page.url);
  // An origin the policy stops (an attached browser's tab on an off-list bank) is no tool's.
  if (!options.gated) await gateStorage(ctx, session, { tool, url: page.url, write: false });
  try {
    const storageKey = await frameStorageKey(page.session, { frameId: page.mainFrameId, origin });
    return { page, origin, storageKey };
  } catch (e) {
    // A document with an opaque origin (CSP `sandbox`) has no storage of its own.
    if (e instanceof ProtocolError && /opaque/i.test(e.originalMessage)) {
      throw navigateFirstError(tool, what, page.url);
    }
    throw e;
  }
}

/**
 * Runs a write on the session's origin in the session's turn: no action
 * navigates the tab between finding the origin and writing to it.
 *
 * @throws ToolError refused ("navigate first"), as {@link originScope}; `blocked-by-policy`
 *   (storage_gate.ts: the origin's policy, `byob_action` in an attached browser); what `fn` throws.
 */
export async function inOriginTurn<T>(
  ctx: CallContext,
  args: { session?: string | undefined },
  names: { tool: string; what: string },
  fn: (scope: OriginScope) => Promise<T>,
): Promise<T> {
  const session = await ctx.sessions.get(args.session ?? "default");
  // Asked before the turn (a question must not hold the tab): the policy, and in an attached
  // browser its owner's yes to a write.
  const gated = webStorageOrigin((await session.page()).url);
  if (gated !== undefined) {
    await gateStorage(ctx, session, { tool: names.tool, url: gated, write: true });
  }
  return await session.exclusive(async () => {
    const scope = await originScope(ctx, args, names.tool, names.what, { gated: true });
    if (scope.origin !== gated) {
      throw new ToolError(
        "refused",
        `Refused "${names.tool}": the tab moved to ${scope.origin} while it was asked about ${gated}`,
        `call ${names.tool} again`,
      );
    }
    return await fn(scope);
  });
}

/**
 * {@link originScope} and {@link inOriginTurn} bound to what a family of
 * tools works on (`Cache API`, `IndexedDB`), for their refusals.
 */
export function originAccess(what: string) {
  return {
    /** The tab's origin for `tool`. */
    scope(ctx: CallContext, tool: string, session?: string): Promise<OriginScope> {
      return originScope(ctx, { session }, tool, what);
    },
    /** Runs a write in the session's turn (no action moves the tab meanwhile). */
    write<T>(
      ctx: CallContext,
      tool: string,
      session: string | undefined,
      fn: (s: OriginScope) => Promise<T>,
    ): Promise<T> {
      return inOriginTurn(ctx, { session }, { tool, what }, fn);
    },
  };
}
