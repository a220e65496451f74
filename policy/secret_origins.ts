/**
 * Origin binding of secrets: `NAME@https://app.example.com=value` in the
 * secrets file lets `{{secret:NAME}}` be filled only into frames of those
 * origins. Pure functions over strings.
 *
 * @module
 */

/**
 * Parses the origin list after `@` in a secrets file name: one or more
 * origins separated by commas, each `scheme://host[:port]` exactly as the
 * browser serializes it (lower case, no default port, no path).
 *
 * @returns the origins, in file order, duplicates dropped.
 * @throws Error with a message naming the problem (never a value): an empty
 *   list, or an entry that is not a serialized origin (the entry is quoted:
 *   origins are not secret).
 */
export function parseBoundOrigins(list: string): string[] {
  const entries = list.split(",").map((s) => s.trim());
  if (entries.some((e) => e === "")) {
    throw new Error("an origin list after @ is origins separated by commas, none empty");
  }
  const out: string[] = [];
  for (const entry of entries) {
    let origin: string;
    try {
      origin = new URL(entry).origin;
    } catch {
      origin = "null";
    }
    if (origin === "null" || (origin !== entry && `${origin}/` !== entry)) {
      throw new Error(
        `"${entry}" is not an origin: write scheme://host[:port], e.g. https://app.example.com` +
          (origin !== "null" ? ` (here: ${origin})` : ""),
      );
    }
    if (!out.includes(origin)) out.push(origin);
  }
  return out;
}

/**
 * Whether a frame of `origin` (as `window.origin` serializes it; `"null"`
 * for opaque origins) may receive a secret bound to `allowed`. `undefined`
 * (an unbound secret) allows every origin; an opaque origin never matches.
 */
export function fillOriginAllowed(allowed: readonly string[] | undefined, origin: string): boolean {
  if (allowed === undefined) return true;
  return origin !== "null" && allowed.includes(origin);
}

/**
 * Whether a cookie of `cookieDomain` (`a.example`, `.a.example`) can reach a page of `origin`:
 * the origin's host is the domain or under it. Cookies keep neither scheme nor port apart, and a
 * host-only cookie is taken as covering subdomains too (a gate errs wide).
 */
export function cookieReachesOrigin(cookieDomain: string, origin: string): boolean {
  let host: string;
  try {
    host = new URL(origin).hostname.toLowerCase();
  } catch {
    return false;
  }
  const d = cookieDomain.replace(/^\.+/, "").toLowerCase();
  return d !== "" && (host === d || host.endsWith(`.${d}`));
}
