/**
 * The session's network log as a HAR 1.2 document (`har_save`), built from the log's entries
 * (`session.logs.network`, what `network_read` reads) and their details
 * (`sessions/network_details.ts`).
 *
 * What the file leaves out, and says so in `log.comment`:
 * - Credentials in headers: `Cookie`, `Set-Cookie`, `Authorization`, `Proxy-Authorization`
 *   (as DevTools' default "sanitized" HAR export), and custom ones by their names
 *   ({@link isCredentialHeader}: `X-Api-Key`, `X-Auth-Token`, `X-CSRF-Token`, …); the `cookies`
 *   lists stay empty. The result counts what was left out, by header name.
 * - Bodies (posted data and responses) without the `network-body` capability, and the query
 *   values of writes (POST, PUT, PATCH, DELETE), which the network log shows by keys only.
 * - Under secrets masking, every registered value is masked, as in results.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { Protocol } from "../../cdp/types.ts";
import type { SecretStore } from "../../policy/secrets.ts";
import { isWriteMethod } from "../network_writes.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import type { NetworkDetail } from "../sessions/network_details.ts";
import type { NetworkEntry } from "../sessions/page_logs.ts";

/** Headers a HAR file never carries (compared lower-case); see {@link isCredentialHeader}. */
export const SANITIZED_HEADERS: ReadonlySet<string> = new Set([
  "cookie",
  "set-cookie",
  "set-cookie2",
  "authorization",
  "proxy-authorization",
  "x-api-key",
  "api-key",
  "apikey",
  "x-amz-security-token",
  "x-goog-api-key",
]);

/**
 * True when a header's name says it carries a credential: one of {@link SANITIZED_HEADERS},
 * or a name ending in `-token`, `-api-key`/`-apikey`, `-secret` or `-session` (red team: a page's
 * `X-Api-Key` went into the HAR file whole). Registered secrets are masked wherever they are.
 */
export function isCredentialHeader(name: string): boolean {
  const n = name.toLowerCase();
  return SANITIZED_HEADERS.has(n) || /(^|[-_])(token|api[-_]?key|secret|session)$/.test(n);
}

/** Largest response body put in the file, bytes of its text or base64. */
export const MAX_BODY_CHARS = 1024 * 1024;
/** Largest sum of bodies put in one file. */
export const MAX_BODIES_CHARS = 32 * 1024 * 1024;

/** A HAR `{ name, value }` pair. */
interface HarPair {
  name: string;
  value: string;
}

/** What {@link buildHar} returns. */
export interface HarBuild {
  /** The HAR document (`{ log: { … } }`), masked when a masker was given. */
  har: { log: Record<string, unknown> };
  entries: number;
  pages: number;
  /** Bodies were left out for want of `network-body`. */
  bodiesOmitted: boolean;
  /** Credential headers left out, by lower-case name: how many times each. */
  headersLeftOut: Record<string, number>;
}

/**
 * Builds the HAR of `session`'s network log.
 *
 * @param options.bodies Include bodies (`network-body`): responses through
 *   `Network.getResponseBody` on the session that carried them, while Chromium keeps them.
 * @param options.masker Masks registered values everywhere in the document.
 * @param options.creator `log.creator.version`.
 */
export async function buildHar(
  session: BrowserSession,
  options: {
    bodies: boolean;
    masker?: SecretStore | undefined;
    version: string;
    signal?: AbortSignal | undefined;
  },
): Promise<HarBuild> {
  const logged = session.logs.network.since(0);
  const tabs = new Map(session.tabs.map((p) => [p.target.targetId, p]));
  // A redirect hop is no page of its own: the document it leads to is.
  const pages = await harPages(
    logged.filter((e) => !session.logs.details.get(e)?.redirectURL),
    tabs,
  );
  const budget = { left: MAX_BODIES_CHARS };
  const leftOut = new Map<string, number>();
  const entries = [];
  for (const entry of logged) {
    options.signal?.throwIfAborted();
    const detail = session.logs.details.get(entry);
    if (!detail) continue;
    const pageref = pages.refOf(entry);
    entries.push({
      ...(pageref ? { pageref } : {}),
      ...(await harEntry(entry, detail, { bodies: options.bodies, budget, leftOut })),
    });
  }
  const notes = [
    "credential headers are left out: Cookie, Set-Cookie, Authorization, Proxy-Authorization (as DevTools exports by default) and names like X-Api-Key or *-Token" +
    (leftOut.size ? ` (here: ${[...leftOut.keys()].join(", ")})` : ""),
    ...(options.bodies ? [] : [
      "bodies are left out (they need the network-body capability), and so are the query values of writes (POST, PUT, PATCH, DELETE)",
    ]),
    ...(options.masker ? ["registered secrets are masked"] : []),
    ...(session.logs.network.dropped
      ? [`the ${session.logs.network.dropped} oldest requests were dropped from the session's log`]
      : []),
  ];
  const log = {
    version: "1.2",
    creator: { name: "browxai", version: options.version },
    pages: pages.list,
    entries,
    comment: notes.join("; "),
  };
  const har = { log: options.masker ? options.masker.mask(log) : log };
  return {
    har,
    entries: entries.length,
    pages: pages.list.length,
    bodiesOmitted: !options.bodies,
    headersLeftOut: Object.fromEntries(leftOut),
  };
}

/**
 * HAR pages: each top-level document of a tab (among `logged`), and which page an entry
 * belongs to (the tab's last document logged before it; none before the first).
 */
async function harPages(logged: NetworkEntry[], tabs: Map<string, Page>) {
  const docs = logged.filter((e) => e.type === "Document" && e.frameId === e.tab);
  const list = [];
  const byTab = new Map<string, Array<{ id: string; at: number }>>();
  for (const [i, doc] of docs.entries()) {
    const id = `page_${i + 1}`;
    const later = docs.slice(i + 1).some((d) => d.tab === doc.tab);
    const tab = tabs.get(doc.tab);
    // Only a tab's current document has a title to read; earlier ones are named by URL.
    const title = !later && tab ? await tab.title().catch(() => "") : "";
    list.push({
      startedDateTime: new Date(doc.timestamp).toISOString(),
      id,
      title: title || doc.url,
      pageTimings: { onContentLoad: -1, onLoad: -1 },
    });
    const mine = byTab.get(doc.tab) ?? [];
    mine.push({ id, at: doc.seq });
    byTab.set(doc.tab, mine);
  }
  return {
    list,
    refOf(entry: NetworkEntry): string | undefined {
      return byTab.get(entry.tab)?.findLast((p) => p.at <= entry.seq)?.id;
    },
  };
}

/** One HAR entry (without `pageref`). */
async function harEntry(
  entry: NetworkEntry,
  d: NetworkDetail,
  { bodies, budget, leftOut }: {
    bodies: boolean;
    budget: { left: number };
    leftOut: Map<string, number>;
  },
) {
  const sanitized = (pairs: Array<[string, string]>) => sanitize(pairs, leftOut);
  const r = d.response;
  const url = bodies || !isWriteMethod(entry.method) ? entry.url : valuesDropped(entry.url);
  const httpVersion = harVersion(r?.protocol);
  const timings = harTimings(d);
  const contentType = header(d.requestHeaders, "content-type") ?? "";
  const status = entry.blockedByPolicy ? 0 : (r?.status ?? 0);
  return {
    startedDateTime: new Date(d.wallTime * 1000).toISOString(),
    time: timings.time,
    request: {
      method: entry.method,
      url,
      httpVersion,
      headers: sanitized(d.requestHeaders),
      queryString: queryOf(url),
      cookies: [],
      headersSize: -1,
      bodySize: d.postDataCut
        ? -1
        : d.postData !== undefined
        ? new TextEncoder().encode(d.postData).length
        : 0,
      ...(d.postData !== undefined && bodies
        ? { postData: { mimeType: contentType, text: d.postData } }
        : {}),
    },
    response: {
      status,
      statusText: entry.blockedByPolicy ? "" : (r?.statusText ?? ""),
      httpVersion,
      headers: entry.blockedByPolicy ? [] : sanitized(r?.headers ?? []),
      cookies: [],
      content: await harContent(entry, d, bodies, budget),
      redirectURL: d.redirectURL ?? (r ? header(r.headers, "location") : undefined) ?? "",
      headersSize: -1,
      bodySize: r && d.encodedDataLength !== undefined
        ? Math.max(0, d.encodedDataLength - r.encodedDataLength)
        : -1,
    },
    cache: {},
    timings: timings.timings,
    ...(r?.remoteIPAddress ? { serverIPAddress: r.remoteIPAddress } : {}),
    _resourceType: entry.type,
    ...(entry.errorText ? { _error: entry.errorText } : {}),
    ...(!entry.done || d.trimmed || d.postDataCut
      ? {
        comment: [
          ...(!entry.done ? ["still in flight when saved"] : []),
          ...(d.trimmed ? ["headers dropped: the session keeps 8 MiB of them"] : []),
          ...(d.postDataCut ? ["posted data longer than 16 KiB: not kept"] : []),
        ].join("; "),
      }
      : {}),
  };
}

/** The response body as HAR `content`, or its place with a comment saying why it is empty. */
async function harContent(
  entry: NetworkEntry,
  d: NetworkDetail,
  bodies: boolean,
  budget: { left: number },
) {
  const mimeType = d.response?.mimeType ?? entry.mimeType ?? "";
  const base = { size: d.dataLength, mimeType };
  if (!bodies) return { ...base, comment: "body omitted: needs the network-body capability" };
  const status = d.response?.status ?? 0;
  if (!entry.done || entry.failed || d.redirectURL || status === 204 || status === 304) return base;
  if (!d.session || d.session.detached) {
    return { ...base, comment: "body not available: its tab or frame is gone" };
  }
  let body: Protocol.Network.GetResponseBodyResponse;
  try {
    body = await d.session.send("Network.getResponseBody", { requestId: entry.requestId });
  } catch {
    return { ...base, comment: "body not available: Chromium no longer holds it" };
  }
  if (body.body.length > MAX_BODY_CHARS || body.body.length > budget.left) {
    return { ...base, comment: `body omitted: larger than this file's room for bodies` };
  }
  budget.left -= body.body.length;
  return {
    ...base,
    size: base.size ||
      (body.base64Encoded ? Math.floor(body.body.length * 3 / 4) : body.body.length),
    text: body.body,
    ...(body.base64Encoded ? { encoding: "base64" } : {}),
  };
}

/** HAR timings from Chromium's `ResourceTiming` (ms; -1 where a phase did not happen). */
function harTimings(d: NetworkDetail) {
  const ms = (s: number) => Math.round(s * 1_000_000) / 1000;
  const t = d.response?.timing;
  let timings;
  if (!t) {
    timings = {
      blocked: -1,
      dns: -1,
      connect: -1,
      send: 0,
      wait: d.respondedAt !== undefined ? Math.max(0, ms(d.respondedAt - d.sentAt)) : 0,
      receive: d.finishedAt !== undefined
        ? Math.max(0, ms(d.finishedAt - (d.respondedAt ?? d.sentAt)))
        : 0,
      ssl: -1,
    };
  } else {
    const round = (v: number) => Math.round(v * 1000) / 1000;
    const phase = (start: number, end: number) => start >= 0 ? round(Math.max(0, end - start)) : -1;
    const first = [t.dnsStart, t.connectStart, t.sendStart].find((v) => v >= 0) ?? 0;
    timings = {
      blocked: round(Math.max(0, ms(t.requestTime - d.sentAt)) + first),
      dns: phase(t.dnsStart, t.dnsEnd),
      connect: phase(t.connectStart, t.connectEnd),
      send: round(Math.max(0, t.sendEnd - t.sendStart)),
      wait: round(Math.max(0, t.receiveHeadersEnd - t.sendEnd)),
      receive: d.finishedAt !== undefined
        ? round(Math.max(0, ms(d.finishedAt - t.requestTime) - t.receiveHeadersEnd))
        : 0,
      ssl: phase(t.sslStart, t.sslEnd),
    };
  }
  // `ssl` is part of `connect` (HAR 1.2): not counted twice.
  const parts = [timings.blocked, timings.dns, timings.connect, timings.send, timings.wait];
  const time = [...parts, timings.receive].filter((v) => v > 0).reduce((a, b) => a + b, 0);
  return { timings, time: Math.round(time * 1000) / 1000 };
}

/** `HTTP/1.1`, `HTTP/2.0`, `HTTP/3.0` from Chromium's protocol names; `""` when none. */
function harVersion(protocol: string | undefined): string {
  if (!protocol) return "";
  if (/^http\/1/i.test(protocol)) return protocol.toUpperCase();
  if (protocol === "h2") return "HTTP/2.0";
  if (protocol === "h3" || protocol.startsWith("http/2+quic")) return "HTTP/3.0";
  return protocol;
}

function header(pairs: Array<[string, string]>, name: string): string | undefined {
  return pairs.find(([n]) => n.toLowerCase() === name)?.[1];
}

/** The pairs without credential headers; counts each one left out in `leftOut`. */
function sanitize(pairs: Array<[string, string]>, leftOut: Map<string, number>): HarPair[] {
  const kept: HarPair[] = [];
  for (const [name, value] of pairs) {
    if (!isCredentialHeader(name)) kept.push({ name, value });
    else leftOut.set(name.toLowerCase(), (leftOut.get(name.toLowerCase()) ?? 0) + 1);
  }
  return kept;
}

function queryOf(url: string): HarPair[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

/** `url` with every query value emptied (`?a=&b=`): a write's values stay out. */
export function valuesDropped(url: string): string {
  try {
    const u = new URL(url);
    if (!u.search) return url;
    u.search = [...u.searchParams.keys()].map((k) => `${encodeURIComponent(k)}=`).join("&");
    return u.href;
  } catch {
    return url.split(/[?#]/)[0]!;
  }
}
