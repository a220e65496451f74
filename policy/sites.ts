/**
 * The navigation allowlist (`BROWX_ALLOWED_ORIGINS`) and the rules of
 * per-site approvals. Pure functions over URLs; what counts as one "site"
 * (the registrable domain) is computed by the caller and passed in.
 *
 * @module
 */

/**
 * One allowlist entry: `example.com` (that host, http or https, any port),
 * `*.example.com` (its subdomains, not the host itself), `*` (any host), each
 * optionally with a scheme (`https://example.com`) and a port (`:8080`, `:*`).
 */
export interface OriginPattern {
  /** `http`, `https`, … or undefined for http and https. */
  scheme?: string;
  /** Lower-case host; for `*.x` the suffix `x`; `*` for any. */
  host: string;
  subdomains: boolean;
  /** A port number as text, or undefined for any port. */
  port?: string;
  /** The entry as written. */
  source: string;
}

const PATTERN =
  /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*|(?:\*\.)?[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}|\*))?\/?$/i;

/** An IPv4 address (or what looks like part of one) or a bracketed IPv6 address. */
const IP_LIKE = /^(?:[0-9.]+|\[.*\])$/;

/**
 * Why `*.suffix` may not be a wildcard, or undefined when it may: a wildcard
 * needs a domain name (not an IP address: `*.0.0.1` would match 127.0.0.1 and
 * 10.0.0.1 alike), at least a registrable one (`*.com`, `*.co.uk`,
 * `*.github.io` would reach every site under a public suffix); `*.localhost`
 * (loopback names) is allowed.
 */
function wildcardRefusal(
  suffix: string,
  registrable: ((host: string) => string | null) | undefined,
): string | undefined {
  if (IP_LIKE.test(suffix) || /\.\d+$/.test(suffix)) {
    return "a wildcard needs a domain name, not an IP address: list each address";
  }
  if (suffix === "localhost" || suffix.endsWith(".localhost")) return undefined;
  if (!suffix.includes(".") || (registrable && registrable(suffix) === null)) {
    return "a wildcard needs at least a registrable domain (like *.example.com), not a public suffix";
  }
  return undefined;
}

/**
 * Parses `BROWX_ALLOWED_ORIGINS` (comma list; empty or undefined: no list).
 * `registrable(host)`: the registrable domain of a host, or null when the
 * host is a public suffix (the caller's Public Suffix List, e.g. tldts'
 * `getDomain`); without it only single-label suffixes are refused.
 *
 * @throws RangeError naming each entry that is not a host pattern, or a
 *   wildcard on an IP address or a public suffix (`*.0.0.1`, `*.com`).
 */
export function parseAllowedOrigins(
  list: string | undefined,
  registrable?: (host: string) => string | null,
): OriginPattern[] {
  const out: OriginPattern[] = [];
  const bad: string[] = [];
  const wild: string[] = [];
  for (const raw of (list ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
    const m = PATTERN.exec(raw);
    if (!m || (m[3] && m[3] !== "*" && Number(m[3]) > 65535)) {
      bad.push(raw);
      continue;
    }
    const host = m[2]!.toLowerCase();
    const subdomains = host.startsWith("*.");
    const refusal = subdomains ? wildcardRefusal(host.slice(2), registrable) : undefined;
    if (refusal) {
      wild.push(`"${raw}": ${refusal}`);
      continue;
    }
    out.push({
      ...(m[1] ? { scheme: m[1].toLowerCase() } : {}),
      host: subdomains ? host.slice(2) : host,
      subdomains,
      ...(m[3] && m[3] !== "*" ? { port: m[3] } : {}),
      source: raw,
    });
  }
  if (bad.length) {
    throw new RangeError(
      `not a host pattern: ${bad.map((b) => `"${b}"`).join(", ")} ` +
        '(expected "example.com", "*.example.com", "https://example.com:8443" or "*")',
    );
  }
  if (wild.length) throw new RangeError(`wildcard refused: ${wild.join("; ")}`);
  return out;
}

/** URLs with no host to judge: nothing to ask about (`about:blank`, `about:srcdoc`). */
export function isBlankUrl(url: string): boolean {
  return url === "about:blank" || url === "about:srcdoc";
}

/**
 * True for URLs with no host that could carry anything (`file:`, `data:`,
 * `javascript:`, `blob:` of an opaque origin, …): never "the same site", and
 * asked every time.
 */
export function isHostless(url: string): boolean {
  if (isBlankUrl(url)) return false;
  try {
    const u = new URL(url);
    return !u.hostname || !["http:", "https:", "ws:", "wss:"].includes(u.protocol);
  } catch {
    return true;
  }
}

function defaultPort(protocol: string): string {
  return protocol === "https:" || protocol === "wss:" ? "443" : "80";
}

/** Options of {@link matchesPattern}. */
export interface MatchOptions {
  /**
   * A loopback entry (see {@link reachesLoopback}) matches every loopback host on its port:
   * for the blocklist, where `localhost:B`, `x.localhost:B`, `0.0.0.0:B` reach the server an
   * entry `127.0.0.1:B` names. The allowlist leaves it off: an alias may reach another
   * listener on that port (`[::1]:B`), so only the spelling listed is admitted.
   */
  loopbackAliases?: boolean;
}

/**
 * True when `url` matches one pattern: an entry without a scheme covers http and https; a
 * host's trailing dot (`localhost.`) is ignored; see {@link MatchOptions}.
 */
export function matchesPattern(
  url: string,
  p: OriginPattern,
  options: MatchOptions = {},
): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  const scheme = u.protocol.slice(0, -1);
  if (p.scheme ? p.scheme !== scheme : scheme !== "http" && scheme !== "https") return false;
  if (p.port !== undefined && (u.port || defaultPort(u.protocol)) !== p.port) return false;
  // `localhost.` is `localhost`: a fully qualified name's trailing dot names the same host.
  const host = ipv4Unmapped(u.hostname.toLowerCase().replace(/\.$/, ""));
  if (p.host === "*") return true;
  if (options.loopbackAliases && reachesLoopback(p.host) && reachesLoopback(host)) return true;
  return p.subdomains ? host.endsWith("." + p.host) : host === ipv4Unmapped(p.host);
}

/**
 * An IPv4-mapped IPv6 literal as the IPv4 address it reaches (`[::ffff:7f00:2]`, which is how
 * a URL writes `[::ffff:127.0.0.2]`, is `127.0.0.2`); any other host as it is. Pure.
 */
export function ipv4Unmapped(host: string): string {
  // A URL's host is canonical (`[::ffff:7f00:2]`); an entry may be written dotted.
  const m = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/i.exec(host) ??
    /^\[::ffff:(\d+\.\d+\.\d+\.\d+)\]$/i.exec(host);
  if (!m) return host;
  if (m[2] === undefined) return m[1]!;
  const hi = parseInt(m[1]!, 16), lo = parseInt(m[2], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/**
 * True for a host that reaches this machine's own listeners without DNS: `localhost` and
 * `*.localhost` (Chromium resolves them itself), 127.0.0.0/8, `0.0.0.0` (Linux connects it to
 * loopback), `[::1]`, `[::]`, and the IPv4-mapped forms; a trailing dot ignored. `host` as a
 * URL writes it or as an entry does (`127.1`, `0x7f.1`: any IPv4 spelling). Pure.
 */
export function reachesLoopback(host: string): boolean {
  let h: string;
  try {
    h = new URL(`http://${host.toLowerCase().replace(/\.$/, "")}/`).hostname.replace(/\.$/, "");
  } catch {
    return false;
  }
  h = ipv4Unmapped(h);
  return h === "localhost" || h.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(h) ||
    h === "0.0.0.0" || h === "[::1]" || h === "[::]";
}

/** An IPv4 literal's IPv4-mapped IPv6 form as a URL writes it (`[::ffff:7f00:2]`). Pure. */
export function ipv4Mapped(ipv4: string): string | undefined {
  const parts = ipv4.split(".").map(Number);
  if (parts.length !== 4 || parts.some((n) => !Number.isInteger(n) || n < 0 || n > 255)) {
    return undefined;
  }
  const [a, b, c, d] = parts as [number, number, number, number];
  return `[::ffff:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}]`;
}

/**
 * Whether the allowlist lets the tab go to `url`: always with no list, and
 * always for `about:blank`; hostless URLs only through an explicit
 * `file://`/`data://`-scheme entry (`*` does not cover them).
 */
export function allowlistAllows(url: string, patterns: readonly OriginPattern[]): boolean {
  if (!patterns.length || isBlankUrl(url)) return true;
  if (isHostless(url)) {
    const scheme = url.slice(0, Math.max(0, url.indexOf(":"))).toLowerCase();
    return patterns.some((p) => p.scheme === scheme && p.host === "*");
  }
  return patterns.some((p) => matchesPattern(url, p));
}

/**
 * What a per-site check decides for moving a session's tab to `url`:
 * `same-site` (no question), `approved` (asked before in this session),
 * `ask` (a new site, or a hostless URL: asked every time).
 *
 * @param site The registrable domain of `url` (or its host when it has none), null when hostless.
 * @param current The site the tab is on now, null when none (a blank tab).
 * @param approved Sites approved in this session.
 */
export function siteDecision(
  url: string,
  site: string | null,
  current: string | null,
  approved: ReadonlySet<string>,
): "same-site" | "approved" | "ask" {
  if (isBlankUrl(url)) return "same-site";
  if (site === null || isHostless(url)) return "ask";
  if (site === current) return "same-site";
  return approved.has(site) ? "approved" : "ask";
}

/**
 * The first blocked entry a cookie of `cookieDomain` reaches (undefined: none). A cookie is
 * sent to every port and scheme of its host, and a domain cookie (`.red.example`) to every
 * subdomain too: it reaches a blocked `shop.red.example` or `red.example:8080` that the URL
 * of its domain alone (`http://red.example/`) does not name. Pure.
 */
export function cookieReachesBlocked(
  cookieDomain: string,
  blocked: readonly OriginPattern[],
): OriginPattern | undefined {
  const d = cookieDomain.replace(/^\.+/, "").toLowerCase();
  const wide = cookieDomain.startsWith(".");
  return blocked.find((p) => {
    if (p.host === "*") return true;
    // A domain cookie also reaches every name under `d`: a blocked host there, or `*.x` under it.
    const under = wide && p.host.endsWith(`.${d}`);
    // `*.x` blocks the names under x (not x): a cookie of one, or a domain cookie of x.
    if (p.subdomains) return d.endsWith(`.${p.host}`) || (wide && d === p.host) || under;
    return p.host === d || under;
  });
}
