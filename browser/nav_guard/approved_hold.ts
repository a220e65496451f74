/**
 * A human's yes to send a form, held from the yes until the action ends, across every target of
 * the session (red team s15 round 2): the approved send is then the only write. The navigation
 * guard judges each document and script write of every tab, frame and worker (`nav_guard.ts`,
 * `document_requests.ts`, `script_requests.ts`) against it; this hold keeps what they share —
 * whether the approved send went (a yes covers one), which tab shows the document it loaded
 * (that document's own writes are its own) — and holds what no `Fetch` handler sees: WebSockets.
 *
 * Chromium pauses no WebSocket handshake for `Fetch`, nor applies `Network.setBlockedURLs` to
 * one, but an offline network-conditions rule for `ws://` and `wss://` URLs
 * (`Network.emulateNetworkConditionsByRule`) fails a new socket before its handshake leaves,
 * and leaves http(s) requests alone (measured, Chromium 156: the server never sees the upgrade
 * GET; the page's socket errors). The rule is set on every page, frame and worker target while
 * the hold lasts (a target attached meanwhile gets it while it waits for the debugger) and
 * removed after; the tab the approved send loaded a new document in loses it at once. A socket
 * opened before the yes keeps sending (the rule does not reach it, measured): a message it sends
 * meanwhile is reported as one that may have gone. So is a WebTransport session (no rule holds
 * it). Each makes the call fail (`unapproved-submit`).
 *
 * CDP: `Network.emulateNetworkConditionsByRule`; `Network.webSocketCreated`,
 * `Network.webSocketWillSendHandshakeRequest`, `Network.webSocketFrameSent`,
 * `Network.webTransportCreated` (listened to; Network is enabled on every page and worker).
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import { isTargetClosedError } from "../../cdp/errors.ts";
import type { BlockedNavigation } from "./nav_guard_types.ts";

/** The offline rules that fail new WebSockets (and only them). */
const SOCKET_RULES = ["ws", "wss"].map((scheme) => ({
  urlPattern: `${scheme}://*:*/*`,
  offline: true,
  latency: 0,
  downloadThroughput: -1,
  uploadThroughput: -1,
}));

/**
 * Longest wait for a target to take the rule, ms: the action waits for it ({@link
 * ApprovedHold.ready}); a target that did not answer by then counts as not holding sockets
 * (one opened there is reported as one that may have connected).
 */
const RULE_MS = 1_000;
/** Sockets opened before a yes remembered per target at most (their URLs, for their messages). */
const SOCKETS_KEPT = 256;

/** What the hold holds: where the human approved the forms to send (`GuardWindow.approvedSends`). */
export interface HeldYes {
  sends: readonly string[];
}

/** The hold of one session's guard (see the module doc). */
export class ApprovedHold {
  #yes: HeldYes | undefined;
  #block: (b: BlockedNavigation) => void;
  /** The approved send went (its yes covers one). */
  #spent = false;
  /** The network id of the approved send when it was a document request (its loader). */
  #spentLoader: string | undefined;
  /** The target whose main frame committed the document the approved send loaded. */
  #own: string | undefined;
  /** Every watched target's session, by target id, and whether the rule is set on it. */
  #sessions = new Map<string, { session: CdpSession; ruled: boolean }>();
  /** The rules being set (the action waits for them before it acts). */
  #ready: Promise<unknown> = Promise.resolve();

  /** `block` records what the hold stopped or saw go (for the acting call's result). */
  constructor(block: (b: BlockedNavigation) => void) {
    this.#block = block;
  }

  /** True while a yes is held. */
  get active(): boolean {
    return this.#yes !== undefined;
  }

  /** The approved send went already (a second is another send). */
  get spent(): boolean {
    return this.#spent;
  }

  /**
   * Records that the approved send went; `loader`: its network id when it was a document
   * request (the document it loads is then its own, see {@link committed}).
   */
  spend(loader?: string): void {
    this.#spent = true;
    if (loader) this.#spentLoader = loader;
  }

  /**
   * True when `targetId`'s writes are its own: its main frame shows the document the approved
   * send loaded (the site's answer, which may post on its own).
   */
  ownDocument(targetId: string): boolean {
    return this.#own === targetId;
  }

  /** Tells the hold that `targetId`'s main frame committed a document of `loaderId`. */
  committed(targetId: string, loaderId: string): void {
    if (!this.#yes || !this.#spentLoader || loaderId !== this.#spentLoader) return;
    this.#own = targetId;
    // The site's own page: its sockets are its business again.
    const s = this.#sessions.get(targetId);
    if (s?.ruled) this.#rule(s, false);
  }

  /**
   * Starts holding a yes (`yes` undefined: nobody was asked, nothing is held): the socket rule
   * goes on every watched target. See {@link ready}.
   */
  begin(yes: HeldYes | undefined): void {
    this.#spent = false;
    this.#spentLoader = this.#own = undefined;
    this.#yes = yes?.sends.length ? yes : undefined;
    if (!this.#yes) return;
    this.#ready = Promise.all([...this.#live()].map((s) => this.#rule(s, true)));
  }

  /** Resolves once the socket rule is set on every target watched when the hold began. */
  ready(): Promise<void> {
    return this.#ready.then(() => {});
  }

  /** Ends the hold: the rule comes off every target. */
  end(): void {
    if (!this.#yes) return;
    this.#yes = undefined;
    for (const s of this.#live()) if (s.ruled) this.#rule(s, false);
    this.#ready = Promise.resolve();
  }

  /**
   * Watches a page, frame or worker target (call while it waits for the debugger): its
   * sockets are held while a yes is, from now on. `frameId`: what a record names.
   */
  watch(session: CdpSession, targetId: string, frameId: string): void {
    const entry = { session, ruled: false };
    this.#sessions.set(targetId, entry);
    if (this.#yes) this.#rule(entry, true);
    /** Sockets opened before the yes (their messages are not held), by request id → URL. */
    const before = new Map<string, string>();
    /** Sockets opened during the hold, refused unless their handshake was seen to go. */
    const during = new Map<string, BlockedNavigation>();
    const seen = (url: string, how: "handshake" | "frame" | "webtransport", held: boolean) => {
      const b: BlockedNavigation = {
        url,
        reason: "submit",
        frameId,
        form: true,
        request: true,
        unapproved: this.#yes!.sends,
        webSocket: how,
        ...(held ? { socketHeld: true as const } : {}),
      };
      this.#block(b);
      return b;
    };
    session.on("Network.webSocketCreated", (e) => {
      if (!this.#yes || this.#own === targetId) {
        if (before.size >= SOCKETS_KEPT) before.delete(before.keys().next().value!);
        before.set(e.requestId, e.url);
        return;
      }
      during.set(e.requestId, seen(e.url, "handshake", entry.ruled));
    });
    session.on("Network.webSocketWillSendHandshakeRequest", (e) => {
      // The rule was not in place: the handshake went.
      const b = during.get(e.requestId);
      if (b) delete b.socketHeld;
    });
    session.on("Network.webSocketFrameSent", (e) => {
      const url = before.get(e.requestId);
      if (url !== undefined && this.#yes && this.#own !== targetId) seen(url, "frame", false);
    });
    session.on("Network.webSocketClosed", (e) => {
      before.delete(e.requestId);
      during.delete(e.requestId);
    });
    session.on("Network.webTransportCreated", (e) => {
      if (this.#yes && this.#own !== targetId) seen(e.url, "webtransport", false);
    });
  }

  /** Forgets a target gone. */
  forget(targetId: string): void {
    this.#sessions.delete(targetId);
  }

  /** The watched targets still attached (the detached ones forgotten). */
  #live(): Array<{ session: CdpSession; ruled: boolean }> {
    for (const [id, s] of this.#sessions) if (s.session.detached) this.#sessions.delete(id);
    return [...this.#sessions.values()];
  }

  /** Sets (or clears) the socket rule on one target. Never rejects. */
  #rule(entry: { session: CdpSession; ruled: boolean }, on: boolean): Promise<void> {
    entry.ruled = on;
    return entry.session.send("Network.emulateNetworkConditionsByRule", {
      matchedNetworkConditions: on ? SOCKET_RULES : [],
    }, { timeoutMs: RULE_MS }).then(() => {}, (err) => {
      if (on) entry.ruled = false;
      if (!isTargetClosedError(err)) console.error("browxai: navigation guard (sockets):", err);
    });
  }
}
