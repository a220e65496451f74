/**
 * The ref registry: one per browxai session. It gives every targetable
 * element a snapshot shows a global ref `eN`, and remembers where that
 * element lives so an action can find it again (`resolve.ts`).
 *
 * @module
 */

/** Where a ref's element lives: tab, frame, document, world, page-local id. */
export interface RefTarget {
  /** The tab's target id (its main frame id). */
  targetId: string;
  /** The frame whose document holds the element. */
  frameId: string;
  /** The frame's document (`loaderId`) when the ref was issued. */
  loaderId: string;
  /** The page-side library's world token (page-local ids restart in a new world). */
  instance: string;
  /** The page-local element id (`__browxai.idOf`). */
  localId: number;
}

/**
 * Where an element sits, as the page-side `contextOf` reports it (see
 * `browser/injected/snapshot_lib.ts`): the kind and text of its item container
 * (`"list item"`, `"row"`, `"option"`, `"article"`, `"label"`; text at most 80
 * characters, without field values, and without the element's own text unless
 * it is the container), or for a nameless clickable `"content"` and its own
 * text, or the role and name of the nearest named structure (`"dialog"`,
 * `"region"`, …), or `""` and `""`. A node recycled for another item (a list
 * re-rendered without keys) keeps its role and name but not its context.
 */
export interface RefContext {
  kind: string;
  text: string;
}

/** A registered ref: its target plus the role, name and context it was last shown with. */
export interface RefEntry extends RefTarget {
  /** The global ref, `e1`, `e2`, … */
  ref: string;
  role: string;
  name: string;
  /**
   * Its context when last shown to the agent, what an action on the ref is
   * checked against; undefined when not recorded (then not checked).
   */
  context?: RefContext | undefined;
  /** Its context at the last capture (may differ from `context` until the agent sees it). */
  latest?: RefContext | undefined;
}

/** Options of {@link RefRegistry.refFor}. */
export interface RefForOptions {
  /** Where the element sits now (see {@link RefContext}). */
  context?: RefContext | undefined;
  /**
   * The capture is not shown to the agent whole (an action's before and
   * after snapshots, shown as a delta): a known ref keeps the context it was
   * shown with; {@link RefRegistry.settle} decides what to take over.
   */
  hold?: boolean;
}

function sameContext(x: RefContext | undefined, y: RefContext | undefined): boolean {
  return x === y || (!!x && !!y && x.kind === y.kind && x.text === y.text);
}

const REF_FORMS = /^\s*(?:\[?ref=)?(e\d+)\]?\s*$/;

/**
 * Parses what an agent passed as a ref: `e12`, also `ref=e12` and `[ref=e12]`
 * (copied from a snapshot line). Returns the bare ref, or undefined when it
 * is not a ref.
 */
export function parseRef(input: string): string | undefined {
  return REF_FORMS.exec(input)?.[1];
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
  #byRef = new Map<string, RefEntry>();
  #byKey = new Map<string, RefEntry>();

  /** Number of live entries. */
  get size(): number {
    return this.#byRef.size;
  }

  /**
   * The ref of an element, issuing a new one the first time it is seen.
   * Records `role`, `name` and `options.context` as last rendered (the
   * context only as `latest` for a known ref under `options.hold`).
   */
  refFor(target: RefTarget, role: string, name: string, options: RefForOptions = {}): string {
    const key = keyOf(target);
    const known = this.#byKey.get(key);
    const context = options.context;
    if (known) {
      known.role = role;
      known.name = name;
      known.latest = context;
      if (!options.hold || !known.context) known.context = context;
      return known.ref;
    }
    const ref = `e${this.#next++}`;
    const entry: RefEntry = { ...target, ref, role, name, context, latest: context };
    this.#byRef.set(ref, entry);
    this.#byKey.set(key, entry);
    return ref;
  }

  /**
   * After a held capture (see {@link RefForOptions.hold}) that saw `seen`:
   * takes over each seen ref's new context, unless the change looks like the
   * page re-used the element for another item (a list sorted or re-rendered
   * by re-using its nodes): another ref of the same role and name, in the same
   * document, was shown in the context this one sits in now, or now sits in the
   * context this one was shown in. Those keep the context the agent saw, so an
   * action on them fails (`ref-gone`) instead of acting on another item. An
   * in-place change (a row's text edited, a counter) is taken over.
   *
   * Returns the refs held back, in `seen` order.
   */
  settle(seen: Iterable<string>): string[] {
    const changed: RefEntry[] = [];
    const seenSet = new Set<string>();
    for (const ref of seen) {
      seenSet.add(ref);
      const e = this.#byRef.get(ref);
      if (e && !sameContext(e.context, e.latest)) changed.push(e);
    }
    if (!changed.length) return [];
    const peerKey = (e: RefEntry) =>
      `${e.targetId}\u0000${e.frameId}\u0000${e.loaderId}\u0000${e.instance}\u0000${e.role}\u0000${e.name}`;
    const peers = new Map<string, RefEntry[]>();
    for (const e of this.#byRef.values()) {
      const k = peerKey(e);
      const list = peers.get(k);
      if (list) list.push(e);
      else peers.set(k, [e]);
    }
    const held: string[] = [];
    const take: RefEntry[] = [];
    for (const e of changed) {
      const recycled = peers.get(peerKey(e))!.some((p) =>
        p !== e &&
        (sameContext(p.context, e.latest) ||
          (seenSet.has(p.ref) && sameContext(p.latest, e.context)))
      );
      if (recycled) held.push(e.ref);
      else take.push(e);
    }
    // Decided on the contexts as shown before this capture, then applied.
    for (const e of take) e.context = e.latest;
    return held;
  }

  /** The agent was shown the whole tab: every ref of it takes its latest context. */
  showAll(targetId: string): void {
    for (const e of this.#byRef.values()) {
      if (e.targetId === targetId && e.latest) e.context = e.latest;
    }
  }

  /** The entry of a ref (`e12`), or undefined when unknown or dropped. */
  get(ref: string): RefEntry | undefined {
    return this.#byRef.get(ref);
  }

  /** True when this registry issued `ref` at some point (it may since have been dropped). */
  wasIssued(ref: string): boolean {
    const m = /^e(\d+)$/.exec(ref);
    return !!m && Number(m[1]) >= 1 && Number(m[1]) < this.#next;
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
    this.#byKey.delete(keyOf(e));
  }
}
