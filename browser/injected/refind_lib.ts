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
  const { qsaOf } = api.dom;
  /**
   * The page-local ids, kinds and context texts of at most 2 elements whose role, name and
   * context are exactly `role`, `name` and `context` (the page rendered the same row anew), and
   * that are not another ref's element still in the page, nor read as another ref whose
   * element is still in the page (`others`: [localId, context text] of other refs of that role
   * and name): the re-found element is acted on without the agent seeing it, so a row that
   * reads otherwise in any way (a price, an amount, a word), or one the agent holds as another
   * ref, never passes for it (its times and counters may have ticked: `contextSteady`). Two
   * answered: the match is ambiguous. `near`: the contexts of the first 2 elements of that
   * role and name that did not match (where such an element sits now, and its local id); `alike`: of the first 2
   * that differ only in prices and amounts (the row rendered anew with new numbers). With
   * `loose` (the agent was told the row's numbers change on their own), those match too.
   */
  api.refFind = (
    role: string,
    name: string,
    context: [string, string],
    others: Array<[number, string]>,
    loose = false,
  ): {
    found: Array<[number, string, string]>;
    near: Array<[string, string, number]>;
    alike: Array<[string, string]>;
  } => {
    const out: Array<[number, string, string]> = [];
    const near: Array<[string, string, number]> = [];
    const alike: Array<[string, string]> = [];
    // Other refs' elements still in the page, and whether one of them reads as this ref (a
    // twin row: which one the agent meant cannot be told).
    const live = others.map(([id, t]) => [api.element(id), t] as const).filter(([el]) => el);
    const taken = new Set(live.map(([el]) => el));
    // Times and counters may have ticked since (a "3s ago" re-rendered as "5s ago"); prices,
    // amounts and every word may not (row_identity.ts steady).
    const steady = (loose ? api.contextSkeleton : api.contextSteady) as (t: string) => string;
    const skeleton = api.contextSkeleton as (t: string) => string;
    const want = steady(context[1]);
    const twin = live.some(([, t]) => steady(t) === want);
    const visit = (root: Document | ShadowRoot): boolean => {
      for (const el of qsaOf(root, "*")) {
        const inner = api.shadowOf(el);
        if (inner && visit(inner)) return true;
        if (api.refRole(el) !== role || api.nameOf(el) !== name) continue;
        const [kind, text] = api.contextOf(el, role, name);
        if (kind !== context[0] || steady(text) !== want || twin || taken.has(el)) {
          if (near.length < 2) near.push([kind, text, api.idOf(el)]);
          const only = kind === context[0] && !twin && !taken.has(el) &&
            skeleton(text) === skeleton(context[1]);
          if (only && alike.length < 2) alike.push([kind, text]);
          continue;
        }
        out.push([api.idOf(el), kind, text]);
        if (out.length > 1) return true;
      }
      return false;
    };
    visit(document);
    return { found: out, near, alike };
  };
}
