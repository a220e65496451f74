/// <reference lib="dom" />
/**
 * Page-side link helpers of the snapshot walker: the URL a link line shows
 * (short, or none where it says nothing), each link text's URL shown once,
 * and permalink marks (a heading's own `#` link) told apart.
 *
 * Sent as source text: {@link installLinksLib} must not use anything from
 * its module scope.
 *
 * @module
 */
import type { LinkWriter } from "./page_types.ts";
import type { PageApi } from "./page_api.ts";

/**
 * Adds `newLinks(): LinkWriter` to the utility api (see {@link LinkWriter}).
 * The page's origin and URL are read when the writer is made.
 */
export function installLinksLib(api: PageApi): void {
  const { attrOf, textContentOf, containsOf, qsaOf } = api.dom;
  const PERMALINK_MARK = /^(?:[#¶§🔗]|)$/u;

  function newLinks(): LinkWriter {
    const origin = location.origin;
    const docPath = location.href.split("#")[0]!;
    const seen = new Set<string>();

    // A link to an element that is, or holds, the link itself.
    function selfAnchor(el: Element, url: string): boolean {
      if (url[0] !== "#") return false;
      let target: Element | null = null;
      try {
        target = document.getElementById(decodeURIComponent(url.slice(1)));
      } catch {
        return false;
      }
      return !!target && (target === el || containsOf(target, el));
    }

    // Following a permalink only scrolls to where it stands; reference pages have one per heading.
    function isPermalink(el: Element, name: string): boolean {
      const raw = attrOf(el, "href");
      return raw !== null && raw[0] === "#" && PERMALINK_MARK.test(name.trim()) &&
        selfAnchor(el, raw);
    }

    function headingName(el: Element, name: string): string {
      const mark = name.slice(-1);
      if (!mark || !PERMALINK_MARK.test(mark)) return name;
      for (const a of qsaOf(el, "a[href^='#']")) {
        if (isPermalink(a, textContentOf(a) ?? "")) return name.slice(0, -1).trimEnd();
      }
      return name;
    }

    function urlOf(el: Element): string {
      const raw = attrOf(el, "href");
      if (raw === null) return "";
      const h = (el as HTMLAnchorElement).href;
      if (typeof h !== "string" || !h) return raw;
      // `#` and `javascript:` links are script-driven: their URL says nothing.
      if (raw === "#" || h.startsWith("javascript:")) return "";
      if (h.startsWith("data:")) return h.length > 40 ? h.slice(0, 40) + "…" : h;
      if (origin !== "null" && h.startsWith(origin + "/")) {
        const hash = h.indexOf("#");
        if (hash >= 0 && h.slice(0, hash) === docPath) {
          // An anchor within the page ("#section"): the ref is enough to follow it, and
          // reference pages carry hundreds. Hash routes ("#/active") do say where they go.
          const frag = h.slice(hash);
          return /^#[/!]/.test(frag) ? frag : "";
        }
        return h.slice(origin.length);
      }
      return h;
    }

    // The same text and URL appear hundreds of times on reference pages: shown once.
    function shownUrl(el: Element, name: string, url: string): string {
      if (!url) return "";
      const key = name + "\u0000" + url;
      if (seen.has(key) || selfAnchor(el, url)) return "";
      seen.add(key);
      return url;
    }

    return { urlOf, shownUrl, isPermalink, headingName };
  }

  api.newLinks = newLinks;
}
