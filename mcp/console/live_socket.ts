/**
 * The console's live socket (`/console/live`): one WebSocket per console viewer, opened after
 * the route checked the cookie and the Origin.
 *
 * Viewer → server: JSON text messages `{ type, … }` of at most {@link MAX_MESSAGE_CHARS}
 * characters. `watch` is handled here (which session the viewer watches, and the size of its
 * live image); every other type goes to {@link ConsoleHub.handle}, and its reply (if any) goes
 * back to that viewer, with the message's `id` when it had one. A malformed message is
 * answered `{ type: "error", error }` and the socket stays open.
 *
 * Server → viewer: `{ type: "state", state }` (the hub's state, at most one per
 * {@link STATE_COALESCE_MS} after `change` events), `{ type: "frame", session, tab, data,
 * metadata }` (the watched session's screencast; a viewer whose socket still holds unsent
 * bytes gets the latest frame once it drained, never a queue of old ones; likewise the latest
 * state), `{ type: "tails",
 * session, console, network }` (when the watched session's logs change), `{ type: "watching",
 * session }` (the answer to `watch`), replies and `{ type: "error", error }`.
 *
 * @module
 */
import { type LiveFrame, liveViewOf } from "../../browser/sessions/live_view.ts";
import type { BrowserSession } from "../../browser/sessions/browser_session.ts";
import type { ConsoleHub, SessionKey, Viewer, ViewerMessage } from "./hub.ts";
import { tailsMark, tailsOf } from "./console_state.ts";

/** Longest viewer message, characters. */
export const MAX_MESSAGE_CHARS = 64 * 1024;
/** State pushes are coalesced over this window, ms. */
export const STATE_COALESCE_MS = 50;
/** How often sessions (titles, URLs, tabs) and tails are looked at for changes, ms. */
const POLL_MS = 500;
/** A frame waits while the socket holds more unsent bytes than this. */
const BACKLOG_BYTES = 64 * 1024;

interface Watching {
  key: SessionKey;
  session: BrowserSession;
  unwatch: () => void;
  tails: string;
  size: { maxWidth: number; maxHeight: number; quality: number };
}

/** One viewer connection. */
class Connection implements Viewer {
  readonly id: number;
  readonly socket: WebSocket;
  watching: Watching | undefined;
  /** The latest frame held back while the socket drains. */
  pending: LiveFrame | undefined;
  drain: ReturnType<typeof setTimeout> | undefined;
  /** A state push was held back while the socket drains: the latest state goes once it did. */
  stateStale = false;
  stateDrain: ReturnType<typeof setTimeout> | undefined;
  /** Frames sent to this viewer (for tests and the bench). */
  frames = 0;

  constructor(id: number, socket: WebSocket) {
    this.id = id;
    this.socket = socket;
  }

  send(message: Record<string, unknown>): void {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    try {
      this.socket.send(JSON.stringify(message));
    } catch { /* closing */ }
  }
}

/** Why a `watch` message cannot be used, or its parts. */
function parseWatch(
  m: ViewerMessage,
): { key: SessionKey | null; size: Watching["size"] } | string {
  const s = m.session;
  let key: SessionKey | null = null;
  if (s !== null && s !== undefined) {
    if (typeof s !== "object" || Array.isArray(s)) {
      return 'watch: "session" must be {client, session} or null';
    }
    const { client, session } = s as Record<string, unknown>;
    if (typeof client !== "string" || typeof session !== "string") {
      return 'watch: "session" must be {client: string, session: string} or null';
    }
    key = { client, session };
  }
  const num = (v: unknown, d: number) => typeof v === "number" && Number.isFinite(v) ? v : d;
  return {
    key,
    size: {
      maxWidth: num(m.maxWidth, 1280),
      maxHeight: num(m.maxHeight, 800),
      quality: num(m.quality, 70),
    },
  };
}

/** The live sockets of one console; see the module doc. */
export class LiveSockets {
  readonly #hub: ConsoleHub;
  readonly #mask: (text: string) => string;
  readonly #sessions: () => unknown;
  readonly #onTick: (() => void) | undefined;
  #conns = new Set<Connection>();
  #nextId = 1;
  #stateTimer: ReturnType<typeof setTimeout> | undefined;
  #poll: ReturnType<typeof setInterval> | undefined;
  #lastSessions = "";
  readonly #onChange = () => this.#scheduleState();

  /**
   * @param options.mask Masks secrets in tail texts.
   * @param options.sessions The `sessions` slice (looked at every 500 ms for changes no event
   *   announces: titles, URLs, tabs).
   * @param options.tick Called on each of those looks (while viewers are connected).
   */
  constructor(
    hub: ConsoleHub,
    options: { mask: (text: string) => string; sessions: () => unknown; tick?: () => void },
  ) {
    this.#hub = hub;
    this.#onTick = options.tick;
    this.#mask = options.mask;
    this.#sessions = options.sessions;
    hub.addEventListener("change", this.#onChange);
  }

  /** Viewers connected to this console. */
  get count(): number {
    return this.#conns.size;
  }

  /** Frames sent to each viewer so far (by viewer id). */
  framesSent(): Map<number, number> {
    return new Map([...this.#conns].map((c) => [c.id, c.frames]));
  }

  /** Takes an upgraded socket (authenticated by the route). */
  accept(socket: WebSocket): void {
    const conn = new Connection(this.#nextId++, socket);
    socket.onopen = () => {
      this.#conns.add(conn);
      this.#hub.addViewer(conn);
      this.#poll ??= setInterval(() => this.#tick(), POLL_MS);
      conn.send({ type: "hello", viewer: conn.id });
      // A part's state provider that throws must not take the server down (event handlers'
      // exceptions are uncaught): the viewer gets the next push instead.
      try {
        conn.send({ type: "state", state: this.#hub.state() });
      } catch (e) {
        console.error("browxai: console state failed:", e);
      }
    };
    socket.onmessage = (e) => {
      this.#onMessage(conn, e.data).catch((err) =>
        conn.send({ type: "error", error: `internal error: ${(err as Error).message}` })
      );
    };
    const gone = () => {
      if (!this.#conns.delete(conn)) return;
      if (conn.stateDrain !== undefined) clearTimeout(conn.stateDrain);
      this.#unwatch(conn);
      this.#hub.removeViewer(conn);
      if (!this.#conns.size && this.#poll !== undefined) {
        clearInterval(this.#poll);
        this.#poll = undefined;
      }
    };
    socket.onclose = gone;
    socket.onerror = gone;
  }

  /** Closes every socket and stops listening to the hub. */
  close(): void {
    this.#hub.removeEventListener("change", this.#onChange);
    if (this.#stateTimer !== undefined) clearTimeout(this.#stateTimer);
    if (this.#poll !== undefined) clearInterval(this.#poll);
    this.#poll = undefined;
    for (const c of [...this.#conns]) {
      if (c.stateDrain !== undefined) clearTimeout(c.stateDrain);
      this.#unwatch(c);
      this.#hub.removeViewer(c);
      try {
        c.socket.close(1001, "server closing");
      } catch { /* closed */ }
    }
    this.#conns.clear();
  }

  async #onMessage(conn: Connection, data: unknown): Promise<void> {
    if (typeof data !== "string") {
      return conn.send({ type: "error", error: "malformed message: send JSON text, not binary" });
    }
    if (data.length > MAX_MESSAGE_CHARS) {
      return conn.send({
        type: "error",
        error: `malformed message: over ${MAX_MESSAGE_CHARS} characters`,
      });
    }
    let m: unknown;
    try {
      m = JSON.parse(data);
    } catch {
      return conn.send({ type: "error", error: "malformed message: not JSON" });
    }
    if (!m || typeof m !== "object" || Array.isArray(m)) {
      return conn.send({ type: "error", error: "malformed message: expected a JSON object" });
    }
    const msg = m as ViewerMessage;
    const id = typeof msg.id === "string" || typeof msg.id === "number" ? msg.id : undefined;
    const reply = (r: Record<string, unknown>) =>
      conn.send(id !== undefined && !("id" in r) ? { ...r, id } : r);
    if (typeof msg.type !== "string" || !msg.type) {
      return reply({ type: "error", error: 'malformed message: "type" must be a string' });
    }
    if (msg.type === "watch") return reply(this.#watch(conn, msg));
    const r = await this.#hub.handle(msg, conn);
    if (r) reply(r);
  }

  #watch(conn: Connection, m: ViewerMessage): Record<string, unknown> {
    const parsed = parseWatch(m);
    if (typeof parsed === "string") return { type: "error", error: parsed };
    const { key, size } = parsed;
    const session = key ? this.#hub.session(key) : undefined;
    if (key && !session) {
      return {
        type: "error",
        error: `watch: no open session "${key.session.slice(0, 80)}" of client "${
          key.client.slice(0, 40)
        }"`,
      };
    }
    const w = conn.watching;
    if (w && session === w.session && JSON.stringify(size) === JSON.stringify(w.size)) {
      return { type: "watching", session: key };
    }
    this.#unwatch(conn);
    if (key && session) this.#startWatch(conn, key, session, size);
    this.#scheduleState();
    return { type: "watching", session: key };
  }

  #startWatch(
    conn: Connection,
    key: SessionKey,
    session: BrowserSession,
    size: Watching["size"],
  ): void {
    session.human.addViewer(1);
    const unwatch = liveViewOf(session).watch(size, (f) => this.#frame(conn, key, f));
    conn.watching = { key, session, unwatch, tails: "", size };
    this.#sendTails(conn);
  }

  #unwatch(conn: Connection): void {
    const w = conn.watching;
    if (!w) return;
    conn.watching = undefined;
    conn.pending = undefined;
    if (conn.drain !== undefined) clearTimeout(conn.drain);
    conn.drain = undefined;
    w.unwatch();
    w.session.human.addViewer(-1);
  }

  /** Sends a frame now, or keeps it as the one to send once the socket drained. */
  #frame(conn: Connection, key: SessionKey, f: LiveFrame): void {
    const send = (frame: LiveFrame) => {
      conn.frames++;
      conn.send({
        type: "frame",
        session: key,
        tab: frame.tab,
        data: frame.data,
        metadata: frame.metadata,
      });
    };
    if (conn.socket.bufferedAmount <= BACKLOG_BYTES && !conn.pending) return send(f);
    conn.pending = f;
    const wait = () => {
      conn.drain = undefined;
      if (!conn.pending || conn.watching?.key !== key) return;
      if (conn.socket.bufferedAmount > BACKLOG_BYTES) {
        conn.drain = setTimeout(wait, 10);
        return;
      }
      const p = conn.pending;
      conn.pending = undefined;
      send(p);
    };
    conn.drain ??= setTimeout(wait, 10);
  }

  #sendTails(conn: Connection): void {
    const w = conn.watching;
    if (!w) return;
    const mark = tailsMark(w.session);
    if (mark === w.tails) return;
    w.tails = mark;
    const { mark: _m, ...tails } = tailsOf(w.key, w.session, this.#mask);
    conn.send({ type: "tails", ...tails });
  }

  #scheduleState(): void {
    if (!this.#conns.size || this.#stateTimer !== undefined) return;
    this.#stateTimer = setTimeout(() => {
      this.#stateTimer = undefined;
      let state: Record<string, unknown>;
      try {
        state = this.#hub.state();
      } catch (e) {
        console.error("browxai: console state failed:", e);
        return;
      }
      this.#lastSessions = JSON.stringify(state.sessions ?? null);
      const text = JSON.stringify({ type: "state", state });
      for (const c of this.#conns) this.#pushState(c, text);
    }, STATE_COALESCE_MS);
  }

  /**
   * Sends a state push, or, while the viewer's socket holds more than {@link BACKLOG_BYTES}
   * unsent, holds it back: a viewer that does not read (a stalled network, a suspended
   * laptop) would otherwise make the server queue a whole state per change, without bound.
   * Each push is the whole state, so the latest one, sent once the socket drained, is enough.
   */
  #pushState(c: Connection, text: string): void {
    if (c.socket.readyState !== WebSocket.OPEN) return;
    if (c.socket.bufferedAmount > BACKLOG_BYTES) {
      c.stateStale = true;
      c.stateDrain ??= setTimeout(() => this.#drainState(c), STATE_COALESCE_MS);
      return;
    }
    c.stateStale = false;
    try {
      c.socket.send(text);
    } catch { /* closing */ }
  }

  #drainState(c: Connection): void {
    c.stateDrain = undefined;
    if (!c.stateStale || !this.#conns.has(c)) return;
    if (c.socket.bufferedAmount > BACKLOG_BYTES) {
      c.stateDrain = setTimeout(() => this.#drainState(c), STATE_COALESCE_MS);
      return;
    }
    let state: Record<string, unknown>;
    try {
      state = this.#hub.state();
    } catch (e) {
      console.error("browxai: console state failed:", e);
      return;
    }
    this.#pushState(c, JSON.stringify({ type: "state", state }));
  }

  /** Looks for what changes without a hub event: titles, URLs, tabs, closed sessions, logs. */
  #tick(): void {
    try {
      this.#onTick?.();
    } catch (e) {
      console.error("browxai: console tick failed:", e);
    }
    try {
      const slice = this.#sessions() ?? null;
      if (JSON.stringify(slice) !== this.#lastSessions) this.#hub.changed("sessions");
    } catch (e) {
      console.error("browxai: console sessions failed:", e);
    }
    for (const c of this.#conns) {
      const w = c.watching;
      if (!w) continue;
      if (w.session.closed || this.#hub.session(w.key) !== w.session) {
        // The session went (or was opened again under its name): follow the name.
        const key = w.key, size = w.size;
        this.#unwatch(c);
        const again = this.#hub.session(key);
        if (again) this.#startWatch(c, key, again, size);
        continue;
      }
      this.#sendTails(c);
    }
  }
}
