/**
 * The ref registry: one per browxai session. It gives every targetable
 * element a snapshot shows a global ref `eN`, and remembers where that
 * element lives so an action can find it again (`resolve.ts`). An element a
 * person picked in the web console gets a `pN` ({@link RefRegistry.pick}):
 * the same kind of entry, resolved and checked the same way. Its shapes are in `ref_types.ts`.
 *
 * @module
 */

import { ReadMemo } from "./read_memo.ts";
import { sameSkeleton, squash } from "./row_identity.ts";
import { refsShownIn } from "./shown_refs.ts";
import type { RefContext, RefEntry, RefForOptions, RefTarget, SeenAs } from "./ref_types.ts";

/** Roles whose name may change while the element stays the same (placeholder, typed text). */
export const EDITABLE_ROLES: ReadonlySet<string> = new Set([
  "textbox",
  "searchbox",
  "combobox",
  "spinbutton",
]);

function sameContext(x: RefContext | undefined, y: RefContext | undefined): boolean {
  return x === y || (!!x && !!y && x.kind === y.kind && x.text === y.text);
}

function docKey(e: RefEntry): string {
  return `${e.targetId}\u0000${e.frameId}\u0000${e.loaderId}\u0000${e.instance}`;
}

/** Groups entries by `key`. */
function groupBy(entries: Iterable<RefEntry>, key: (e: RefEntry) => string) {
  const m = new Map<string, RefEntry[]>();
  for (const e of entries) {
    const k = key(e);
    const list = m.get(k);
    if (list) list.push(e);
    else m.set(k, [e]);
  }
  return m;
}

function keyOf(t: RefTarget): string {
  return `${t.targetId}\u0000${t.frameId}\u0000${t.loaderId}\u0000${t.instance}\u0000${t.localId}`;
}

/**
 * Maps (tab, frame, document, world, local id) to a global ref `eN`. A ref is
 * stable while its element lives: the same element gets the same ref in every
 * snapshot. Numbers come from one counter and are never reused, so an old ref
 * can never name a newer element.
 */
export class RefRegistry {
  #next = 1;
  #nextPick = 1;
  #byRef = new Map<string, RefEntry>();
  /** Snapshot refs (`eN`) by element; picks are not here (an element may have both). */
  #byKey = new Map<string, RefEntry>();
  /** Refs a result announced as re-created by the page (same content): old → new. */
  #renewed = new Map<string, string>();
  /** What snapshots read of each frame document's refs (a page sends known refs short). */
  readonly reads: ReadMemo = new ReadMemo();

  /**
   * The index `tabs` shows for a tab (by CDP target id), or undefined when unknown: set by the
   * session (`applySessionDefaults`) so a ref from another tab can say which tab to switch to.
   */
  tabIndex: (targetId: string) => number | undefined = () => undefined;

  /** Number of live entries. */
  get size(): number {
    return this.#byRef.size;
  }

  /**
   * The ref of an element, issuing a new one the first time it is seen.
   * Records `role`, `name` and `options.context` as shown (for a known ref
   * under `options.hold`, only as `latest`).
   */
  refFor(target: RefTarget, role: string, name: string, options: RefForOptions = {}): string {
    const key = keyOf(target);
    const known = this.#byKey.get(key);
    const context = options.context;
    const latest = { role, name, context };
    if (known) {
      known.latest = latest;
      if (!options.hold) Object.assign(known, latest, { heldSaid: false });
      else if (!known.context) known.context = context;
      return known.ref;
    }
    const ref = `e${this.#next++}`;
    const entry: RefEntry = { ...target, ref, role, name, context, latest };
    this.#byRef.set(ref, entry);
    this.#byKey.set(key, entry);
    return ref;
  }

  /**
   * Issues a new `pN` for an element a person picked (console pick mode): an entry like an
   * `eN`'s (same target, role, name and context, checked the same way before an action),
   * never returned by {@link refFor} or {@link lookup}, and dropped with its document like
   * any ref. Each pick gets a new number.
   */
  pick(target: RefTarget, role: string, name: string, context?: RefContext): string {
    const ref = `p${this.#nextPick++}`;
    // A person picked it for the agent: shown by the act of picking.
    this.#byRef.set(ref, { ...target, ref, role, name, context, shown: true });
    return ref;
  }

  /** The ref already issued for an element, or undefined (never issues one). */
  lookup(target: RefTarget): string | undefined {
    return this.#byKey.get(keyOf(target))?.ref;
  }

  /**
   * After a held capture (see {@link RefForOptions.hold}) that saw `seen`:
   * takes over each seen ref's new role, name and context, unless the change
   * looks like the page re-used the element for another item (a list sorted
   * or re-rendered by re-using its nodes, only the labels rewritten):
   * - its name: another ref of the same role in the same document was shown
   *   with the name this one has now, or has now the name this one was shown
   *   with (text fields' names follow their input: always taken);
   * - its context: another ref of the same role and name was shown in the
   *   context this one sits in now, or now sits in the context this one was
   *   shown in.
   * - its context, too, when the row now reads as another item (not only its counts, times or
   *   prices changed: {@link sameSkeleton}) and the ref is not the one acted on: the agent is
   *   shown a delta, which may not show the ref's own line in its changed row (rows re-used
   *   for items never shown: a pager that rewrites its rows).
   * What is held keeps what the agent saw, so an action on the ref fails
   * (`ref-gone`) instead of acting on another item. A change in place (a
   * counter, a time, "Play" → "Pause", the acted-on element's own rename: a Follow button that
   * now reads Following) is taken over.
   *
   * @param options.acted the ref the action acted on (its rename is the action's effect).
   * @param options.edited what the field acted on held (`before`) and holds (`after`) (a fill):
   *   a ref whose row read `before` and now reads exactly `after` in its place took the agent's
   *   own edit (a TodoMVC item renamed in place: its checkbox is still the item's), unless
   *   another ref was shown in the row it now reads. A row re-used for another item reads
   *   otherwise.
   * Returns the refs newly held back, in `seen` order: a ref held by an earlier settle and
   * neither shown nor back as shown since is held still, but not returned again (the delta's
   * note said it once).
   */
  settle(
    seen: Iterable<string>,
    options: {
      acted?: string | undefined;
      edited?: { before?: string; after: string } | undefined;
    } = {},
  ): string[] {
    const seenSet = new Set(seen);
    const changed: RefEntry[] = [];
    for (const ref of seenSet) {
      const e = this.#byRef.get(ref);
      const l = e?.latest;
      if (
        e && l && (l.role !== e.role || l.name !== e.name || !sameContext(e.context, l.context))
      ) changed.push(e);
      // Back where it was shown: a later change is a new one, said again.
      else if (e) e.heldSaid = false;
    }
    if (!changed.length) return [];
    // Picks are not captured (they keep what the person picked): they take no part here.
    const shown = [...this.#byRef.values()].filter((e) => e.ref[0] === "e");
    const byRole = groupBy(shown, (e) => `${docKey(e)}\u0000${e.role}`);
    const byName = groupBy(
      shown,
      (e) => `${docKey(e)}\u0000${e.role}\u0000${e.name}`,
    );
    const now = (p: RefEntry) => seenSet.has(p.ref) ? p.latest : undefined;
    // The field's value before and after the agent's edit (white space left out): a row that
    // read the one and now reads the other in its place is the item the agent renamed.
    const before = squash(options.edited?.before ?? "");
    const after = squash(options.edited?.after ?? "");
    const ownEdit = (e: RefEntry, l: SeenAs) => {
      if (!before || !after || before === after || !e.context || !l.context) return false;
      const was = squash(e.context.text);
      return was.includes(before) && squash(l.context.text) === was.replace(before, after);
    };
    const held: string[] = [];
    const take: Array<[RefEntry, SeenAs]> = [];
    for (const e of changed) {
      const l = e.latest!;
      const renamed = l.role !== e.role || l.name !== e.name;
      const acted = e.ref === options.acted;
      const nameRecycled = renamed && !acted && !EDITABLE_ROLES.has(e.role) &&
        [
          ...(byRole.get(`${docKey(e)}\u0000${l.role}`) ?? []),
          ...byRole.get(`${docKey(e)}\u0000${e.role}`)!,
        ]
          .some((p) =>
            p !== e &&
            ((p.role === l.role && p.name === l.name) ||
              (now(p)?.role === e.role && now(p)?.name === e.name))
          );
      const moved = !sameContext(e.context, l.context);
      const contextRecycled = moved &&
        (byName.get(`${docKey(e)}\u0000${e.role}\u0000${e.name}`)!.some((p) =>
          p !== e &&
          (sameContext(p.context, l.context) ||
            (now(p) !== undefined && sameContext(now(p)!.context, e.context)))
        ) ||
          (!acted && e.context !== undefined && !sameSkeleton(e.context, l.context) &&
            !ownEdit(e, l)));
      if (nameRecycled || contextRecycled) {
        // Said once per change: a ref still held from an earlier delta is not named again.
        if (!e.heldSaid) held.push(e.ref);
        e.heldSaid = true;
      } else e.heldSaid = false;
      take.push([e, {
        role: nameRecycled ? e.role : l.role,
        name: nameRecycled ? e.name : l.name,
        context: contextRecycled ? e.context : l.context,
      }]);
    }
    // Decided on what was shown before this capture, then applied.
    for (const [e, shown] of take) Object.assign(e, shown);
    return held;
  }

  /**
   * The agent was shown the tab: every ref of it that `shown` holds (`[ref=eN]`, a read_page
   * tree line; the page of a paged snapshot, a full result cut at its budget) takes what the
   * last capture saw; refs it did not show keep what they were last shown with. Without
   * `shown`: every ref of the tab.
   */
  showAll(targetId: string, shown?: string): void {
    const refs = shown === undefined ? undefined : refsShownIn(shown);
    for (const e of this.#byRef.values()) {
      if (e.targetId === targetId && e.latest && (!refs || refs.has(e.ref))) {
        Object.assign(e, e.latest, { heldSaid: false });
      }
    }
  }

  /**
   * Records that a result carried these refs to the agent (see {@link RefEntry.shown}); refs
   * unknown or dropped are ignored. A ref shown once stays shown while it lives.
   */
  markShown(refs: Iterable<string>): void {
    for (const ref of refs) {
      const e = this.#byRef.get(ref);
      if (e) e.shown = true;
    }
  }

  /**
   * Records refs a result told the agent the page re-created with the same content (a delta's
   * `~ e7 is gone: the page re-created it as e11` note): [old, new] pairs.
   */
  noteRenewed(pairs: Iterable<[string, string]>): void {
    for (const [from, to] of pairs) {
      if (from !== to) this.#renewed.set(from, to);
    }
    // Old announcements of refs long gone go first (insertion order) past a bound.
    for (const k of this.#renewed.keys()) {
      if (this.#renewed.size <= 5000) break;
      this.#renewed.delete(k);
    }
  }

  /**
   * The ref a result announced as `ref`'s re-creation (followed through later ones: e7 → e11 →
   * e15), the newest that is still registered; undefined when none was announced or none lives.
   */
  renewedAs(ref: string): string | undefined {
    let found: string | undefined;
    const seen = new Set([ref]);
    for (let r = this.#renewed.get(ref); r && !seen.has(r); r = this.#renewed.get(r)) {
      seen.add(r);
      if (this.#byRef.has(r)) found = r;
    }
    return found;
  }

  /** The entry of a ref (`e12`), or undefined when unknown or dropped. */
  get(ref: string): RefEntry | undefined {
    return this.#byRef.get(ref);
  }

  /** True when this registry issued `ref` at some point (it may since have been dropped). */
  wasIssued(ref: string): boolean {
    const m = /^([ep])(\d+)$/.exec(ref);
    const next = m?.[1] === "p" ? this.#nextPick : this.#next;
    return !!m && Number(m[2]) >= 1 && Number(m[2]) < next;
  }

  /**
   * Forgets the refs of a frame that belong to another document or world than
   * the given one (they can never resolve again). Returns how many went.
   */
  dropStale(targetId: string, frameId: string, loaderId: string, instance: string): number {
    let n = 0;
    for (const e of this.#byRef.values()) {
      if (
        e.targetId === targetId && e.frameId === frameId &&
        (e.loaderId !== loaderId || e.instance !== instance)
      ) {
        this.#delete(e);
        n++;
      }
    }
    return n;
  }

  /**
   * Whether another ref of `entry`'s document, with its role and name, was shown in `context`:
   * the element of `entry` now sits where that one's item was shown (a node re-used for another
   * item), not in its own item changed in place (a row that reveals its actions on hover).
   */
  shownElsewhere(entry: RefEntry, context: RefContext): boolean {
    const doc = docKey(entry);
    for (const e of this.#byRef.values()) {
      if (
        e !== entry && e.ref[0] === "e" && e.role === entry.role && e.name === entry.name &&
        docKey(e) === doc && sameContext(e.context, context)
      ) return true;
    }
    return false;
  }

  /**
   * The contexts other refs of `entry`'s role and name in its document were shown in whose
   * text reads like `entry`'s but for counts, times and prices ({@link sameSkeleton}): the rows
   * a re-used element could now belong to without its skeleton changing. For the page-side
   * checks during an action (`hit_lib.ts`): a ticking row is still its item, unless it now
   * reads exactly as one of these. At most 50.
   */
  lookAlikes(entry: RefEntry): string[] {
    return this.lookAlikeRefs(entry).map((e) => e.context!.text);
  }

  /**
   * The refs whose contexts {@link lookAlikes} gives (at most 50): shown ones only (a capture
   * may have registered a re-rendered row's element already, as the action's own picture of
   * the page before it: not a ref the agent holds, and it made a re-find refuse now and then).
   */
  lookAlikeRefs(entry: RefEntry): RefEntry[] {
    if (!entry.context) return [];
    const doc = docKey(entry);
    const out: RefEntry[] = [];
    for (const e of this.#byRef.values()) {
      if (
        e !== entry && e.ref[0] === "e" && e.shown && e.role === entry.role &&
        e.name === entry.name && docKey(e) === doc && e.context &&
        sameSkeleton(e.context, entry.context) && e.context.text !== entry.context.text
      ) out.push(e);
      if (out.length >= 50) break;
    }
    return out;
  }

  /**
   * The names other refs of `entry`'s role in its document were shown with, other than its own
   * and sharing a word with it ("Delete Dave Dunn" beside "Delete Carol Cruz"): an element that
   * reads one of them at its press was re-used for that item (`hit_lib.ts`). At most 50.
   */
  namesAlike(entry: RefEntry): string[] {
    const doc = docKey(entry);
    const words = new Set(entry.name.toLowerCase().split(/\s+/).filter(Boolean));
    const out = new Set<string>();
    for (const e of this.#byRef.values()) {
      if (out.size >= 50) break;
      if (
        e.role === entry.role && e.name !== entry.name && e.ref[0] === "e" &&
        docKey(e) === doc && e.name.toLowerCase().split(/\s+/).some((w) => words.has(w))
      ) out.add(e.name);
    }
    return [...out];
  }

  /** Forgets the refs for which `stale` returns true. Returns how many went. */
  prune(stale: (entry: RefEntry) => boolean): number {
    let n = 0;
    for (const e of this.#byRef.values()) {
      if (stale(e)) {
        this.#delete(e);
        n++;
      }
    }
    return n;
  }

  /** Forgets every ref of a tab (closed tab). Returns how many went. */
  dropTab(targetId: string): number {
    this.reads.dropTab(targetId);
    let n = 0;
    for (const e of this.#byRef.values()) {
      if (e.targetId === targetId) {
        this.#delete(e);
        n++;
      }
    }
    return n;
  }

  #delete(e: RefEntry) {
    this.#byRef.delete(e.ref);
    // A pick shares its element's key with that element's eN: only the owner's mapping goes.
    const key = keyOf(e);
    if (this.#byKey.get(key) === e) this.#byKey.delete(key);
  }
}
