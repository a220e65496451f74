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
  /** Its context when last shown; undefined when not recorded (then not checked). */
  context?: RefContext | undefined;
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
   * Records `role`, `name` and `options.context` as last rendered.
   */
  refFor(
    target: RefTarget,
    role: string,
    name: string,
    options: { context?: RefContext | undefined } = {},
  ): string {
    const key = keyOf(target);
    const known = this.#byKey.get(key);
    const context = options.context;
    if (known) {
      known.role = role;
      known.name = name;
      known.context = context;
      return known.ref;
    }
    const ref = `e${this.#next++}`;
    const entry: RefEntry = { ...target, ref, role, name, context };
    this.#byRef.set(ref, entry);
    this.#byKey.set(key, entry);
    return ref;
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
