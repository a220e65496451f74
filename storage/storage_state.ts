/**
 * Storage state (Playwright's `storageState` shape): a context's cookies and the
 * localStorage of its origins, read in one blob and written back.
 *
 * Which origins: CDP has no "list every origin with storage" call, so the origins are
 * gathered from (1) the cookies: each cookie's host with the scheme and port it was set
 * from (`sourceScheme`, `sourcePort`; Chromium often records port 80 for a cookie set over
 * CDP), (2) the URLs the session's tabs showed or requested (frames, the network log),
 * and (3) when writing, the origins named in the state. An origin that holds localStorage but
 * has neither a cookie nor an open frame is not found.
 *
 * How an origin is reached: DOMStorage needs a frame of the origin, so every origin is
 * visited in a scratch tab of the context ({@link ScratchTab}): its own CDP session
 * intercepts the document request with `Fetch` and answers it with a stub page, so no
 * request leaves the machine and no site script runs; DOMStorage then reads and writes
 * there (localStorage is shared by every tab of the origin in the context).
 *
 * CDP: `Storage.getCookies`, `Storage.setCookies`, `Storage.clearCookies`,
 * `DOMStorage.getDOMStorageItems`, `DOMStorage.setDOMStorageItem`, `DOMStorage.clear`,
 * `Storage.clearDataForStorageKey` (IndexedDB on replace).
 *
 * @module
 */
import type { CdpSession, Connection } from "../cdp/connection.ts";
import type { Protocol } from "../cdp/types.ts";
import {
  type Cookie,
  cookieParam,
  cookieRejectionReason,
  type CookieScope,
  getRawCookies,
  sameKey,
  toCookie,
} from "./cookies.ts";
import { ProtocolError } from "../cdp/errors.ts";
import { webStorageOrigin } from "./web_storage.ts";
import { listDatabaseNames } from "./indexed_db.ts";

/** One origin's localStorage, Playwright's shape. */
export interface OriginState {
  origin: string;
  localStorage: { name: string; value: string }[];
}

/** Playwright's storage state. */
export interface StorageState {
  cookies: Cookie[];
  origins: OriginState[];
}

/** Bad state input; `hint` says what to do instead. */
export class StorageStateError extends Error {
  /** The next step for the caller. */
  readonly hint: string;
  constructor(message: string, hint: string) {
    super(message);
    this.name = "StorageStateError";
    this.hint = hint;
  }
}

/** The origin a raw cookie was set from, e.g. `http://127.0.0.1:8080` (undefined: unknown). */
export function cookieOrigin(c: Protocol.Network.Cookie): string | undefined {
  const host = c.domain.replace(/^\.+/, "");
  if (host === "") return undefined;
  const scheme = c.sourceScheme === "Secure" || (c.sourceScheme !== "NonSecure" && c.secure)
    ? "https"
    : "http";
  const port = c.sourcePort > 0 ? `:${c.sourcePort}` : "";
  return webStorageOrigin(`${scheme}://${host.includes(":") ? `[${host}]` : host}${port}`);
}

/** The origins of the cookies and of `urls` (frame URLs), without duplicates, sorted. */
export function knownOrigins(cookies: Protocol.Network.Cookie[], urls: string[]): string[] {
  const out = new Set<string>();
  for (const c of cookies) {
    const o = cookieOrigin(c);
    if (o) out.add(o);
  }
  for (const u of urls) {
    const o = webStorageOrigin(u);
    if (o) out.add(o);
  }
  return [...out].sort();
}

function storageId(origin: string): Protocol.DOMStorage.StorageId {
  return { storageKey: `${origin}/`, isLocalStorage: true };
}

/** A scratch tab on which origins are visited with a stub document. */
export interface ScratchTab {
  /**
   * Shows a stub document of `origin`; false when it could not be reached.
   * CDP: `Page.navigate` (the document request answered by `Fetch.fulfillRequest`).
   */
  visit(origin: string): Promise<boolean>;
  /** The tab's CDP session (for DOMStorage on the visited origin). */
  readonly session: CdpSession;
}

const STUB = btoa("<!doctype html><title>browxai storage</title>");
/** The stub's headers: HTML that may run no script at all. */
const STUB_HEADERS = [
  { name: "Content-Type", value: "text/html; charset=utf-8" },
  { name: "Content-Security-Policy", value: "script-src 'none'" },
];

/**
 * Makes a tab a {@link ScratchTab}: a CDP session of its own that answers every document
 * request with a stub page and fails any other request. Close the tab when done.
 * CDP: `Target.attachToTarget` (flat), `Network.setBypassServiceWorker` (no service worker
 * answers it), `Fetch.enable`, `Fetch.fulfillRequest`, `Fetch.failRequest`, `Page.navigate`,
 * `Target.detachFromTarget`.
 */
export async function scratchTab(
  connection: Connection,
  targetId: string,
): Promise<ScratchTab & { detach(): Promise<void> }> {
  const { sessionId } = await connection.send("Target.attachToTarget", { targetId, flatten: true });
  const session = connection.session(sessionId);
  session.on("Fetch.requestPaused", (e) => {
    const reply = e.resourceType === "Document"
      ? session.send("Fetch.fulfillRequest", {
        requestId: e.requestId,
        responseCode: 200,
        responseHeaders: STUB_HEADERS,
        body: STUB,
      })
      : session.send("Fetch.failRequest", {
        requestId: e.requestId,
        errorReason: "BlockedByClient",
      });
    reply.catch(() => {});
  });
  // A service worker of the origin would answer the visit itself (its fetch handler runs, its
  // page's scripts run): every request of this tab goes to the network, i.e. to Fetch above.
  await session.send("Network.setBypassServiceWorker", { bypass: true });
  await session.send("Fetch.enable", { patterns: [{ urlPattern: "*", requestStage: "Request" }] });
  return {
    session,
    async visit(origin) {
      try {
        const r = await session.send("Page.navigate", { url: `${origin}/` });
        return !r.errorText;
      } catch {
        return false;
      }
    },
    async detach() {
      await connection.send("Target.detachFromTarget", { sessionId }).catch(() => {});
    },
  };
}

/** An origin's localStorage items. CDP: `DOMStorage.getDOMStorageItems`. */
export async function readLocalStorage(
  session: CdpSession,
  origin: string,
): Promise<{ name: string; value: string }[]> {
  const { entries } = await session.send("DOMStorage.getDOMStorageItems", {
    storageId: storageId(origin),
  });
  return entries.map(([name, value]) => ({ name: name ?? "", value: value ?? "" }));
}

/** What a dump leaves out ({@link dumpStorageState}). */
export interface DumpPolicy {
  allowed?: (url: string) => boolean;
  cookieStopped?: (domain: string) => boolean;
}

/**
 * The context's storage state: every cookie, and the localStorage of every known origin
 * (see the module doc) that holds items.
 *
 * @param tab A scratch tab of the context.
 * @param frameUrls URLs of the frames of the session's tabs.
 * @param options.allowed Whether an origin may be dumped (the caller's policy); the others'
 *   cookies and localStorage are left out and listed in `skipped`, sorted. Default: every one.
 * @param options.cookieStopped Whether a cookie of a domain (`.a.example`: a domain cookie) is
 *   left out though its origin is allowed (it reaches a blocked host); its origin is listed in
 *   `skipped`. Default: none.
 */
export async function dumpStorageState(
  scope: CookieScope,
  tab: ScratchTab,
  frameUrls: string[],
  options: DumpPolicy = {},
): Promise<StorageState & { skipped: string[] }> {
  const allowed = options.allowed ?? (() => true);
  const stopped = options.cookieStopped ?? (() => false);
  const raw = await getRawCookies(scope);
  const origins: OriginState[] = [];
  const skipped = new Set<string>();
  for (const origin of knownOrigins(raw, frameUrls)) {
    // An origin the caller's policy stops is neither visited nor dumped: it is named instead.
    if (!allowed(origin)) {
      skipped.add(origin);
      continue;
    }
    if (!await tab.visit(origin)) continue;
    const localStorage = await readLocalStorage(tab.session, origin);
    if (localStorage.length) origins.push({ origin, localStorage });
  }
  const cookies = raw.filter((c) => {
    const origin = cookieOrigin(c);
    if (origin !== undefined && stopped(c.domain)) return skipped.add(origin), false;
    return origin === undefined || allowed(origin) || (skipped.add(origin), false);
  });
  return { cookies: cookies.map(toCookie), origins, skipped: [...skipped].sort() };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Checks a state's shape (`{cookies?: [...], origins?: [...]}`).
 *
 * @throws StorageStateError naming the first bad field.
 */
export function parseStorageState(v: unknown): StorageState {
  const hint = "pass { cookies: [{name, value, domain, path, …}], origins: [{ origin, " +
    "localStorage: [{name, value}] }] }, e.g. what dump_storage_state returned";
  if (!isRecord(v)) throw new StorageStateError("Invalid state: not an object", hint);
  const cookies = v.cookies ?? [];
  const origins = v.origins ?? [];
  if (!Array.isArray(cookies)) throw new StorageStateError("Invalid state.cookies", hint);
  if (!Array.isArray(origins)) throw new StorageStateError("Invalid state.origins", hint);
  cookies.forEach((c, i) => {
    if (!isRecord(c) || typeof c.name !== "string" || typeof c.value !== "string") {
      throw new StorageStateError(`Invalid state.cookies[${i}]: needs name and value`, hint);
    }
  });
  origins.forEach((o, i) => {
    if (!isRecord(o) || typeof o.origin !== "string" || !Array.isArray(o.localStorage)) {
      throw new StorageStateError(`Invalid state.origins[${i}]: needs origin, localStorage`, hint);
    }
    o.localStorage.forEach((e: unknown, j: number) => {
      if (!isRecord(e) || typeof e.name !== "string" || typeof e.value !== "string") {
        throw new StorageStateError(`Invalid state.origins[${i}].localStorage[${j}]`, hint);
      }
    });
  });
  return { cookies, origins } as StorageState;
}

/** The CDP parameter of a state cookie (domain + path form, or url when there is no domain). */
function stateCookieParam(c: Cookie, i: number): Protocol.Network.CookieParam {
  try {
    return cookieParam({
      name: c.name,
      value: c.value,
      domain: c.domain,
      path: c.path ?? "/",
      expires: c.expires === undefined || c.expires < 0 ? undefined : c.expires,
      httpOnly: c.httpOnly,
      secure: c.secure,
      sameSite: c.sameSite,
    });
  } catch (e) {
    if (e instanceof Error && "hint" in e) {
      throw new StorageStateError(`Invalid state.cookies[${i}]: ${e.message}`, String(e.hint));
    }
    throw e;
  }
}

/** A state cookie Chromium did not store, and why (the rule it likely breaks). */
export interface RejectedCookie {
  name: string;
  domain: string;
  path: string;
  /** E.g. "sameSite None needs secure: true", or Chromium's own error. */
  reason: string;
}

/**
 * Stores cookies and checks each one landed: Chromium drops some silently (SameSite=None
 * without Secure) and fails a whole batch on one bad field ("Invalid cookie fields"), so
 * after a failed batch each cookie is sent alone, and every cookie is then looked for in the
 * context (same name, domain, path and value).
 * CDP: `Storage.setCookies`, `Storage.getCookies`.
 *
 * @returns How many were stored, and each one that was not with the reason.
 */
export async function setCookiesChecked(
  scope: CookieScope,
  params: Protocol.Network.CookieParam[],
): Promise<{ applied: number; rejected: RejectedCookie[] }> {
  if (params.length === 0) return { applied: 0, rejected: [] };
  const ctx = scope.browserContextId ? { browserContextId: scope.browserContextId } : {};
  const refused = new Map<Protocol.Network.CookieParam, string>();
  try {
    await scope.connection.send("Storage.setCookies", { cookies: params, ...ctx });
  } catch (e) {
    if (!(e instanceof ProtocolError)) throw e;
    for (const p of params) {
      await scope.connection.send("Storage.setCookies", { cookies: [p], ...ctx }).catch((e) => {
        if (!(e instanceof ProtocolError)) throw e;
        refused.set(p, `Chromium refused it (${e.originalMessage}): ${cookieRejectionReason(p)}`);
      });
    }
  }
  const stored = await getRawCookies(scope);
  const rejected: RejectedCookie[] = [];
  for (const p of params) {
    const found = stored.some((c) => sameKey(c, p) && c.value === p.value);
    if (found && !refused.has(p)) continue;
    rejected.push({
      name: p.name,
      domain: p.domain ?? new URL(p.url!).hostname,
      path: p.path ?? "/",
      reason: refused.get(p) ?? cookieRejectionReason(p),
    });
  }
  return { applied: params.length - rejected.length, rejected };
}

/** What {@link injectStorageState} did. */
export interface InjectOutcome {
  /** Cookies Chromium stored (the rejected ones not counted). */
  cookies: number;
  /** State cookies Chromium did not store, each with the likely reason. */
  cookiesRejected: RejectedCookie[];
  origins: number;
  /** Origins of the state not written: not an http(s) origin, or not reachable. */
  originsSkipped: string[];
  /**
   * `replace` only: what it cleared first, the cookies Chromium held and, per origin, the
   * IndexedDB databases deleted (a dump holds none, so a dump → inject loses them).
   */
  cleared?: { cookies: number; indexedDB: Array<{ origin: string; databases: string[] }> };
}

/**
 * Applies a state. `replace` first clears every cookie of the context and the
 * localStorage and IndexedDB of every known origin (and of the state's origins); `merge`
 * adds to what is there. Cookies Chromium does not store are reported, not counted (see
 * {@link setCookiesChecked}). CDP: `IndexedDB.requestDatabaseNames` (what `replace` deletes),
 * `Storage.clearCookies`, `Storage.clearDataForStorageKey`,
 * `Storage.setCookies`, `Storage.getCookies`, `DOMStorage.setDOMStorageItem`.
 *
 * @throws StorageStateError for a bad cookie in the state.
 */
export async function injectStorageState(
  scope: CookieScope,
  tab: ScratchTab,
  state: StorageState,
  options: { mode: "replace" | "merge"; frameUrls: string[] },
): Promise<InjectOutcome> {
  const params = state.cookies.map(stateCookieParam);
  const ctx = scope.browserContextId ? { browserContextId: scope.browserContextId } : {};
  let cleared: InjectOutcome["cleared"];
  if (options.mode === "replace") {
    const raw = await getRawCookies(scope);
    const stateOrigins = state.origins.map((o) => o.origin);
    cleared = { cookies: raw.length, indexedDB: [] };
    for (const origin of knownOrigins(raw, [...options.frameUrls, ...stateOrigins])) {
      // Said in the result: best effort. Chromium lists an origin's databases only to a
      // document of it (the scratch tab's stub, as a dump reads localStorage).
      const databases = await tab.visit(origin)
        ? await listDatabaseNames(tab.session, `${origin}/`).catch(() => [])
        : [];
      if (databases.length) cleared.indexedDB.push({ origin, databases });
      await tab.session.send("Storage.clearDataForStorageKey", {
        storageKey: `${origin}/`,
        storageTypes: "local_storage,indexeddb",
      });
    }
    await scope.connection.send("Storage.clearCookies", ctx);
  }
  const set = await setCookiesChecked(scope, params);
  const originsSkipped: string[] = [];
  let origins = 0;
  for (const o of state.origins) {
    const origin = webStorageOrigin(o.origin);
    if (origin === undefined || origin !== o.origin.replace(/\/$/, "")) {
      originsSkipped.push(o.origin);
      continue;
    }
    if (o.localStorage.length && !await tab.visit(origin)) {
      originsSkipped.push(o.origin);
      continue;
    }
    for (const e of o.localStorage) {
      await tab.session.send("DOMStorage.setDOMStorageItem", {
        storageId: storageId(origin),
        key: e.name,
        value: e.value,
      });
    }
    origins++;
  }
  return {
    cookies: set.applied,
    cookiesRejected: set.rejected,
    origins,
    originsSkipped,
    ...(cleared ? { cleared } : {}),
  };
}
