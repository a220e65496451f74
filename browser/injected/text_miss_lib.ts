/// <reference lib="dom" />
/**
 * Why a `text=` selector matched no shown element (`text_lib.ts`'s text model), for the
 * error that says so (`browser/actions/target.ts`) and the hover menus (`hover_reveal_lib.ts`):
 * the text is hidden, or it is a control's name rather than its text. Installed after
 * `text_lib.ts` (it uses `textSought`, `hasBox`).
 *
 * Sent as source text: {@link installTextMissLib} must not use anything from its module scope.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";

/**
 * Adds to the utility api:
 * - `hiddenTextHolder(selector)`: the innermost element holding a `text=` selector's text in its
 *   DOM text, shown or not (the last in document order), or null (nowhere, or a page of more
 *   than 20,000 elements).
 * - `hiddenTextMatch(selector)`: when no shown element matches a `text=` selector, where the
 *   text is hidden: the innermost element holding it in its DOM text and why it is not shown
 *   (`<button class="delete"> (display: none on <div class="actions">)`), or null (nowhere,
 *   or a page of more than 20,000 elements).
 * - `namedTextMatch(selector)`: a shown control whose placeholder, aria-label, title or alt
 *   (its name in a snapshot, not its text) holds the selector's text, described; or null.
 */
export function installTextMissLib(api: PageApi): void {
  const { localOf, attrOf, parentElOf, textContentOf } = api.dom;
  type Fn<A extends unknown[], R> = (...a: A) => R;
  const roleOf = api.roleOf as Fn<[Element], string>;
  const nameOf = api.nameOf as Fn<[Element], string>;
  const sought = api.textSought as Fn<[string], { exact: boolean; want: string }>;
  const hasBox = api.hasBox as Fn<[Element], boolean>;
  const normText = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();

  const tagOf = (el: Element) => {
    const cls = (attrOf(el, "class") ?? "").trim().split(/\s+/)[0];
    return `<${localOf(el)}${cls ? ` class="${cls.slice(0, 40)}"` : ""}>`;
  };
  api.hiddenTextHolder = (selector: string): Element | null => {
    const { exact, want } = sought(selector);
    const all = document.body?.getElementsByTagName("*");
    if (!want || !all || all.length > 20_000) return null;
    // Most text asked for is nowhere: one read of the whole text says so.
    if (!normText(document.body!.textContent ?? "").includes(want)) return null;
    // The last holder in document order is the innermost of its ancestor chain.
    let holder: Element | null = null;
    for (const el of all) {
      if (localOf(el) === "script" || localOf(el) === "style") continue;
      const text = normText(textContentOf(el) ?? "");
      if (exact ? text === want : text.includes(want)) holder = el;
    }
    return holder;
  };
  api.hiddenTextMatch = (selector: string): string | null => {
    const holder = api.hiddenTextHolder(selector);
    if (!holder) return null;
    for (let e: Element | null = holder; e && e !== document.body; e = parentElOf(e)) {
      const cs = getComputedStyle(e);
      const on = e === holder ? "" : ` on ${tagOf(e)}`;
      if (cs.display === "none") return `${tagOf(holder)} (display: none${on})`;
      if (cs.visibility === "hidden") return `${tagOf(holder)} (visibility: hidden${on})`;
      if (attrOf(e, "aria-hidden") === "true") return `${tagOf(holder)} (aria-hidden${on})`;
      if (localOf(e) === "details" && !(e as HTMLDetailsElement).open) {
        return `${tagOf(holder)} (in a closed <details>)`;
      }
    }
    return hasBox(holder) ? null : `${tagOf(holder)} (no size)`;
  };
  // A control named by its placeholder, aria-label or title shows that name in a snapshot
  // (textbox "Notes") but has no such text: say which one has it, and how to reach it.
  api.namedTextMatch = (selector: string): string | null => {
    const { exact, want } = sought(selector);
    if (!want) return null;
    const named = document.querySelectorAll("[placeholder], [aria-label], [title], [alt]");
    const said = (v: string) => exact ? normText(v) === want : normText(v).includes(want);
    for (const el of [...named].slice(0, 5000)) {
      const from = ["aria-label", "placeholder", "title", "alt"].find((a) =>
        said(attrOf(el, a) ?? "")
      );
      if (!from || !hasBox(el)) continue;
      const name = nameOf(el).slice(0, 60);
      return `${roleOf(el)}${name ? ` "${name}"` : ""} (its ${from} "${
        (attrOf(el, from) ?? "").slice(0, 60)
      }")`;
    }
    return null;
  };
}
