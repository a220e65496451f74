/**
 * The web console's hub (issue 15): one per server process. It knows every
 * MCP client and its browser sessions, keeps the activity stream, and routes
 * what console viewers send (live-socket messages) to the module that owns
 * each message type. Parts of the console register themselves here instead
 * of being wired into one big file:
 *
 * - {@link ConsoleHub.registerClient}: a transport adds each MCP client (its
 *   SessionManager and a way to notify it) and removes it when it goes.
 * - {@link ConsoleHub.addStateProvider}: a part contributes a JSON slice of the
 *   state the console shows (`approvals`, `control`, …); {@link ConsoleHub.state}
 *   composes them.
 * - {@link ConsoleHub.onMessage}: a part handles a viewer message type
 *   (`approve`, `pick`, `input`, …); {@link ConsoleHub.handle} dispatches.
 * - {@link ConsoleHub.changed}: a part says its slice changed; the live socket
 *   listens to the hub's `change` events and pushes new state.
 *
 * The hub holds no HTTP and no CDP: the console server (routes, auth, live
 * socket, screencast) and the human modules (approval channel, takeover,
 * pick) sit around it.
 *
 * @module
 */
import type { SessionManager } from "../../browser/sessions/session_manager.ts";
import type { BrowserSession } from "../../browser/sessions/browser_session.ts";

/** One MCP client as the console knows it. */
export interface ConsoleClient {
  /** Short label shown to the operator (`stdio`, `c1`, `c2`, …); never the Mcp-Session-Id. */
  label: string;
  /** The client's own name from `initialize` (`clientInfo.name`), when known yet. */
  clientName(): string | undefined;
  /** The client's browser sessions. */
  sessions: SessionManager;
  /**
   * Sends the client an MCP log notification (`notifications/message`), e.g.
   * "the person picked p3". Never rejects.
   */
  notify(level: "info" | "warning", data: unknown): Promise<void>;
  /**
   * Writes an audit line for what a person did in the console to this client's session
   * (`tool: "console:takeover"` / `"console:handback"`). Never throws.
   */
  audit?(event: ConsoleAuditEvent): void;
}

/** A person's act in the console, for the audit log ({@link ConsoleClient.audit}). */
export interface ConsoleAuditEvent {
  /** The client's session acted on. */
  session: string;
  action: "takeover" | "handback";
  /** Why: the person's words, or why control came back by itself. */
  reason?: string;
  /** No person pressed it: control came back because nobody watched (`control_lapse.ts`). */
  automatic?: boolean;
}

/** A session as the console addresses it: client label + session name. */
export interface SessionKey {
  client: string;
  session: string;
}

/** One tool call as the console's activity list shows it (from the pipeline). */
export interface ActivityEntry {
  /** Increasing per server. */
  seq: number;
  /** ms since the epoch, at the call's end. */
  time: number;
  client: string;
  session?: string | undefined;
  tool: string;
  /** Arguments with secrets and filled values redacted (the audit's redaction). */
  args: unknown;
  ok: boolean;
  /** A one-line summary of the ActionResult or the error. */
  summary: string;
  /** Call duration, ms. */
  ms: number;
}

/** A message a console viewer sends over the live socket (JSON with a `type`). */
export interface ViewerMessage {
  type: string;
  [key: string]: unknown;
}

/** Who sent a viewer message: a console viewer connection. */
export interface Viewer {
  /** Per connection, increasing. */
  id: number;
  /** Sends a JSON message to this viewer (dropped when the socket is gone). */
  send(message: Record<string, unknown>): void;
}

/** Handles one viewer message type; the result (if any) is sent back to the viewer. */
export type MessageHandler = (
  message: ViewerMessage,
  viewer: Viewer,
) => Promise<Record<string, unknown> | void> | Record<string, unknown> | void;

/** The most activity entries kept. */
export const ACTIVITY_LIMIT = 500;

/** The console's hub; see the module doc. Fires `change` events (`CustomEvent<string>`: the slice). */
export class ConsoleHub extends EventTarget {
  #clients = new Map<string, ConsoleClient>();
  #nextClient = 1;
  #providers = new Map<string, () => unknown>();
  #handlers = new Map<string, MessageHandler>();
  #activity: ActivityEntry[] = [];
  #seq = 0;
  #viewers = new Set<Viewer>();
  readonly #mask: <T>(value: T) => T;

  /**
   * @param options.mask Masks registered secrets' values in a JSON-like value (the secret
   *   store's `mask`): every slice of {@link state} passes through it, since pages set what
   *   the console shows (a title, a URL, a form's action in an approval's summary).
   */
  constructor(options: { mask?: (<T>(value: T) => T) | undefined } = {}) {
    super();
    this.#mask = options.mask ?? ((v) => v);
  }

  /** `value` with registered secrets' values masked (as the agent's results are). */
  mask<T>(value: T): T {
    return this.#mask(value);
  }

  /**
   * Adds an MCP client. `label` is `stdio` for the stdio client; HTTP clients
   * get `c1`, `c2`, … when omitted.
   *
   * @returns The client's label and a function that removes it.
   */
  registerClient(
    client: Omit<ConsoleClient, "label"> & { label?: string },
  ): { label: string; remove: () => void } {
    const label = client.label ?? `c${this.#nextClient++}`;
    this.#clients.set(label, { ...client, label });
    this.changed("sessions");
    return {
      label,
      remove: () => {
        if (this.#clients.delete(label)) this.changed("sessions");
      },
    };
  }

  /** The clients now connected. */
  clients(): ConsoleClient[] {
    return [...this.#clients.values()];
  }

  /** The client with `label`, or undefined. */
  client(label: string): ConsoleClient | undefined {
    return this.#clients.get(label);
  }

  /** The open browser session `key` names, or undefined (never opens one). */
  session(key: SessionKey): BrowserSession | undefined {
    return this.#clients.get(key.client)?.sessions.list().find((s) => s.id === key.session);
  }

  /** Every open browser session with its key. */
  sessions(): Array<{ key: SessionKey; session: BrowserSession }> {
    return this.clients().flatMap((c) =>
      c.sessions.list().map((session) => ({
        key: { client: c.label, session: session.id },
        session,
      }))
    );
  }

  /** A console viewer connected (the live socket opened, authenticated). */
  addViewer(viewer: Viewer): void {
    this.#viewers.add(viewer);
    this.changed("viewers");
  }

  /** A console viewer went away. */
  removeViewer(viewer: Viewer): void {
    if (this.#viewers.delete(viewer)) this.changed("viewers");
  }

  /** Console viewers connected now: a person can answer in the console when this is above 0. */
  get viewerCount(): number {
    return this.#viewers.size;
  }

  /** Sends `message` to every connected viewer. */
  broadcast(message: Record<string, unknown>): void {
    for (const v of this.#viewers) v.send(message);
  }

  /** Records a finished tool call (the pipeline calls this once per call). */
  recordCall(entry: Omit<ActivityEntry, "seq">): void {
    this.#activity.push({ ...entry, seq: ++this.#seq });
    if (this.#activity.length > ACTIVITY_LIMIT) this.#activity.shift();
    this.changed("activity");
  }

  /** Activity entries with `seq` above `since`, oldest first. */
  activity(since = 0): ActivityEntry[] {
    return this.#activity.filter((e) => e.seq > since);
  }

  /** A part contributes the `name` slice of {@link state}. */
  addStateProvider(name: string, provider: () => unknown): void {
    this.#providers.set(name, provider);
  }

  /** The console's state: every provider's slice by name (JSON-serializable), secrets masked. */
  state(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, provider] of this.#providers) out[name] = this.#mask(provider());
    return out;
  }

  /** A part handles viewer messages of `type` (one handler per type). */
  onMessage(type: string, handler: MessageHandler): void {
    if (this.#handlers.has(type)) throw new Error(`console: a handler for "${type}" exists`);
    this.#handlers.set(type, handler);
  }

  /**
   * Dispatches a viewer message to its handler.
   *
   * @returns The handler's reply, or `{ type: "error", error }` for an unknown type or a
   *   handler that threw (never rejects).
   */
  async handle(message: ViewerMessage, viewer: Viewer): Promise<Record<string, unknown> | void> {
    const handler = this.#handlers.get(message.type);
    if (!handler) {
      return {
        type: "error",
        error: `unknown message type "${String(message.type).slice(0, 40)}"`,
      };
    }
    try {
      return await handler(message, viewer);
    } catch (e) {
      return { type: "error", error: e instanceof Error ? e.message : String(e) };
    }
  }

  /** Says the `slice` changed (fires a `change` event). */
  changed(slice: string): void {
    this.dispatchEvent(new CustomEvent<string>("change", { detail: slice }));
  }
}
