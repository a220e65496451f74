/// <reference lib="dom" />
/**
 * Page-side reading for `read_page`: the page's (or a region's) text as lines, from the text
 * model (`text_lib.ts`: what the snapshot shows), with its visible links; and the facts a ref
 * of a region element records.
 *
 * Sent as source text: {@link installReadLib} must not use anything from its module scope.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";
import type { ReadText, TextWalkHook } from "./text_types.ts";
import type { RefFacts } from "./page_types.ts";

/**
 * Adds to the utility api:
 * - `readText(el, links)`: the shown text of the page (`el` null) or of `el`'s subtree, one
 *   line per block, whitespace collapsed, empty lines dropped; with `links`, its shown links
 *   (`href` absolute, `javascript:` ones left out), de-duplicated by URL, at most 100.
 * - `refFacts(el)`: the page-local id, world instance, role, name and context a ref of `el`
 *   records (`describe`).
 */
export function installReadLib(api: PageApi): void {
  const { localOf, hasAttrOf } = api.dom;
  type Fn<A extends unknown[], R> = (...a: A) => R;
  const MAX_LINKS = 100;
  const HID = 4;

  function readText(el: Element | null, withLinks: boolean): ReadText {
    const nameOf = api.nameOf as Fn<[Element], string>;
    const links: ReadText["links"] = [];
    const seen = new Set<string>();
    let more = false;
    const hook: TextWalkHook | null = withLinks
      ? {
        enter(a, _at, flags) {
          if (localOf(a) !== "a" || flags & HID || !hasAttrOf(a, "href")) return;
          const href = (a as HTMLAnchorElement).href;
          if (typeof href !== "string" || !href || href.startsWith("javascript:")) return;
          if (seen.has(href)) return;
          if (links.length >= MAX_LINKS) {
            more = true;
            return;
          }
          seen.add(href);
          links.push({ text: nameOf(a).slice(0, 200), href });
        },
        leave() {},
      }
      : null;
    const walk = api.textWalk as Fn<[TextWalkHook | null, Element | null, boolean], string>;
    const raw = walk(hook, el, true);
    const text = raw.split("\n").map((l) => l.trim()).filter((l) => l).join("\n");
    return { text, links, moreLinks: more };
  }

  function refFacts(el: Element): RefFacts | null {
    const localId = (api.idOf as Fn<[Element], number>)(el);
    const d = (api.describe as Fn<[number], RefFacts | null>)(localId);
    return d ? { ...d, localId, instance: api.instance as string } : null;
  }

  api.readText = readText;
  api.refFacts = refFacts;
}
