/**
 * Turns CDP console, exception, log and network events into the entries of
 * a session's ring buffers (console_read / network_read) — the same entries
 * the ActionResult summarizes.
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import type { CdpEventArgs } from "../../cdp/types.ts";
import { argsText, capText, MAX_ENTRY_CHARS, type SecretSpans } from "./log_text.ts";
import { NetworkDetails } from "./network_details.ts";
import { RingBuffer } from "./ring_buffer.ts";

/** One console entry (seed 003 shape). */
export interface ConsoleEntry {
  seq: number;
  /** `log`, `info`, `warning`, `error`, `debug`, or `exception`. */
  level: string;
  text: string;
  /** `url:line` of the emitting frame, when known. */
  source?: string;
  /** Epoch ms. */
  timestamp: number;
  /** The tab's target id. */
  tab: string;
}

/** One network request (seed 003 shape, plus what the ActionResult needs). */
export interface NetworkEntry {
  seq: number;
  requestId: string;
  method: string;
  url: string;
  /** CDP resource type: Document, XHR, Fetch, Script, Image, … */
  type: string;
  status?: number;
  mimeType?: string;
  failed: boolean;
  errorText?: string;
  /**
   * Set when the navigation guard stopped the request or answered it itself
   * (an off-list iframe gets a local note page): it never reached the
   * server, so no status is recorded; `errorText` says why.
   */
  blockedByPolicy?: true;
  /**
   * The pattern of the route (`route`) that answered it (a response of the
   * agent's, or a failure): it never reached the server.
   */
  routed?: string;
  /**
   * A document answered as an attachment (`Content-Disposition: attachment`, or
   * `application/octet-stream`): Chromium hands it to the download manager and cancels the
   * load. Set on that cancel, which is then not a failure.
   */
  download?: true;
  /** Epoch ms when the request started. */
  timestamp: number;
  /** Epoch ms when the response headers arrived. */
  respondedAt?: number;
  /** Total time, when finished. */
  durationMs?: number;
  /** True once finished or failed. */
  done: boolean;
  /** Frame that issued it. */
  frameId?: string;
  tab: string;
}

const CONSOLE_CAPACITY = 1000;
const NETWORK_CAPACITY = 1000;
/** Longest URL (request or source) kept, characters (data: URLs can be megabytes). */
export const MAX_URL_CHARS = 4 * 1024;
/** Total characters the console entries of one session hold; older entries go first. */
export const CONSOLE_MAX_CHARS = 2 * 1024 * 1024;
/** Total URL characters the network entries of one session hold. */
export const NETWORK_MAX_CHARS = 1024 * 1024;

/** Chromium's report of a script a sandbox without `allow-scripts` kept from running; 1: the URL. */
const SANDBOX_BLOCKED =
  /^Blocked script execution in '(.*)' because the document's frame is sandboxed and the 'allow-scripts' permission is not set\.$/;

const LEVELS: Record<string, string> = {
  log: "log",
  info: "info",
  warning: "warning",
  error: "error",
  debug: "debug",
  assert: "error",
  trace: "log",
  dir: "log",
  table: "log",
  verbose: "debug",
};

/** The console and network logs of one session. */
export class PageLogs {
  readonly console = new RingBuffer<ConsoleEntry>(CONSOLE_CAPACITY, {
    maxSize: CONSOLE_MAX_CHARS,
    sizeOf: (e) => e.text.length + (e.source?.length ?? 0),
  });
  readonly network = new RingBuffer<NetworkEntry>(NETWORK_CAPACITY, {
    maxSize: NETWORK_MAX_CHARS,
    sizeOf: (e) => e.url.length,
  });
  /** Headers, timings and sizes of the network entries, for `har_save`. */
  readonly details = new NetworkDetails<NetworkEntry>();
  #live = new Map<string, NetworkEntry>();
  /** Live document requests answered as attachments (see {@link NetworkEntry.download}). */
  #attachments = new WeakSet<NetworkEntry>();
  #spans: SecretSpans | undefined;

  /**
   * @param options.secretSpans Where secrets' values occur in a text: a cut
   *   (entry text, URL) never keeps a prefix of one (see {@link capText}).
   */
  constructor(options: { secretSpans?: SecretSpans | undefined } = {}) {
    this.#spans = options.secretSpans;
  }

  #cap(text: string, max = MAX_ENTRY_CHARS): string {
    return capText(text, max, this.#spans);
  }
  /**
   * Console messages, exceptions and log entries already kept, by what Chromium sends again
   * when it restores a page from the back/forward cache (their original timestamps and ids):
   * the restored page did not run again, so what it said then is not news.
   */
  #seenConsole = new Set<string>();

  /** Whether `key` (see {@link #seenConsole}) is seen for the first time; remembers it. */
  #firstTime(key: string): boolean {
    if (this.#seenConsole.has(key)) return false;
    this.#seenConsole.add(key);
    if (this.#seenConsole.size > 5000) {
      this.#seenConsole.delete(this.#seenConsole.values().next().value!);
    }
    return true;
  }
  /** Requests the guard refused, by network request id → why (its report may come first). */
  #blocked = new Map<string, string>();
  /** Requests a route answered, by network request id → pattern (its report may come first). */
  #routed = new Map<string, string>();
  /**
   * Documents requested and not yet past their first "Blocked script execution … sandboxed"
   * report, as `tab|url`: in a document sandboxed without `allow-scripts` (a CSP `sandbox`,
   * which routes serve) Chromium blocks browxai's own init scripts first and says so once, a
   * message the page never caused and plain Chromium never shows; the page's own scripts get
   * their message after it.
   */
  #ownBlocked = new Set<string>();
  /** Documents (`tab|url`) whose sandbox-blocked script was reported, and when (entry ms). */
  #blockedTold = new Map<string, number>();

  /**
   * Records that the navigation guard refused request `requestId` (a CDP
   * `Network.RequestId`) for `why`: the entry reads failed and
   * `blockedByPolicy`, whatever answer the guard gave the page.
   */
  markBlocked(requestId: string, why: string): void {
    const entry = this.#live.get(requestId);
    if (entry) {
      PageLogs.#block(entry, why);
      return;
    }
    this.#blocked.set(requestId, why);
    if (this.#blocked.size > 200) this.#blocked.delete(this.#blocked.keys().next().value!);
  }

  /**
   * Records that a route with `pattern` answered request `requestId` (a CDP
   * `Network.RequestId`): the entry carries `routed`.
   */
  markRouted(requestId: string, pattern: string): void {
    const entry = this.#live.get(requestId);
    if (entry) {
      entry.routed = pattern;
      return;
    }
    this.#routed.set(requestId, pattern);
    if (this.#routed.size > 200) this.#routed.delete(this.#routed.keys().next().value!);
  }

  static #block(entry: NetworkEntry, why: string): void {
    entry.blockedByPolicy = true;
    entry.failed = true;
    entry.errorText = `blocked by policy: ${why}`;
    delete entry.status;
    delete entry.mimeType;
  }

  /**
   * Feeds one CDP event of a tab (`method`, `params`, and the session it came on, kept with a
   * request's details); returns the entry it created or updated, if any.
   */
  onEvent(
    tab: string,
    ...[method, params, session]: CdpEventArgs<[session?: CdpSession, ...rest: unknown[]]>
  ): ConsoleEntry | NetworkEntry | undefined {
    switch (method) {
      case "Runtime.consoleAPICalled": {
        const top = params.stackTrace?.callFrames[0];
        // A page restored from the back/forward cache replays its old
        // messages with their original timestamps: keep each once.
        const key = `${tab}|${params.timestamp}|${params.type}|${params.args.length}`;
        if (!this.#firstTime(key)) return undefined;
        return this.console.push({
          level: LEVELS[params.type] ?? "log",
          text: argsText(params.args, this.#spans),
          ...(top ? { source: `${this.#cap(top.url, MAX_URL_CHARS)}:${top.lineNumber + 1}` } : {}),
          timestamp: Math.round(params.timestamp),
          tab,
        });
      }
      case "Runtime.exceptionThrown": {
        const d = params.exceptionDetails;
        // Replayed on a back/forward-cache restore with the same context, id and timestamp.
        const key = `${tab}|x|${d.executionContextId}|${d.exceptionId}|${params.timestamp}`;
        if (!this.#firstTime(key)) return undefined;
        const text = d.exception?.description?.split("\n    at ")[0] ?? d.text;
        return this.console.push({
          level: "exception",
          text: this.#cap(text),
          ...(d.url ? { source: `${this.#cap(d.url, MAX_URL_CHARS)}:${d.lineNumber + 1}` } : {}),
          timestamp: Date.now(),
          tab,
        });
      }
      case "Log.entryAdded": {
        const { entry } = params;
        // Resource failures also arrive as network events; keep the console for what pages say.
        if (entry.source === "network") return undefined;
        // Replayed on a back/forward-cache restore with its original timestamp.
        const key = `${tab}|log|${entry.timestamp}|${entry.source}|${entry.text.length}`;
        if (!this.#firstTime(key)) return undefined;
        const sandboxed = entry.source === "security" ? SANDBOX_BLOCKED.exec(entry.text) : null;
        if (sandboxed) {
          const doc = `${tab}|${sandboxed[1]!.split("#")[0]}`;
          if (this.#ownBlocked.delete(doc)) return undefined;
          // Chromium may say it again at once for each of browxai's own init scripts and the
          // page's (3 times on a loaded machine), in words that cannot tell them apart: one
          // report per document within a second; a later one (a script the page adds) is told.
          const last = this.#blockedTold.get(doc);
          if (last !== undefined && entry.timestamp - last < 1000) return undefined;
          this.#blockedTold.set(doc, entry.timestamp);
          if (this.#blockedTold.size > 200) {
            this.#blockedTold.delete(this.#blockedTold.keys().next().value!);
          }
        }
        return this.console.push({
          level: entry.level === "verbose" ? "debug" : entry.level,
          text: this.#cap(entry.text),
          ...(entry.url
            ? { source: `${this.#cap(entry.url, MAX_URL_CHARS)}:${(entry.lineNumber ?? 0) + 1}` }
            : {}),
          timestamp: Math.round(entry.timestamp),
          tab,
        });
      }
      case "Network.requestWillBeSent": {
        const prev = this.#live.get(params.requestId);
        if (prev && params.redirectResponse) {
          // A redirect: close the previous hop, start a new entry.
          prev.status = params.redirectResponse.status;
          prev.done = true;
          prev.durationMs = Math.round(params.wallTime * 1000 - prev.timestamp);
        }
        const entry = this.network.push({
          requestId: params.requestId,
          method: params.request.method,
          url: this.#cap(params.request.url, MAX_URL_CHARS),
          type: params.type ?? "Other",
          failed: false,
          timestamp: Math.round(params.wallTime * 1000),
          done: false,
          ...(params.frameId ? { frameId: params.frameId } : {}),
          tab,
        });
        this.#live.set(params.requestId, entry);
        this.details.request(entry, params, session, prev);
        if (params.type === "Document") {
          this.#ownBlocked.add(`${tab}|${params.request.url.split("#")[0]}`);
          // A new load of the document may report its blocked script again.
          this.#blockedTold.delete(`${tab}|${params.request.url.split("#")[0]}`);
          if (this.#ownBlocked.size > 200) {
            this.#ownBlocked.delete(this.#ownBlocked.values().next().value!);
          }
        }
        const why = this.#blocked.get(params.requestId);
        if (why !== undefined) {
          this.#blocked.delete(params.requestId);
          PageLogs.#block(entry, why);
        }
        const pattern = this.#routed.get(params.requestId);
        if (pattern !== undefined) {
          this.#routed.delete(params.requestId);
          entry.routed = pattern;
        }
        return entry;
      }
      case "Network.responseReceived": {
        const entry = this.#live.get(params.requestId);
        // The guard's own answer (a blocked note, a 204) is not the server's.
        if (!entry || entry.blockedByPolicy) return undefined;
        entry.status = params.response.status;
        entry.mimeType = params.response.mimeType;
        if (params.type === "Document" && isAttachment(params.response)) {
          this.#attachments.add(entry);
        }
        entry.respondedAt = Date.now();
        this.details.response(entry, params);
        return entry;
      }
      case "Network.dataReceived": {
        const entry = this.#live.get(params.requestId);
        if (entry) this.details.data(entry, params);
        return undefined;
      }
      case "Network.loadingFinished": {
        const entry = this.#live.get(params.requestId);
        if (!entry) return undefined;
        this.#live.delete(params.requestId);
        entry.done = true;
        entry.durationMs = Math.max(0, Date.now() - entry.timestamp);
        this.details.finished(entry, params.timestamp, params.encodedDataLength);
        if ((entry.status ?? 0) >= 400) entry.failed = true;
        return entry;
      }
      case "Network.loadingFailed": {
        const entry = this.#live.get(params.requestId);
        if (!entry) return undefined;
        this.#live.delete(params.requestId);
        entry.done = true;
        // The cancel of a document that became a download is how a download starts.
        if (this.#attachments.delete(entry) && params.canceled && (entry.status ?? 0) < 400) {
          entry.download = true;
          entry.durationMs = Math.max(0, Date.now() - entry.timestamp);
          this.details.finished(entry, params.timestamp);
          return entry;
        }
        entry.failed = true;
        // Chromium cancels the body of a script or stylesheet answered with an HTTP error (404):
        // the status is what went wrong, "canceled" would blame the page or the client.
        const httpError = (entry.status ?? 0) >= 400 &&
          (params.canceled || params.errorText === "net::ERR_ABORTED");
        if (!entry.blockedByPolicy && !httpError) {
          entry.errorText = params.canceled
            ? "canceled"
            : this.#cap(params.errorText, MAX_URL_CHARS);
        }
        entry.durationMs = Math.max(0, Date.now() - entry.timestamp);
        this.details.finished(entry, params.timestamp);
        return entry;
      }
    }
    return undefined;
  }

  /** Requests of a tab still in flight. */
  inFlight(): NetworkEntry[] {
    return [...this.#live.values()];
  }

  /** Forgets in-flight requests of a closed tab. */
  dropTab(tab: string): void {
    for (const [id, e] of this.#live) if (e.tab === tab) this.#live.delete(id);
  }
}

/** A response Chromium saves as a file instead of showing it (see `NetworkEntry.download`). */
function isAttachment(response: { mimeType: string; headers: Record<string, string> }): boolean {
  const disposition = Object.entries(response.headers)
    .find(([k]) => k.toLowerCase() === "content-disposition")?.[1];
  return /^\s*attachment\b/i.test(disposition ?? "") ||
    response.mimeType === "application/octet-stream";
}
