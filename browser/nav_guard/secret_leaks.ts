/**
 * Finds a bound secret (`NAME@origin=value` in the secrets file) in a
 * request going to an origin the secret is not bound to: the navigation
 * guard fails such a request, whoever sends it (a form the agent declared,
 * a page script), so a value filled on one origin never leaves for another.
 *
 * Looked for in the URL and the body, as typed and in the forms a browser
 * sends: percent-encoded (URL), form-encoded (`+` for space), JSON-escaped.
 * A page that transforms the value first (base64, reversed) is not caught.
 *
 * @module
 */
import { MIN_MASK_LENGTH, type SecretStore } from "../../policy/secrets.ts";
import type { BlockedNavigation } from "./nav_guard_types.ts";

/** Returns the name of a secret `url` or `body` carries off its origins, or undefined. */
export type SecretLeakFinder = (url: string, body: string) => string | undefined;

/** The forms of `value` a request may carry. */
function formsOf(value: string): string[] {
  const forms = new Set([
    value,
    encodeURIComponent(value),
    new URLSearchParams({ v: value }).toString().slice(2),
    JSON.stringify(value).slice(1, -1),
  ]);
  return [...forms];
}

/**
 * A finder over `store`'s bound secrets (values under {@link MIN_MASK_LENGTH}
 * characters are skipped: too short to tell from ordinary text), or
 * undefined when none is bound.
 */
export function secretLeakFinder(store: SecretStore | undefined): SecretLeakFinder | undefined {
  const bound = (store?.bound() ?? []).filter((b) => b.value.length >= MIN_MASK_LENGTH)
    .map((b) => ({ ...b, forms: formsOf(b.value) }));
  if (!bound.length) return undefined;
  return (url, body) => {
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      return undefined;
    }
    for (const b of bound) {
      if (b.origins.includes(origin)) continue;
      if (b.forms.some((f) => url.includes(f) || body.includes(f))) return b.name;
    }
    return undefined;
  };
}

/** What the guard reads of a paused request. */
export type PausedRequest = {
  url: string;
  method: string;
  postData?: string;
  postDataEntries?: Array<{ bytes?: string }>;
};

/** A request's body as text (`postData`, else its base64 entries; "" when none). */
export function bodyOf(request: PausedRequest): string {
  if (request.postData !== undefined) return request.postData;
  const decoder = new TextDecoder();
  return (request.postDataEntries ?? []).map((x) =>
    x.bytes ? decoder.decode(Uint8Array.from(atob(x.bytes), (c) => c.charCodeAt(0))) : ""
  ).join("");
}

/** The report of a request refused for carrying a bound secret elsewhere. */
export function leakBlocked(url: string, frameId: string, secret: string): BlockedNavigation {
  return {
    url,
    reason: "site",
    frameId,
    form: true,
    secret,
    why: `it carries the secret ${secret}, bound to other origins`,
  };
}
