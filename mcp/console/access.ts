/**
 * Who may use the web console: the operator, and no web page they visit.
 *
 * - Every console URL browxai prints carries a random token (`?token=…`). The first load with
 *   the right token sets an HttpOnly, SameSite=Strict cookie (Path=/) and redirects to the URL
 *   without the token, so it does not stay in the address bar or the history.
 * - Every route and the live socket then need that cookie. Anything else is answered 401 with
 *   no page data. The `--http` bearer tokens do not open the console: each is an MCP client's
 *   (the agent's) credential and a principal of its own, and the console answers the agent's
 *   confirm questions and shows and drives every client's sessions.
 * - The Host header is checked as `/mcp` checks it (DNS rebinding); a POST and the live-socket
 *   upgrade must come with an Origin equal to the console's own origin.
 *
 * The cookie's name carries the port: browsers do not keep cookies apart by port, and two
 * browxai servers on one host must not log each other out.
 *
 * @module
 */
import { checkHostAndOrigin, digest } from "../transports/http_admission.ts";

/** Options of {@link ConsoleAccess}. */
export interface AccessOptions {
  /** The address the listener is bound to (for the Host check). */
  bindHost: string;
  /** The console token (random when omitted). */
  token?: string;
}

/** The outcome of {@link ConsoleAccess.check}: allowed, or a response that refuses. */
export type AccessResult = { ok: true } | { ok: false; response: Response };

/** Security headers on every console response. */
export function securityHeaders(host: string | null): Record<string, string> {
  const ws = host ? ` ws://${host}` : "";
  return {
    "content-security-policy": `default-src 'self'; img-src 'self' data: blob:; ` +
      `connect-src 'self'${ws}; style-src 'self'; script-src 'self'; object-src 'none'; ` +
      `base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
  };
}

/** A JSON response with the console's headers (`no-store`: state is never cached). */
export function jsonResponse(
  req: Request,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      ...securityHeaders(req.headers.get("host")),
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      ...headers,
    },
  });
}

/** Reads one cookie from a Cookie header. */
function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

/** Constant-time comparison of two strings of hex digits. */
function sameDigest(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return d === 0;
}

/** The console's access rules; see the module doc. */
export class ConsoleAccess {
  /** The token printed in console URLs. */
  readonly token: string;
  readonly #bindHost: string;
  #tokenDigest: Promise<string>;
  /** The cookie's value: a digest of the token, so the token itself never sits in a cookie jar. */
  #cookie: Promise<string>;
  #cookieName = "browx_console";

  constructor(options: AccessOptions) {
    this.token = options.token ?? crypto.randomUUID().replaceAll("-", "");
    this.#bindHost = options.bindHost;
    this.#tokenDigest = digest(this.token);
    this.#cookie = digest(`cookie:${this.token}`);
  }

  /** Names the cookie after the listening port (set once the port is known). */
  setPort(port: number): void {
    this.#cookieName = `browx_console_${port}`;
  }

  /** The console URL to print: `base` (`http://host:port`) + `/console?token=…`. */
  url(base: string): string {
    return `${base}/console?token=${this.token}`;
  }

  /** A 401 that says how to get in and carries no page data. */
  unauthorized(req: Request, why: string): Response {
    return jsonResponse(req, 401, {
      error: `Unauthorized: ${why}; open the console URL browxai printed (it carries ?token=…)`,
    });
  }

  /** The Host check (and, when sent, the Origin check) of `/mcp`; undefined when fine. */
  hostProblem(req: Request): string | undefined {
    return checkHostAndOrigin(this.#bindHost, req.headers.get("host"), req.headers.get("origin"));
  }

  /**
   * Checks that a state-changing request (a POST, the live-socket upgrade) comes from the
   * console's own page: its Origin is `http://<Host>`.
   */
  originProblem(req: Request): string | undefined {
    const origin = req.headers.get("origin");
    if (!origin) return "missing Origin header";
    if (origin !== `http://${req.headers.get("host")}`) {
      return `Origin "${origin.slice(0, 200)}" is not the console's own`;
    }
    return undefined;
  }

  /**
   * True when the request carries the console cookie. A bearer token of `/mcp` is not enough:
   * it is the agent's own credential, and the console answers the agent's confirm questions.
   */
  async authenticated(req: Request): Promise<boolean> {
    const cookie = cookieValue(req.headers.get("cookie"), this.#cookieName);
    return cookie !== undefined && sameDigest(cookie, await this.#cookie);
  }

  /** True when `token` is the console token. */
  async tokenMatches(token: string): Promise<boolean> {
    return sameDigest(await digest(token), await this.#tokenDigest);
  }

  /**
   * The answer to a load carrying `?token=`: with the right token, a 303 to the same URL without
   * it that sets the cookie; otherwise 401.
   */
  async login(req: Request, url: URL): Promise<Response> {
    const token = url.searchParams.get("token") ?? "";
    if (!(await this.tokenMatches(token))) return this.unauthorized(req, "wrong token");
    url.searchParams.delete("token");
    const location = url.pathname + (url.search.length > 1 ? url.search : "");
    return new Response(null, {
      status: 303,
      headers: {
        ...securityHeaders(req.headers.get("host")),
        location,
        "cache-control": "no-store",
        "set-cookie": `${this.#cookieName}=${await this
          .#cookie}; HttpOnly; SameSite=Strict; Path=/`,
      },
    });
  }
}
