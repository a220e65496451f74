/**
 * A session's network routes (`route` / `unroute` / `list_routes`): URL globs
 * whose matching requests are answered by the agent's response or aborted,
 * in every tab, popup and out-of-process iframe of the session. The table is
 * data; the navigation guard's one `Fetch.requestPaused` handler per target
 * asks it after the policy has judged a request (`route_answer.ts`).
 *
 * Glob (`compileUrlGlob`, the same as `wait_for`'s `url`): matched against
 * the whole request URL (no fragment); `**` any characters, `*` any
 * characters but `/`, `?` one character, everything else literal. It runs on
 * RE2 (linear time), so an agent's glob cannot stall the server.
 *
 * @module
 */
import { type AgentMatcher, compileUrlGlob, WORK_BUDGET } from "../agent_pattern.ts";
import { ToolError } from "../tool_error.ts";

/** How a route answers: with a response, or by failing the request. */
export interface RouteAnswer {
  /** The response served: status, headers (name → value), body bytes as base64. */
  response?: { status: number; headers: Array<{ name: string; value: string }>; body: string };
  /** The CDP `Network.ErrorReason` the request fails with (`Failed`, `Aborted`, …). */
  abort?: string;
}

/** One route, as the table keeps it. */
export interface Route extends RouteAnswer {
  /** The glob as the agent wrote it; one route per pattern (a new one replaces it). */
  readonly pattern: string;
  readonly matcher: AgentMatcher;
  /** Answers left; undefined: every time. The route is dropped when it reaches 0. */
  timesLeft?: number;
  /** Requests it answered so far. */
  hits: number;
  /** What the server holds for it: body bytes (decoded) plus header names and values (UTF-8). */
  readonly bytes: number;
}

/** What a route did to one request (for the acting call's result). */
export interface RoutedEvent {
  seq: number;
  url: string;
  /** The request's method (a write's URL is reported by its keys only). */
  method?: string;
  pattern: string;
  /** `fulfilled`, `aborted`, or `refused` (the route matched but did not answer: see `why`). */
  action: "fulfilled" | "aborted" | "refused";
  /** The status served (`fulfilled`). */
  status?: number;
  /** Why a matching route did not answer (`refused`), e.g. "blocked by policy: not on the allowlist". */
  why?: string;
}

/** Most routes a session holds. */
export const MAX_ROUTES = 100;
/**
 * Most bytes a session's routes hold together (bodies and headers, {@link Route.bytes}):
 * routes live in the server's memory until removed, so the sum is capped, not just each one.
 */
export const MAX_ROUTES_BYTES = 16 * 1024 * 1024;
/** Events kept for results (older ones are dropped). */
const MAX_EVENTS = 200;

/** The routes of one session, newest first. */
export class SessionRoutes {
  #routes: Route[] = [];
  #events: RoutedEvent[] = [];
  #seq = 0;
  #changed = new Set<() => unknown>();
  /** The work the last change started (Fetch patterns sent to every target). */
  #applying: Promise<unknown> = Promise.resolve();
  /** Targets routes do not apply to (browxai's own scratch tabs). */
  #exempt = new Set<string>();

  /**
   * Adds a route (replacing one with the same pattern); returns it.
   * @throws ToolError `invalid-argument` for a glob RE2 cannot take (see `compileUrlGlob`), when
   *   {@link MAX_ROUTES} are set already, or when the routes would hold more than
   *   {@link MAX_ROUTES_BYTES} (the route is not added; the table is unchanged).
   */
  add(pattern: string, answer: RouteAnswer & { times?: number | undefined }): Route {
    const matcher = compileUrlGlob(pattern, "urlPattern");
    const rest = this.#routes.filter((r) => r.pattern !== pattern);
    if (rest.length >= MAX_ROUTES) {
      throw new ToolError(
        "invalid-argument",
        `The session has ${MAX_ROUTES} routes already`,
        "remove some with unroute, or use a broader urlPattern",
      );
    }
    const bytes = answerBytes(answer);
    const held = rest.reduce((n, r) => n + r.bytes, 0);
    if (held + bytes > MAX_ROUTES_BYTES) {
      throw new ToolError(
        "invalid-argument",
        `This route holds ${bytes} bytes and the session's other routes ${held}; ` +
          `together at most ${MAX_ROUTES_BYTES} bytes (bodies and headers)`,
        "remove routes you no longer need with unroute, or serve smaller bodies",
      );
    }
    const route: Route = {
      pattern,
      matcher,
      hits: 0,
      bytes,
      ...(answer.response ? { response: answer.response } : {}),
      ...(answer.abort ? { abort: answer.abort } : {}),
      ...(answer.times !== undefined ? { timesLeft: answer.times } : {}),
    };
    this.#routes = [route, ...rest];
    this.#notify();
    return route;
  }

  /** Removes the route of `pattern` (or every route when undefined); returns how many went. */
  remove(pattern?: string): number {
    const before = this.#routes.length;
    this.#routes = pattern === undefined ? [] : this.#routes.filter((r) => r.pattern !== pattern);
    const removed = before - this.#routes.length;
    if (removed) this.#notify();
    return removed;
  }

  /** The routes, newest first. */
  list(): readonly Route[] {
    return this.#routes;
  }

  /** The newest route whose glob matches `url`, without using it; undefined when none. */
  matching(url: string, targetId?: string): Route | undefined {
    if (!this.#routes.length || (targetId !== undefined && this.#exempt.has(targetId))) {
      return undefined;
    }
    return this.#routes.find((r) => fits(r.matcher, url));
  }

  /**
   * Counts `route` as used by one request (`times` spent; a route with none left is dropped).
   * Callers that answer a request with a route call this once for it.
   */
  use(route: Route): void {
    route.hits++;
    if (route.timesLeft !== undefined && --route.timesLeft <= 0) {
      this.#routes = this.#routes.filter((r) => r !== route);
      this.#notify();
    }
  }

  /** Records what a route did to a request. */
  note(event: Omit<RoutedEvent, "seq">): void {
    this.#events.push({ seq: ++this.#seq, ...event });
    if (this.#events.length > MAX_EVENTS) this.#events.shift();
  }

  /** The seq of the last event (a mark for {@link since}). */
  get lastSeq(): number {
    return this.#seq;
  }

  /** Events after `seq`, oldest first. */
  since(seq: number): RoutedEvent[] {
    return this.#events.filter((e) => e.seq > seq);
  }

  /**
   * Calls `fn` whenever the set of routes changes (Fetch patterns follow; a promise it
   * returns is what {@link applied} waits for); returns the remover.
   */
  onChange(fn: () => unknown): () => void {
    this.#changed.add(fn);
    return () => this.#changed.delete(fn);
  }

  /** Routes do not apply to `targetId` (a scratch tab of browxai's own) until {@link unexempt}. */
  exempt(targetId: string): void {
    this.#exempt.add(targetId);
  }

  /** Routes apply to `targetId` again. */
  unexempt(targetId: string): void {
    this.#exempt.delete(targetId);
  }

  /**
   * The CDP `Fetch.RequestPattern` URL patterns that cover every route's URLs (`*` and `?`
   * CDP wildcards; `**` and `*` both become `*`, broader than the glob, which is checked again).
   */
  cdpPatterns(): string[] {
    return [...new Set(this.#routes.map((r) => cdpWildcard(r.pattern)))];
  }

  /** Resolves once the last change reached every target (its Fetch patterns sent). Never rejects. */
  applied(): Promise<void> {
    return this.#applying.then(() => {});
  }

  #notify(): void {
    const work = [...this.#changed].map((fn) => fn());
    this.#applying = Promise.allSettled([this.#applying, ...work]);
  }
}

/** The bytes a route's answer holds: its body (base64 decoded) and header names and values. */
function answerBytes(answer: RouteAnswer): number {
  const r = answer.response;
  if (!r) return 0;
  const b64 = r.body.length;
  const body = Math.floor(b64 / 4) * 3 - (r.body.endsWith("==") ? 2 : r.body.endsWith("=") ? 1 : 0);
  const utf8 = new TextEncoder();
  return Math.max(0, body) +
    r.headers.reduce((n, h) => n + utf8.encode(h.name).length + utf8.encode(h.value).length, 0);
}

/** True when `matcher` matches all of `url` (a URL too long to scan within budget never does). */
function fits(matcher: AgentMatcher, url: string): boolean {
  if (url.length * matcher.programSize > WORK_BUDGET) return false;
  return matcher.test(url);
}

/** A glob as a CDP Fetch wildcard pattern (`*` any, `?` one, `\` escapes). */
export function cdpWildcard(glob: string): string {
  return glob.replace(/\\/g, "\\\\").replace(/\*+/g, "*");
}
