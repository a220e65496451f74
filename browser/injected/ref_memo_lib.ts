/// <reference lib="dom" />
/**
 * Page-side memory of the ref facts a snapshot sent (role, name, context): a ref whose facts
 * the Deno side already holds from an earlier snapshot it read is sent as `[id]` alone. On a
 * big table a re-read (a second page, an action's after-picture) then moves its text and the
 * ids, not every ref's row text again.
 *
 * Safe by acknowledgement: each walk gets a number (`beginRefs`), the Deno side says which walk
 * of this world it last read whole (`ack`, per registry: another registry, a `fresh` read or a
 * new world starts over), and a ref is sent short only when its facts are the ones sent in a
 * walk at or before that one. A walk the Deno side dropped (a read again after closed roots
 * were handed over) is never acknowledged, so what it sent is sent again.
 *
 * Sent as source text: {@link installRefMemoLib} must not use anything from its module scope.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";

/**
 * Adds to the utility api:
 * - `beginRefs(registry?, ack?, world?): number`: starts a walk's refs for the Deno side's
 *   registry `registry` (undefined: remember nothing, send every ref whole), which read walk
 *   `ack` of world `world` last (another world's walk counts as none); returns this walk's
 *   number.
 * - `refTuple(el, facts)`: `facts` (`[id, role, name, contextKind, contextText]`), or `[id]`
 *   when the Deno side holds them already (see the module doc).
 */
export function installRefMemoLib(api: PageApi): void {
  let owner: string | undefined;
  let acked = 0, walk = 0;
  // Per element: the walk that last sent its facts whole, and those facts.
  let sent = new WeakMap<Element, [number, string]>();

  api.beginRefs = (registry?: string, ack?: number, world?: string) => {
    if (registry !== owner || registry === undefined) sent = new WeakMap();
    owner = registry;
    acked = registry !== undefined && world === api.instance ? ack ?? 0 : 0;
    return ++walk;
  };

  api.refTuple = (el: Element, facts: [number, string, string, string, string]) => {
    if (owner === undefined) return facts;
    const key = `${facts[1]}\u0000${facts[2]}\u0000${facts[3]}\u0000${facts[4]}`;
    const was = sent.get(el);
    if (was && was[1] === key && was[0] <= acked) return [facts[0]];
    sent.set(el, [walk, key]);
    return facts;
  };
}
