/**
 * The Deno side of `browser/injected/ref_memo_lib.ts`: per frame document, the ref facts (role,
 * name, context) the snapshots of one registry read, and the last walk read whole, so a page
 * may send a ref it sent before as `[id]` alone. One per {@link RefRegistry} (its `reads`).
 *
 * @module
 */
/** A ref's facts as a snapshot read them (`SeenAs` of refs.ts). */
export interface ReadFacts {
  role: string;
  name: string;
  context: { kind: string; text: string } | undefined;
}

/** A frame document as a snapshot read it. */
export interface ReadDoc {
  targetId: string;
  frameId: string;
  loaderId: string;
}

interface DocFacts {
  loaderId: string;
  instance: string;
  walk: number;
  facts: Map<number, ReadFacts>;
}

/** What a registry read of each frame document's refs (see the module doc). */
export class ReadMemo {
  /** Names this registry to the page: another registry's reads are not this one's. */
  readonly token: string = crypto.randomUUID();
  #docs = new Map<string, DocFacts>();

  #key(doc: ReadDoc): string {
    return `${doc.targetId}\u0000${doc.frameId}`;
  }

  /**
   * The `registry`, `world` and `ack` a snapshot call passes (`SnapshotOptions`): the last walk
   * read whole of the document `doc` and its world; none when it was never read.
   */
  ackFor(doc: ReadDoc): { registry: string; world?: string; ack?: number } {
    const d = this.#docs.get(this.#key(doc));
    return d && d.loaderId === doc.loaderId
      ? { registry: this.token, world: d.instance, ack: d.walk }
      : { registry: this.token };
  }

  /** The facts read of element `localId` of `doc`'s world `instance`, if any. */
  facts(doc: ReadDoc, instance: string, localId: number): ReadFacts | undefined {
    const d = this.#docs.get(this.#key(doc));
    if (!d || d.loaderId !== doc.loaderId || d.instance !== instance) return undefined;
    return d.facts.get(localId);
  }

  /** Records walk `walk` of `doc`'s world `instance` as read, with the facts it sent whole. */
  record(doc: ReadDoc, instance: string, walk: number, facts: Map<number, ReadFacts>): void {
    const key = this.#key(doc);
    const d = this.#docs.get(key);
    if (!d || d.loaderId !== doc.loaderId || d.instance !== instance) {
      this.#docs.set(key, { loaderId: doc.loaderId, instance, walk, facts });
      return;
    }
    for (const [id, f] of facts) d.facts.set(id, f);
    d.walk = walk;
  }

  /** Forgets what was read of a tab's documents (closed tab). */
  dropTab(targetId: string): void {
    for (const key of this.#docs.keys()) {
      if (key.startsWith(`${targetId}\u0000`)) this.#docs.delete(key);
    }
  }
}
