/**
 * Which element a `text=` selector acts on when several match, and the note
 * that says so. Pure: the page describes the matches (`queryMatches`,
 * browser/injected/text_lib.ts), this ranks them.
 *
 * @module
 */

/** One match as the ranking sees it (names already cut and masked for the agent). */
export interface TextCandidate {
  /** Its role, or its control's (`button`); `text` for plain text. */
  role: string;
  /** Its control's name or its own text, as shown to the agent; `""` when not described. */
  name: string;
  /** It is, or sits in, something a user operates (control, link, label of a control, handler). */
  actionable: boolean;
  /** Its shown text is the text sought, whole (its name may differ: an aria-label). */
  exact?: boolean;
  /** Drawn at an opacity under 0.1 (with its ancestors'): a person does not see it. */
  faint?: boolean;
  /** Where it sits (its row's text, cut and masked), when other matches read alike. */
  where?: string;
}

/** The choice among matches: the candidate's index, and a note when there was a choice. */
export interface TextChoice {
  index: number;
  /** For the result's warnings; absent when one element matched. */
  note?: string;
}

const LISTED = 3;

/** `button "Search"`, or the role alone when unnamed; `in "Milk 2.99 …"` where it sits. */
export function describeCandidate(c: TextCandidate): string {
  const what = c.name ? `${c.role} ${JSON.stringify(c.name)}` : c.role;
  return c.where ? `${what} in ${JSON.stringify(c.where)}` : what;
}

function list(cs: TextCandidate[]): string {
  const shown = cs.slice(0, LISTED).map(describeCandidate).join(", ");
  return cs.length > LISTED ? `${shown} and ${cs.length - LISTED} more` : shown;
}

/**
 * Picks the match a `text=` selector acts on, in this order: the first actionable match a
 * person can see whose shown text is the text sought, whole (a user clicking "Search" means
 * the button reading "Search", not the label "Search books" before it; an aria-label is not
 * shown text, so a later button labelled "Search" does not win over it); else the first
 * actionable match a person can see (not the heading "Search docs"); else the first actionable
 * one; else the first. Candidates come in snapshot order, so ties keep it. The note names the
 * choice, what it was preferred over and why, e.g. `text=Search matched 2: chose button
 * "Search" over heading "Search docs" (the first actionable match); …`.
 *
 * @param selector The selector as the agent wrote it (shown in the note).
 * @param candidates At least one.
 * @throws RangeError when `candidates` is empty.
 */
export function chooseTextMatch(selector: string, candidates: TextCandidate[]): TextChoice {
  if (!candidates.length) throw new RangeError("chooseTextMatch: no candidates");
  if (candidates.length === 1) return { index: 0 };
  const exact = candidates.findIndex((c) => c.actionable && !c.faint && c.exact);
  const seen = candidates.findIndex((c) => c.actionable && !c.faint);
  const first = candidates.findIndex((c) => c.actionable);
  const index = exact >= 0 ? exact : seen >= 0 ? seen : Math.max(0, first);
  const chosen = describeCandidate(candidates[index]!);
  const head = `${selector} matched ${candidates.length}: chose ${chosen}`;
  const tail = "; to act on another, pass its ref from a snapshot";
  if (index > 0) {
    const why = index === exact && exact > seen
      ? "the first actionable match reading exactly that; the others only contain it"
      : index === seen && seen > first
      ? "the first actionable match a person can see; the ones before are drawn invisible"
      : "the first actionable match; text before it is not";
    return {
      index,
      note: `${head} over ${list(candidates.slice(0, index))} (${why})${tail}`,
    };
  }
  const others = list(candidates.slice(1));
  const why = first === 0
    ? "the first in page order, and actionable"
    : "the first in page order; none is actionable";
  return { index, note: `${head} (${why}); also matched: ${others}${tail}` };
}
