/**
 * Small helpers of the navigation guard: the note a refused iframe shows in
 * place of its document, and URL comparisons.
 *
 * @module
 */
import { originOf } from "../../policy/hosts.ts";

/** Headers of the note a refused iframe shows: an opaque origin, and no script runs in it. */
export const BLOCKED_HEADERS = [
  { name: "Content-Type", value: "text/html; charset=utf-8" },
  { name: "Content-Security-Policy", value: "sandbox allow-scripts; script-src 'none'" },
  { name: "Cache-Control", value: "no-store" },
];

/** The note a refused iframe shows in place of the document from `url` (ASCII HTML). */
export function blockedPage(url: string, why: string): string {
  const text = `blocked by policy: ${noteOrigin(url)} (${why})`.replace(
    /[^ -~]|[&<>"']/gu,
    (c) => `&#${c.codePointAt(0)};`,
  );
  return `<!doctype html><title>Blocked by policy</title><p>${text}</p>`;
}

/** The origin of a URL (its scheme for hostless ones), for notes; a bad URL cut short. */
export function noteOrigin(url: string): string {
  return originOf(url, { opaque: "scheme" }) ?? url.slice(0, 200);
}

/** The URL without its `#fragment`. */
export function withoutFragment(url: string): string {
  const hash = url.indexOf("#");
  return hash < 0 ? url : url.slice(0, hash);
}

/** True when two URLs name the same document (fragments aside). */
export function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href.split("#")[0] === new URL(b).href.split("#")[0];
  } catch {
    return a === b;
  }
}
