/**
 * What a HAR file needs of each request beyond the network log's entry (`page_logs.ts`):
 * headers, the posted data, the response's status line, protocol and timing, sizes, and the
 * CDP session that can still hand over its body. Kept beside each network log entry
 * (`page_logs.ts` `NetworkEntry`, the key) in a `WeakMap`, so a detail goes when the ring
 * buffer drops its entry.
 *
 * Fed from `Network.requestWillBeSent` (with `redirectResponse` for a hop),
 * `Network.responseReceived`, `Network.dataReceived`, `Network.loadingFinished` and
 * `Network.loadingFailed`; times are CDP monotonic seconds (`Network.MonotonicTime`).
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import type { Protocol } from "../../cdp/types.ts";

/** Longest header set kept (names and values), characters; more are left out. */
export const MAX_HEADER_CHARS = 16 * 1024;
/** Longest posted data kept per request, characters (Chromium hands over up to 64 KiB). */
export const MAX_POST_CHARS = 16 * 1024;
/**
 * Characters of headers and posted data one session keeps in all: past it, the oldest
 * requests' are dropped (their entries stay, marked `trimmed`).
 */
export const MAX_DETAIL_CHARS = 8 * 1024 * 1024;
/** Requests whose heavy parts are tracked (the network log holds 1000 entries). */
const MAX_TRACKED = 2000;

/** A response as a HAR needs it. */
export interface ResponseDetail {
  status: number;
  statusText: string;
  headers: Array<[name: string, value: string]>;
  mimeType: string;
  /** `http/1.1`, `h2`, … as Chromium reports it. */
  protocol?: string | undefined;
  timing?: Protocol.Network.ResourceTiming | undefined;
  /** Bytes received so far when the headers came (the headers' size on the wire). */
  encodedDataLength: number;
  remoteIPAddress?: string | undefined;
  fromCache: boolean;
}

/** One request's details (see the module doc). */
export interface NetworkDetail {
  requestHeaders: Array<[name: string, value: string]>;
  /** Posted data as text (Chromium sends up to `maxPostDataSize`, 64 KiB). */
  postData?: string | undefined;
  /** The body was longer than Chromium hands over with the event. */
  postDataCut?: boolean;
  /** Monotonic seconds: sent, headers received, finished or failed. */
  sentAt: number;
  respondedAt?: number;
  finishedAt?: number;
  /** Seconds since the epoch, when sent. */
  wallTime: number;
  response?: ResponseDetail;
  /** Total encoded bytes (headers and body), when finished. */
  encodedDataLength?: number;
  /** Decoded body bytes received. */
  dataLength: number;
  /** Where a redirect hop led. */
  redirectURL?: string;
  /** The session that carried the request (`Network.getResponseBody` goes there). */
  session?: CdpSession | undefined;
  /** Its headers and posted data were dropped to keep the session's total small. */
  trimmed?: boolean;
}

/** Characters of a header set. */
function sizeOf(headers: Array<[string, string]>): number {
  return headers.reduce((n, [k, v]) => n + k.length + v.length, 0);
}

/** Headers as pairs, at most {@link MAX_HEADER_CHARS} characters in all. */
function pairs(headers: Protocol.Network.Headers | undefined): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let size = 0;
  for (const [name, value] of Object.entries(headers ?? {})) {
    // Chromium joins repeated headers with "\n" (Set-Cookie): one pair each, as on the wire.
    for (const v of String(value).split("\n")) {
      size += name.length + v.length;
      if (size > MAX_HEADER_CHARS) return out;
      out.push([name, v]);
    }
  }
  return out;
}

function responseDetail(r: Protocol.Network.Response): ResponseDetail {
  return {
    status: r.status,
    statusText: r.statusText,
    headers: pairs(r.headers),
    mimeType: r.mimeType,
    protocol: r.protocol,
    timing: r.timing,
    encodedDataLength: r.encodedDataLength,
    remoteIPAddress: r.remoteIPAddress,
    fromCache: Boolean(r.fromDiskCache || r.fromPrefetchCache || r.fromServiceWorker),
  };
}

/** The details of one session's requests, by network log entry (`E`). */
export class NetworkDetails<E extends object> {
  #by = new WeakMap<E, NetworkDetail>();
  /** Heavy parts kept, oldest first, and their total size (see {@link MAX_DETAIL_CHARS}). */
  #kept: Array<{ detail: NetworkDetail; part: "request" | "response"; size: number }> = [];
  #total = 0;

  #keep(detail: NetworkDetail, part: "request" | "response", size: number): void {
    this.#kept.push({ detail, part, size });
    this.#total += size;
    while (this.#total > MAX_DETAIL_CHARS || this.#kept.length > MAX_TRACKED) {
      const old = this.#kept.shift()!;
      this.#total -= old.size;
      if (old.part === "request") {
        old.detail.requestHeaders = [];
        delete old.detail.postData;
      } else if (old.detail.response) old.detail.response.headers = [];
      if (old.size > 0) old.detail.trimmed = true;
    }
  }

  /** The details of `entry`, if recorded. */
  get(entry: E): NetworkDetail | undefined {
    return this.#by.get(entry);
  }

  /** `Network.requestWillBeSent` made `entry`; `prev`: the hop it redirects from. */
  request(
    entry: E,
    params: Protocol.Network.RequestWillBeSentEvent,
    session: CdpSession | undefined,
    prev?: E,
  ): void {
    const before = prev && this.#by.get(prev);
    if (before && params.redirectResponse) {
      before.response = responseDetail(params.redirectResponse);
      this.#keep(before, "response", sizeOf(before.response.headers));
      before.respondedAt = before.finishedAt = params.timestamp;
      before.redirectURL = params.request.url;
    }
    const whole = params.request.postData ?? postDataOf(params.request.postDataEntries);
    const post = whole !== undefined && whole.length <= MAX_POST_CHARS ? whole : undefined;
    const detail: NetworkDetail = {
      requestHeaders: pairs(params.request.headers),
      ...(post !== undefined ? { postData: post } : {}),
      ...(params.request.hasPostData && post === undefined ? { postDataCut: true } : {}),
      sentAt: params.timestamp,
      wallTime: params.wallTime,
      dataLength: 0,
      session,
    };
    this.#by.set(entry, detail);
    this.#keep(detail, "request", sizeOf(detail.requestHeaders) + (post?.length ?? 0));
  }

  /** `Network.responseReceived`. */
  response(entry: E, params: Protocol.Network.ResponseReceivedEvent): void {
    const d = this.#by.get(entry);
    if (!d) return;
    d.response = responseDetail(params.response);
    d.respondedAt = params.timestamp;
    this.#keep(d, "response", sizeOf(d.response.headers));
  }

  /** `Network.dataReceived`. */
  data(entry: E, params: Protocol.Network.DataReceivedEvent): void {
    const d = this.#by.get(entry);
    if (d) d.dataLength += params.dataLength;
  }

  /** `Network.loadingFinished` / `Network.loadingFailed`. */
  finished(entry: E, timestamp: number, encodedDataLength?: number): void {
    const d = this.#by.get(entry);
    if (!d) return;
    d.finishedAt = timestamp;
    if (encodedDataLength !== undefined) d.encodedDataLength = encodedDataLength;
  }
}

/** The text of `postDataEntries` (base64 bytes each), or undefined when there are none. */
function postDataOf(entries: Protocol.Network.PostDataEntry[] | undefined): string | undefined {
  if (!entries?.length) return undefined;
  let parts: Uint8Array[];
  try {
    parts = entries.map((e) => Uint8Array.from(atob(e.bytes ?? ""), (c) => c.charCodeAt(0)));
  } catch {
    return undefined; // not base64: no text to show
  }
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return new TextDecoder().decode(all);
}
