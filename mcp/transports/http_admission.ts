/**
 * Who may talk to the HTTP listener: the Host and Origin checks that keep a web page from
 * reaching a loopback server through DNS rebinding, and the bearer tokens (kept and compared
 * as SHA-256 digests).
 *
 * @module
 */
import { isLoopback } from "../../policy/hosts.ts";

function hostOf(headerValue: string): string {
  // "host:port" or "[v6]:port"
  if (headerValue.startsWith("[")) return headerValue.slice(0, headerValue.indexOf("]") + 1);
  return headerValue.split(":")[0]!;
}

/**
 * Decides whether a request's Host and Origin are acceptable (DNS rebinding
 * protection): on a loopback bind both must name a loopback host; on another
 * bind the Host must be the bound host (or loopback) and a browser Origin
 * must match the Host.
 */
export function checkHostAndOrigin(
  bindHost: string,
  hostHeader: string | null,
  originHeader: string | null,
): string | undefined {
  if (!hostHeader) return "missing Host header";
  // One host, an optional port: a list ("127.0.0.1:8080, evil.example") or junk is no Host.
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i.test(hostHeader)) {
    return `Host "${hostHeader}" is malformed`;
  }
  const host = hostOf(hostHeader).replace(/^\[|\]$/g, "");
  const allowed = isLoopback(bindHost)
    ? isLoopback(host)
    : (isLoopback(host) || host === bindHost || bindHost === "0.0.0.0" || bindHost === "::");
  if (!allowed) return `Host "${hostHeader}" is not allowed`;
  if (originHeader && originHeader !== "null") {
    let origin: URL;
    try {
      origin = new URL(originHeader);
    } catch {
      return `Origin "${originHeader}" is malformed`;
    }
    if (isLoopback(bindHost) ? !isLoopback(origin.hostname) : origin.host !== hostHeader) {
      return `Origin "${originHeader}" is not allowed`;
    }
  } else if (originHeader === "null") return 'Origin "null" is not allowed';
  return undefined;
}

/** The hex SHA-256 of a token: tokens are compared and kept as digests. */
export async function digest(token: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The tokens of a comma-separated list (blank entries dropped). */
export function parseTokens(value: string | undefined): string[] {
  return (value ?? "").split(",").map((t) => t.trim()).filter(Boolean);
}
