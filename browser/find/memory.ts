/**
 * What `find_feedback` taught a session: for a query, which element was right (or wrong), kept
 * by the element's stable features (role, name, test id, id attribute), not by its ref — refs
 * change with every document, the features survive a reload. A later `find` with the same or a
 * close query (same words in any order, or most of them) recalls it.
 *
 * @module
 */
import { SessionSlot, type SessionSlots } from "../sessions/session_slots.ts";

/** An element as feedback remembers it. */
export interface FindFeatures {
  role: string;
  name: string;
  /** Its test id (`data-testid`, `data-test`, `data-qa`, `data-cy`) or `""`. */
  testId: string;
  /** Its `id` attribute or `""`. */
  idAttr: string;
  /**
   * Where it sits (the ref's context, kind and text joined by `\u0000`): tells apart elements
   * of the same role and name without ids (two "Save" buttons in two toolbars).
   */
  context: string;
}

/** One remembered verdict. */
export interface FeedbackEntry {
  /** The query as the agent wrote it. */
  query: string;
  /** Its normalized words ({@link queryWords}). */
  words: string[];
  features: FindFeatures;
  /** True: this element is what the query means; false: it is not. */
  correct: boolean;
}

/** A verdict recalled for a query, with how close the queries are (0..1, 1 = same words). */
export interface Recalled extends FeedbackEntry {
  similarity: number;
}

const STOP = new Set("the a an to of in on at for please click press this that".split(" "));
/** Queries at least this close (Jaccard of their words) recall each other's verdicts. */
export const CLOSE_QUERY = 0.6;
/** Verdicts kept per session (oldest dropped first). */
const MAX_ENTRIES = 500;

/** A query's words for comparison: lower case, plural `s` dropped, stop words out, sorted, once. */
export function queryWords(query: string): string[] {
  const words = query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w && !STOP.has(w))
    .map((w) => w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w);
  return [...new Set(words)].sort();
}

function similarity(a: string[], b: string[]): number {
  if (!a.length && !b.length) return 1;
  const sb = new Set(b);
  const both = a.filter((w) => sb.has(w)).length;
  return both / (a.length + b.length - both);
}

function sameElement(a: FindFeatures, b: FindFeatures): boolean {
  if (a.role !== b.role) return false;
  if (a.testId || b.testId) return a.testId === b.testId;
  if (a.idAttr || b.idAttr) return a.idAttr === b.idAttr;
  return a.name === b.name && a.context === b.context;
}

/** A session's find feedback. */
export class FindMemory {
  #entries: FeedbackEntry[] = [];

  /** Number of verdicts kept. */
  get size(): number {
    return this.#entries.length;
  }

  /**
   * Remembers a verdict; a verdict on the same element for the same words replaces the old one.
   * Returns the entry kept.
   */
  record(query: string, features: FindFeatures, correct: boolean): FeedbackEntry {
    const words = queryWords(query);
    const key = words.join(" ");
    this.#entries = this.#entries.filter((e) =>
      !(e.words.join(" ") === key && sameElement(e.features, features))
    );
    // Right for this query: another element said right before is not right any more.
    if (correct) {
      this.#entries = this.#entries.filter((e) => !(e.words.join(" ") === key && e.correct));
    }
    const entry = { query, words, features, correct };
    this.#entries.push(entry);
    if (this.#entries.length > MAX_ENTRIES) this.#entries.shift();
    return entry;
  }

  /**
   * The verdicts for queries close to `query` ({@link CLOSE_QUERY}), closest first, one per
   * element (the closest query's verdict wins).
   */
  recall(query: string): Recalled[] {
    const words = queryWords(query);
    const found = this.#entries
      .map((e) => ({ ...e, similarity: similarity(words, e.words) }))
      .filter((e) => e.similarity >= CLOSE_QUERY)
      .sort((a, b) => b.similarity - a.similarity);
    const out: Recalled[] = [];
    for (const e of found) {
      if (!out.some((o) => sameElement(o.features, e.features))) out.push(e);
    }
    return out;
  }
}

/** The slot of a session's {@link FindMemory}. */
const FIND_MEMORY = new SessionSlot<FindMemory>("find feedback");

/** A session's find memory, made on first use. */
export function findMemoryOf(slots: SessionSlots): FindMemory {
  let memory = slots.get(FIND_MEMORY);
  if (!memory) slots.set(FIND_MEMORY, memory = new FindMemory());
  return memory;
}
