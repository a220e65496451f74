/**
 * The operator's routes on the `--http` listener, beside `/mcp`:
 *
 * - `GET /healthz`: `200 ok` while the process serves (liveness). No token; says nothing else.
 * - `GET /readyz`: `200 ready` when a browser session could be opened now (a browser context
 *   made and disposed in the shared browser, cached {@link READY_TTL_MS}); `503` with the
 *   reason otherwise, and while draining. No token; the reason names no client or session.
 * - `GET /metrics`: Prometheus text (npm `prom-client`), behind the bearer token when one is
 *   configured (always off loopback).
 * - While draining (SIGTERM), every `POST /mcp` (and legacy `GET /sse`, `POST /messages`) is
 *   answered 503: no new clients, no new calls.
 *
 * @module
 */
// @ts-types="prom-client"
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { BrowserHost } from "../../browser/sessions/browser_host.ts";
import type { SessionPool } from "../../browser/sessions/session_pool.ts";
import type { CallMetrics } from "../pipeline.ts";

/** How long a readiness answer is reused, ms: load balancers poll every few seconds. */
export const READY_TTL_MS = 3000;
/** An answer older than this is not given while a new probe runs: the probe is waited for, ms. */
const STALE_MAX_MS = 30_000;
/** Longest a readiness probe may take before it counts as not ready, ms. */
const PROBE_TIMEOUT_MS = 10_000;

/** What the ops routes read from the server. */
export interface OpsDeps {
  host: BrowserHost;
  pool: SessionPool;
  /** MCP clients connected now. */
  clients: () => number;
  /**
   * Checks a request to `/metrics` (Host/Origin, bearer token): the refusal, or undefined
   * when it may read.
   */
  guard: (req: Request) => Promise<Response | undefined>;
}

function text(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body + "\n", {
    status,
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "cache-control": "no-store",
      ...headers,
    },
  });
}

/** A counter whose value is read from a number browxai keeps (collected at scrape time). */
function counterOf(registry: Registry, name: string, help: string, read: () => number): void {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

/** Health, readiness, metrics and drain of one `--http` server. */
export class Ops {
  readonly registry = new Registry();
  /** Told by the call pipeline of every call (see `mcp/pipeline.ts`). */
  readonly metrics: CallMetrics;
  #deps: OpsDeps;
  #inFlight = 0;
  #idle: Array<() => void> = [];
  #draining = false;
  #ready: { at: number; reason: string | undefined } | undefined;
  #probing: Promise<string | undefined> | undefined;

  constructor(deps: OpsDeps) {
    this.#deps = deps;
    const r = this.registry;
    const calls = new Counter({
      name: "browxai_calls_total",
      help: "Tool calls finished, by tool and outcome (ok or the error code)",
      labelNames: ["tool", "outcome"],
      registers: [r],
    });
    const latency = new Histogram({
      name: "browxai_call_duration_seconds",
      help: "Tool call duration, by tool",
      labelNames: ["tool"],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [r],
    });
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers: [r],
        collect() {
          this.set(read());
        },
      });
    gauge("browxai_calls_in_flight", "Tool calls running now", () => this.#inFlight);
    gauge("browxai_mcp_clients", "MCP clients connected", deps.clients);
    gauge("browxai_browser_sessions", "Browser sessions open (all clients)", () => deps.pool.open);
    gauge(
      "browxai_browser_sessions_max",
      "BROWX_MAX_SESSIONS (+Inf: no limit)",
      () => deps.pool.maxSessions,
    );
    gauge("browxai_session_queue", "Session opens waiting for a free slot", () => deps.pool.queued);
    gauge("browxai_draining", "1 while the server drains (SIGTERM)", () => this.#draining ? 1 : 0);
    const s = deps.host.stats;
    counterOf(r, "browxai_browser_launches_total", "Browsers launched", () => s.launches);
    counterOf(
      r,
      "browxai_browser_restarts_total",
      "Restarts of the shared browser",
      () => s.sharedRestarts,
    );
    counterOf(
      r,
      "browxai_browser_crashes_total",
      "Browsers gone without browxai closing them",
      () => s.crashes,
    );
    counterOf(
      r,
      "browxai_sessions_reaped_total",
      "Sessions closed for being idle",
      () => deps.pool.stats.reaped,
    );
    counterOf(
      r,
      "browxai_busy_refusals_total",
      "Session opens refused busy",
      () => deps.pool.stats.busyRefusals,
    );
    this.metrics = {
      started: () => {
        this.#inFlight++;
      },
      finished: (tool, outcome, seconds) => {
        calls.inc({ tool, outcome });
        latency.observe({ tool }, seconds);
        if (--this.#inFlight === 0) { for (const done of this.#idle.splice(0)) done(); }
      },
    };
  }

  /** Calls running now (top-level and inner). */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** True once {@link drain} began. */
  get draining(): boolean {
    return this.#draining;
  }

  /**
   * Starts draining: `POST /mcp` is refused (503), `/readyz` says 503, no session opens; then
   * waits until no call runs, or `boundMs` passed. Resolves either way (the caller closes).
   */
  async drain(boundMs: number): Promise<{ unfinished: number }> {
    this.#draining = true;
    this.#deps.pool.drain();
    if (this.#inFlight > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        new Promise<void>((r) => this.#idle.push(r)),
        new Promise<void>((r) => timer = setTimeout(r, boundMs)),
      ]);
      clearTimeout(timer);
    }
    // The last results are being written to their streams now: a moment before the caller
    // closes the transports (a count of response streams would need the SDK's internals).
    if (this.#inFlight === 0) await new Promise((r) => setTimeout(r, 250));
    return { unfinished: this.#inFlight };
  }

  /**
   * Why a session cannot be opened now (undefined: it can), probed at most every few seconds.
   * A stale answer is given at once while a new probe runs: a busy browser answers a probe
   * slowly, and a health check that timed out would take a loaded instance (and its clients'
   * sessions) out of the load balancer. Only the first probe, and one after a long silence, is
   * waited for; a probe that hangs fails after {@link PROBE_TIMEOUT_MS}.
   */
  async #readiness(): Promise<string | undefined> {
    if (this.#draining) return "draining: the server is shutting down";
    const age = this.#ready ? Date.now() - this.#ready.at : Infinity;
    if (age < READY_TTL_MS) return this.#ready!.reason;
    const probing = this.#probe();
    return age < STALE_MAX_MS ? this.#ready!.reason : await probing;
  }

  /** Runs one readiness probe at a time; records its answer. */
  #probe(): Promise<string | undefined> {
    return this.#probing ??= (async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        await Promise.race([
          this.#deps.host.probe(),
          new Promise((_, reject) =>
            timer = setTimeout(
              () => reject(new Error(`no browser context within ${PROBE_TIMEOUT_MS} ms`)),
              PROBE_TIMEOUT_MS,
            )
          ),
        ]);
        return undefined;
      } catch (e) {
        // One line: the cause (no browser, a dead endpoint), never a path or a client's data.
        return `cannot open a browser session: ${(e as Error).message.split("\n")[0]}`;
      } finally {
        clearTimeout(timer);
      }
    })().then((reason) => {
      this.#ready = { at: Date.now(), reason };
      this.#probing = undefined;
      return reason;
    });
  }

  /**
   * The response of an ops route, or undefined when `req` is not one (MCP handles it).
   * Call before the `/mcp` routing.
   */
  route(req: Request): Promise<Response> | undefined {
    const path = new URL(req.url).pathname;
    // The legacy SSE transport too: no new stream (GET /sse), no new call (POST /messages).
    if (path === "/mcp" || path === "/messages" || path === "/sse") {
      if (!this.#draining || req.method !== (path === "/sse" ? "GET" : "POST")) return undefined;
      return (async () => {
        await req.body?.cancel().catch(() => {});
        return new Response(
          JSON.stringify({
            jsonrpc: "2.0",
            error: {
              code: -32000,
              message: "Server draining: this browxai instance is shutting down (SIGTERM) and " +
                "takes no new clients or calls; initialize again (a load balancer sends you to " +
                "another instance) or retry later",
            },
            id: null,
          }),
          {
            status: 503,
            headers: {
              "content-type": "application/json",
              "retry-after": "5",
              connection: "close",
            },
          },
        );
      })();
    }
    if (path !== "/healthz" && path !== "/readyz" && path !== "/metrics") return undefined;
    return (async () => {
      await req.body?.cancel().catch(() => {});
      if (req.method !== "GET" && req.method !== "HEAD") {
        return text(405, "method not allowed: use GET", { allow: "GET, HEAD" });
      }
      if (path === "/healthz") return text(200, "ok");
      if (path === "/readyz") {
        const reason = await this.#readiness();
        return reason === undefined ? text(200, "ready") : text(503, `not ready: ${reason}`);
      }
      const refused = await this.#deps.guard(req);
      if (refused) return refused;
      return new Response(await this.registry.metrics(), {
        headers: { "content-type": this.registry.contentType, "cache-control": "no-store" },
      });
    })();
  }
}
