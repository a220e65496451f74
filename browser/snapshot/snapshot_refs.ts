/**
 * A frame snapshot's refs into the registry: whole facts as the page sent them, short ones
 * (`[id]`, facts the registry read before: `browser/injected/ref_memo_lib.ts`) from its
 * {@link ReadMemo}.
 *
 * @module
 */
import type { SnapshotRef } from "../injected/page_types.ts";
import type { ReadDoc } from "./read_memo.ts";
import type { RefRegistry } from "./refs.ts";
import type { SeenAs } from "./ref_types.ts";

/**
 * Registers the refs of walk `walk` of `doc`'s world `instance` (see
 * {@link RefRegistry.refFor}; `hold` as there) and records the walk as read. Returns page-local
 * id → ref, or undefined, registering nothing, when a short ref's facts are not known (the
 * caller reads again without an `ack`).
 */
export function registerSnapshotRefs(
  registry: RefRegistry,
  doc: ReadDoc,
  snap: { instance: string; walk: number; refs: Array<SnapshotRef | [number]> },
  hold: boolean,
): Map<number, string> | undefined {
  const memo = registry.reads;
  const facts: Array<[number, SeenAs]> = [];
  for (const r of snap.refs) {
    const f: SeenAs | undefined = r.length === 1
      ? memo.facts(doc, snap.instance, r[0])
      : { role: r[1], name: r[2], context: { kind: r[3], text: r[4] } };
    if (!f) return undefined;
    facts.push([r[0], f]);
  }
  const refs = new Map<number, string>();
  for (const [localId, f] of facts) {
    const target = { ...doc, instance: snap.instance, localId };
    refs.set(localId, registry.refFor(target, f.role, f.name, { context: f.context, hold }));
  }
  const whole = new Map<number, SeenAs>();
  snap.refs.forEach((r, i) => r.length > 1 && whole.set(r[0], facts[i]![1]));
  memo.record(doc, snap.instance, snap.walk, whole);
  return refs;
}
