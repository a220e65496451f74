/// <reference lib="dom" />
/**
 * Page-side search for a ref's element re-created by the page (a list re-rendered with new
 * nodes, same content): the elements of the document (open shadow roots and closed ones
 * handed over included) that match the ref's whole identity, its role, name and context
 * (`context_lib.ts`). Installed on demand (its first call in a world), after the core.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";

/** Adds `refFind` to the utility api. */
export function installRefindLib(api: PageApi): void {
  // A bare whole number ("Task 1", "2 of 5") tells items apart here: only counts that carry a
  // unit, a currency, a fraction or a time may tick (a price, "3s ago"). The re-found element
  // is acted on without the agent seeing it, so a look-alike must not pass for it.
  const BARE_NUMBER = /^[([]?\d+[)\],;:]?$/;
  const identity = (text: string) =>
    `${api.contextSkeleton(text)}\u0000${
      text.split(" ").filter((w) => BARE_NUMBER.test(w)).join(" ")
    }`;

  /**
   * The page-local ids, kinds and context texts of at most 2 elements whose role and name are
   * `role` and `name` and whose context is `context`, or reads as it but for counts, times and
   * prices (and does not read as one of `others`, [localId, context text] of other refs of
   * that role and name, whose element is still in the page: another item that reads so). Two
   * answered: the match is ambiguous. A look-alike ref whose element is gone too (a ticker's
   * earlier render of the same row) rules nothing out: several items that read alike are
   * still told by their count. `near`: the contexts of the first 2 elements of that role and
   * name that did not match (where such an element sits now).
   */
  api.refFind = (
    role: string,
    name: string,
    context: [string, string],
    others: Array<[number, string]>,
  ): { found: Array<[number, string, string]>; near: Array<[string, string]> } => {
    const out: Array<[number, string, string]> = [];
    const near: Array<[string, string]> = [];
    const want = identity(context[1]);
    const readsAsOther = (el: Element, text: string) =>
      others.some(([id, t]) => {
        const other = t === text ? api.element(id) : null;
        return !!other && other !== el;
      });
    const visit = (root: Document | ShadowRoot): boolean => {
      for (const el of root.querySelectorAll("*")) {
        const inner = api.shadowOf(el);
        if (inner && visit(inner)) return true;
        if (api.refRole(el) !== role || api.nameOf(el) !== name) continue;
        const [kind, text] = api.contextOf(el, role, name);
        if (
          kind !== context[0] ||
          (text !== context[1] && (identity(text) !== want || readsAsOther(el, text)))
        ) {
          if (near.length < 2) near.push([kind, text]);
          continue;
        }
        out.push([api.idOf(el), kind, text]);
        if (out.length > 1) return true;
      }
      return false;
    };
    visit(document);
    return { found: out, near };
  };
}
