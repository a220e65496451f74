/**
 * What a ref that cannot be used says, and why (`ref-gone`): the error, its reasons, and the
 * words that tell the agent what the ref was shown as and what it is now (`resolve.ts` checks,
 * `refind.ts` searches, the actions' press guard reports).
 *
 * @module
 */
import { ToolError } from "../tool_error.ts";
import type { ShownAs } from "../injected/page_types.ts";
import type { RefRegistry } from "./refs.ts";
import type { RefContext, RefEntry } from "./ref_types.ts";
import { squash } from "./row_identity.ts";
/** Why a ref cannot be used. */
export type RefGoneReason =
  | "malformed"
  | "unknown"
  | "unshown"
  | "other-tab"
  | "frame-gone"
  | "navigated"
  | "detached"
  | "changed";

/**
 * A ref no longer names an element the agent can act on: malformed, never
 * issued, never shown to the agent, from another tab, its frame or document went away, the element was
 * removed, or it now has another role, name or context (a node recycled for
 * another list item). A {@link ToolError} with code
 * `"ref-gone"`; the message says what happened and to take a new snapshot.
 */
export class RefGoneError extends ToolError {
  /** The ref as passed. */
  readonly ref: string;
  readonly reason: RefGoneReason;

  /**
   * `hint` replaces the default next step ("call snapshot again …") where another one fits; it
   * is the error's `Next:` alone (a new user read a 136-token message twice, once as Next).
   */
  constructor(ref: string, reason: RefGoneReason, detail: string, hint?: string) {
    super(
      "ref-gone",
      `Ref ${JSON.stringify(ref)} ${detail}${
        hint ? "" : "; take a new snapshot to get current refs"
      }`,
      hint ?? "call snapshot again and use a ref from the new outline",
      { ref, reason },
    );
    this.name = "RefGoneError";
    this.ref = ref;
    this.reason = reason;
  }
}

export function quote(s: string): string {
  return JSON.stringify(s.length > 80 ? s.slice(0, 80) + "…" : s);
}

/**
 * A context text as shown: a long one's hash (`… #1x2y3z` or `… 1001 #1x2y3z`, see
 * {@link RefContext}) left out, its item's number kept.
 */
export function shownText(text: string): string {
  return text.replace(/… (?:(\S+) )?#[0-9a-z~]+$/, (_, id?: string) => id ? `… ${id}` : "…");
}

/**
 * How the agent saw an element: `role "name"`, or for a nameless item container (a bare
 * `- listitem` row whose label is its text) or a nameless clickable, `role "its text"`, the
 * label the outline showed it by, instead of `listitem ""`.
 */
export function shownAs(role: string, name: string, context: RefContext | undefined): string {
  if (name || !context?.text) return `${role} ${quote(name)}`;
  const own = context.kind === "content" || context.kind.replace(" ", "") === role;
  return `${role} ${quote(own ? shownText(context.text) : name)}`;
}

function where(c: RefContext): string {
  if (c.kind === "content") return `showing ${quote(shownText(c.text))}`;
  return c.kind
    ? `in a ${c.kind} ${quote(shownText(c.text))}`
    : "in no list, row or named container";
}

/** Why the context changed, or undefined when it did not (see {@link RefContext}). */
export function contextChange(entry: RefEntry, now: RefContext): string | undefined {
  const was = entry.context;
  if (!was || (was.kind === now.kind && squash(was.text) === squash(now.text))) return undefined;
  const what = `(${shownAs(entry.role, entry.name, was)})`;
  const [nowShown, wasShown] = [shownText(now.text), shownText(was.text)];
  const instead = nowShown === wasShown
    ? `(its text differs after ${quote(nowShown.replace(/…$/, ""))})`
    : `(${quote(nowShown)} instead of ${quote(wasShown)})`;
  if (was.kind === now.kind) {
    return was.kind === "content"
      ? `${what} now shows different content ${instead}: the page re-used the element`
      : `${what} now sits in a different ${now.kind} ${instead}: the page re-used the element for another item`;
  }
  return `${what} moved: it was ${where(was)}, now ${where(now)}`;
}

/**
 * What a ref's row changed in place reads like (`checkLive`): its prices, counts or amounts,
 * not its item: `(button "Buy" in a list item "Widget $10") now reads "Widget $12": …`.
 */
export function valuesChanged(entry: RefEntry, was: RefContext, now: RefContext): string {
  const [nowShown, wasShown] = [shownText(now.text), shownText(was.text)];
  const reads = nowShown === wasShown
    ? `now reads otherwise after ${quote(nowShown.replace(/…$/, ""))}`
    : `now reads ${quote(nowShown)}, not ${quote(wasShown)}`;
  return `(${shownAs(entry.role, entry.name, was)}) ${reads}: a price, count or amount in its ${
    was.kind && was.kind !== "content" ? was.kind : "content"
  } changed since you were shown it, so nothing was done`;
}

/**
 * The next step after {@link valuesChanged}: the ref stands for the row as it reads now, and
 * acting on it again takes the row whatever its numbers read then (`liveValues`).
 */
export function valuesHint(ref: string): string {
  return `if that is still what you want, act on ${ref} again: it then acts on this row ` +
    "whatever its numbers read (they change on their own), and the result says what they " +
    "read; else take a new snapshot";
}

/**
 * The warning of an action on a ref whose row's numbers changed again on their own after the
 * agent was told they do (`liveValues`): `e5: its list item read "ACME $31.50" when acted on
 * (shown as "ACME $30.25": …)`.
 */
export function liveValuesNote(entry: RefEntry, was: RefContext): string {
  const now = entry.context!;
  return `${entry.ref}: its ${now.kind && now.kind !== "content" ? now.kind : "content"} read ${
    quote(shownText(now.text))
  } when acted on (shown as ${quote(shownText(was.text))}: its numbers change on their own)`;
}

/**
 * The `ref-gone` (`detached`) failure of a ref whose element left the page: `matches` says what
 * a search for the same element found (`refind.ts`: 0, or 2 for several), `only` where the one
 * element of its role and name sits when none matched (what changed). A ref a result
 * announced as re-created by the page (`~ e7 is gone: the page re-created it as e11`) names
 * its new ref as the next step ({@link RefRegistry.renewedAs}).
 */
export function goneError(
  registry: RefRegistry,
  entry: RefEntry,
  matches?: number,
  /**
   * With no match: where the one element of the ref's role and name now sits, and its ref when
   * a result showed it to the agent.
   */
  only?: RefContext & { ref?: string },
): RefGoneError {
  const found = matches === undefined
    ? ""
    : matches === 0
    ? `, and no element now matches it (same role, name and row)${
      only
        ? `: the only ${shownAs(entry.role, entry.name, only)} sits ${
          only.kind ? where(only) : "in no list, row or named container"
        }${only.ref ? ` (shown to you as ${only.ref})` : ""}`
        : ""
    }`
    : `, and ${matches} or more elements now match it (same role, name and row): which is not known`;
  const renewed = registry.renewedAs(entry.ref);
  return new RefGoneError(
    entry.ref,
    "detached",
    `(${shownAs(entry.role, entry.name, entry.context)}) was removed from the page ` +
      `(or re-rendered as a new element)${found}${
        renewed ? `: a result said the page re-created it as ${renewed}` : ""
      }`,
    renewed
      ? `use ${renewed} (or call snapshot for current refs)`
      : only?.ref
      ? `if that is the one you mean, use ${only.ref}; else take a new snapshot`
      : undefined,
  );
}

/**
 * What a ref was shown as, for a note: `button "Buy" in a list item "INITECH $30.12"`.
 */
export function describeEntry(entry: RefEntry): string {
  const c = entry.context;
  return `${shownAs(entry.role, entry.name, c)}${
    c?.kind && c.kind !== "content" ? ` ${where(c)}` : ""
  }`;
}

/**
 * The `ref-gone` failure of a ref whose element the page re-used for another item while an
 * action waited on it (after the ref was checked: during the scroll into view, on the
 * pointer's arrival, under a cover): `shown` is what the agent was shown, `now` what the
 * element is at the press; `outcome` ends the message (what became of the action), `when` says
 * when it happened.
 */
export function reusedDuringAction(
  shown: ShownAs & { ref: string },
  now: ShownAs,
  outcome = "nothing was pressed",
  when = "while the action waited on it (scrolling it into view, the pointer's arrival, a cover)",
): RefGoneError {
  const was = { kind: shown.context[0], text: shown.context[1] };
  const is = { kind: now.context[0], text: now.context[1] };
  const entry = { role: shown.role, name: shown.name, context: was } as RefEntry;
  const moved = now.role === shown.role ? contextChange(entry, is) : undefined;
  const how = moved ??
    `changed from ${shownAs(shown.role, shown.name, was)} to ${shownAs(now.role, now.name, is)}`;
  return new RefGoneError(
    shown.ref,
    "changed",
    `${how}, ${when}; ${outcome}`,
  );
}
