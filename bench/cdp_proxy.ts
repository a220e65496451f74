/**
 * The counting WebSocket proxy `cdp_profile.ts` puts between browxai and Chromium: per window,
 * the CDP commands by method (count, time, bytes), events, bytes each way and the time a command
 * was in flight; with `--trace`, every command in order with when it was sent and answered, and
 * the page's milestones between them.
 *
 * @module
 */

/** CDP traffic seen during one window. */
export interface CdpTally {
  commands: number;
  byMethod: Record<string, { n: number; ms: number; bytesIn: number }>;
  events: number;
  bytesOut: number;
  bytesIn: number;
  /** Time at least one command was awaiting its answer, in ms. */
  busyMs: number;
}

interface Pending {
  method: string;
  t0: number;
  /** The trace line's index (`--trace`). */
  line?: number | undefined;
}

/** Events `--trace` shows between the commands. */
const TRACED_EVENTS = new Set([
  "Page.loadEventFired",
  "Page.domContentEventFired",
  "Page.frameNavigated",
  "Page.lifecycleEvent",
  "Target.attachedToTarget",
  "Page.frameStoppedLoading",
  "Network.requestWillBeSent",
  "Network.responseReceived",
  "Network.loadingFinished",
  "Network.loadingFailed",
]);
const TRACED_LIFECYCLE = new Set(["commit", "load", "networkAlmostIdle"]);

/** `--trace`: every command of a profiled call, in order, with when it was sent and answered. */
let trace: string[] | undefined;
let traceT0 = 0;

/** Starts tracing the commands (and milestones) the proxy sees, from now. */
export function startTrace(): void {
  trace = [];
  traceT0 = performance.now();
}

/** The trace's lines since {@link startTrace} (undefined when none was started); stops it. */
export function takeTrace(): string[] | undefined {
  const lines = trace;
  trace = undefined;
  return lines;
}

/** A short name for a command: the page method a `Runtime.*` call runs, when one is visible. */
function hint(m: { method: string; params?: Record<string, unknown> }): string {
  const p = m.params ?? {};
  const text = String(p.functionDeclaration ?? p.expression ?? "");
  if (!text) return m.method === "Page.setInterceptFileChooserDialog" ? `${p.enabled}` : "";
  const name = /__browx\w*\.(\w+)|\.(\w+)\(|function\s*(\w*)/.exec(text);
  const first = text.replace(/\s+/g, " ").slice(0, 70);
  return `${name ? (name[1] ?? name[2] ?? name[3] ?? "") : ""} | ${first} (${text.length} ch)`;
}

/** A counting proxy between browxai and Chromium's DevTools WebSocket. */
export class CdpProxy {
  tally: CdpTally = CdpProxy.empty();
  #pending = new Map<string, Pending>();
  #busySince = 0;
  #server: Deno.HttpServer<Deno.NetAddr>;
  constructor(upstream: string) {
    this.#server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
      const { socket, response } = Deno.upgradeWebSocket(req);
      const up = new WebSocket(upstream);
      const queue: string[] = [];
      up.onopen = () => queue.splice(0).forEach((m) => up.send(m));
      socket.onmessage = (ev) => {
        const data = String(ev.data);
        this.#out(data);
        if (up.readyState === WebSocket.OPEN) up.send(data);
        else queue.push(data);
      };
      up.onmessage = (ev) => {
        const data = String(ev.data);
        this.#in(data);
        if (socket.readyState === WebSocket.OPEN) socket.send(data);
      };
      socket.onclose = () => up.close();
      up.onclose = () => socket.readyState === WebSocket.OPEN && socket.close();
      return response;
    });
  }
  static empty(): CdpTally {
    return { commands: 0, byMethod: {}, events: 0, bytesOut: 0, bytesIn: 0, busyMs: 0 };
  }
  get url(): string {
    return `ws://127.0.0.1:${this.#server.addr.port}`;
  }
  /** When the last `Page.loadEventFired` came (performance.now() ms; 0: none yet). */
  lastLoad = 0;
  reset(): void {
    this.tally = CdpProxy.empty();
    if (this.#pending.size) this.#busySince = performance.now();
  }
  #out(data: string) {
    const m = JSON.parse(data) as {
      id: number;
      method: string;
      sessionId?: string;
      params?: Record<string, unknown>;
    };
    this.tally.commands++;
    this.tally.bytesOut += data.length;
    const now = performance.now();
    if (this.#pending.size === 0) this.#busySince = now;
    const line = trace?.push(
      `${(now - traceT0).toFixed(1).padStart(7)} +${this.#pending.size} ${m.method} ${hint(m)}`,
    );
    this.#pending.set(`${m.sessionId ?? ""}:${m.id}`, {
      method: m.method,
      t0: now,
      line: line === undefined ? undefined : line - 1,
    });
  }
  #in(data: string) {
    this.tally.bytesIn += data.length;
    const m = JSON.parse(data) as {
      id?: number;
      sessionId?: string;
      method?: string;
      params?: { name?: string; frameId?: string; frame?: { parentId?: string } };
    };
    if (m.id === undefined) {
      this.tally.events++;
      if (m.method === "Page.loadEventFired") this.lastLoad = performance.now();
      // --trace: the page's milestones between the commands (top frame only for lifecycle).
      if (trace && m.method && TRACED_EVENTS.has(m.method)) {
        const p = m.params as { request?: { url?: string }; requestId?: string } | undefined;
        const what = m.method === "Page.lifecycleEvent"
          ? ` ${m.params?.name}`
          : p?.requestId
          ? ` ${p.requestId.slice(-6)} ${p.request?.url?.slice(-40) ?? ""}`
          : "";
        if (m.method !== "Page.lifecycleEvent" || TRACED_LIFECYCLE.has(m.params?.name ?? "")) {
          trace.push(
            `${(performance.now() - traceT0).toFixed(1).padStart(7)} ev ${m.method}${what}${
              m.sessionId ? ` (${m.sessionId.slice(0, 6)})` : ""
            }`,
          );
        }
      }
      return;
    }
    const key = `${m.sessionId ?? ""}:${m.id}`;
    const p = this.#pending.get(key);
    if (!p) return;
    this.#pending.delete(key);
    const now = performance.now();
    const b = this.tally.byMethod[p.method] ??= { n: 0, ms: 0, bytesIn: 0 };
    b.n++;
    b.ms += now - p.t0;
    b.bytesIn += data.length;
    if (trace && p.line !== undefined) {
      trace[p.line] = `${trace[p.line]}  -> ${(now - traceT0).toFixed(1)}`;
    }
    if (this.#pending.size === 0) this.tally.busyMs += now - this.#busySince;
  }
  close(): Promise<void> {
    return this.#server.shutdown();
  }
}
