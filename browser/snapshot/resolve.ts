/**
 * Ref resolution: from a ref `eN` an agent copied out of a snapshot back to
 * the one element it named, or a loud failure. Never a different element.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { ToolError } from "../tool_error.ts";
import { callUtility, callUtilityHandle, type RemoteHandle } from "../injected/mod.ts";
import type { ShownAs } from "../injected/page_types.ts";
import { EDITABLE_ROLES, type RefRegistry } from "./refs.ts";
import type { RefContext, RefEntry } from "./ref_types.ts";
import { sameSkeleton, sameSteady } from "./row_identity.ts";
import { parseRef } from "./ref_syntax.ts";

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

  /** `hint` replaces the default next step ("call snapshot again …") where another one fits. */
  constructor(ref: string, reason: RefGoneReason, detail: string, hint?: string) {
    super(
      "ref-gone",
      `Ref ${JSON.stringify(ref)} ${detail}; ${
        hint ? hint.replace(/^call /, "") : "take a new snapshot to get current refs"
      }`,
      hint ?? "call snapshot again and use a ref from the new outline",
      { ref, reason },
    );
    this.name = "RefGoneError";
    this.ref = ref;
    this.reason = reason;
  }
}

type RefState =
  | { state: "ok"; role: string; name: string; editable: boolean; context: [string, string] }
  | { state: "gone" }
  | { state: "world" };

function quote(s: string): string {
  return JSON.stringify(s.length > 80 ? s.slice(0, 80) + "…" : s);
}

/**
 * A context text as shown: a long one's hash (`… #1x2y3z` or `… 1001 #1x2y3z`, see
 * {@link RefContext}) left out, its item's number kept.
 */
function shownText(text: string): string {
  return text.replace(/… (?:(\S+) )?#[0-9a-z~]+$/, (_, id?: string) => id ? `… ${id}` : "…");
}

/**
 * How the agent saw an element: `role "name"`, or for a nameless item container (a bare
 * `- listitem` row whose label is its text) or a nameless clickable, `role "its text"`, the
 * label the outline showed it by, instead of `listitem ""`.
 */
function shownAs(role: string, name: string, context: RefContext | undefined): string {
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

/**
 * A name or text without its white space: a section `content-visibility: auto` skips is read by
 * tags alone (no styles there), so an inline-block's spaces may differ from a later read.
 */
const squash = (s: string): string => s.replace(/\s+/g, "");

/** Why the context changed, or undefined when it did not (see {@link RefContext}). */
function contextChange(entry: RefEntry, now: RefContext): string | undefined {
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
function valuesChanged(entry: RefEntry, was: RefContext, now: RefContext): string {
  const [nowShown, wasShown] = [shownText(now.text), shownText(was.text)];
  const reads = nowShown === wasShown
    ? `now reads otherwise after ${quote(nowShown.replace(/…$/, ""))}`
    : `now reads ${quote(nowShown)}, not ${quote(wasShown)}`;
  return `(${shownAs(entry.role, entry.name, was)}) ${reads}: a price, count or amount in its ${
    was.kind && was.kind !== "content" ? was.kind : "content"
  } changed since you were shown it, so nothing was done`;
}

/** The next step after {@link valuesChanged}: the ref stands for its row as it reads now. */
function valuesHint(ref: string): string {
  return `if that is still what you want, act on ${ref} again (it now stands for the row as ` +
    "it reads); else take a new snapshot";
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
  /** With no match: where the one element of the ref's role and name now sits. */
  only?: RefContext,
): RefGoneError {
  const found = matches === undefined
    ? ""
    : matches === 0
    ? `, and no element now matches it (same role, name and row)${
      only
        ? `: the only ${shownAs(entry.role, entry.name, only)} sits ${
          only.kind ? where(only) : "in no list, row or named container"
        }`
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
    renewed ? `use ${renewed} (or call snapshot for current refs)` : undefined,
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
 * Checks a registry entry against the live page and returns its entry when it
 * still names the same element. Used before every action on a ref.
 *
 * CDP: `Runtime.evaluate` in the utility world of the ref's frame.
 *
 * @param options.issuedByCaller the caller issued `ref` itself for an element the agent named
 *   otherwise (read_page by selector): it need not have been shown to the agent.
 * @throws RefGoneError (see {@link RefGoneReason}).
 */
export async function checkRef(
  page: Page,
  registry: RefRegistry,
  ref: string,
  options: { issuedByCaller?: boolean } = {},
): Promise<RefEntry> {
  return await checkLive(page, registry, liveEntry(page, registry, ref, options.issuedByCaller));
}

/**
 * The registry's entry of a ref whose tab, frame and document are still the ones it was
 * issued in (no page call). @throws RefGoneError
 */
function liveEntry(
  page: Page,
  registry: RefRegistry,
  ref: string,
  issuedByCaller = false,
): RefEntry {
  const bare = parseRef(ref);
  if (!bare) {
    throw new RefGoneError(
      ref,
      "malformed",
      "is not a ref (refs look like e12, as shown in [ref=e12])",
    );
  }
  const entry = registry.get(bare);
  if (!entry) {
    throw new RefGoneError(
      bare,
      "unknown",
      registry.wasIssued(bare)
        ? "belonged to a document that has since been replaced (navigation or reload)"
        : "was never issued in this session",
    );
  }
  if (!entry.shown && !issuedByCaller) {
    throw new RefGoneError(
      bare,
      "unshown",
      "was never shown to you (no result carried it: a delta that left its line out, " +
        "or a page cut off)",
      "take a snapshot (or find) and use a ref it shows",
    );
  }
  if (entry.targetId !== page.target.targetId) {
    const index = registry.tabIndex(entry.targetId);
    throw new RefGoneError(
      bare,
      "other-tab",
      index === undefined
        ? "belongs to a tab that is closed or not the current one"
        : `belongs to tab ${index}, not the current tab`,
      index === undefined
        ? 'call tabs({ action: "list" }) to find its tab, or snapshot this tab for its refs'
        : `call tabs({ action: "switch", index: ${index} }) to act on it there`,
    );
  }
  const frame = page.frame(entry.frameId);
  if (!frame) {
    throw new RefGoneError(bare, "frame-gone", "was in a frame that no longer exists");
  }
  if (frame.loaderId !== entry.loaderId) {
    throw new RefGoneError(bare, "navigated", "was in a document that has since navigated away");
  }
  return entry;
}

/** {@link checkRef}'s page side: what the entry's element is now. @throws RefGoneError */
async function checkLive(page: Page, registry: RefRegistry, entry: RefEntry): Promise<RefEntry> {
  const bare = entry.ref;
  let now: RefState;
  try {
    now = await callUtility(page, entry.frameId, "refState", [
      entry.localId,
      entry.instance,
    ]);
  } catch (error) {
    if (page.frame(entry.frameId)?.loaderId !== entry.loaderId) {
      throw new RefGoneError(bare, "navigated", "was in a document that has since navigated away");
    }
    // The frame went away between the checks above and the call (detached, or a stale entry
    // of the page model): Chromium no longer finds it or its world.
    if (/frame|context|target/i.test(error instanceof Error ? error.message : "")) {
      throw new RefGoneError(bare, "frame-gone", "was in a frame that no longer exists");
    }
    throw error;
  }
  if (now.state === "world") {
    throw new RefGoneError(bare, "navigated", "was in a document that has since been replaced");
  }
  if (now.state === "gone") throw goneError(registry, entry);
  const nowContext = { kind: now.context[0], text: now.context[1] };
  const change = `changed from ${shownAs(entry.role, entry.name, entry.context)} to ${
    shownAs(now.role, now.name, nowContext)
  }`;
  if (now.role !== entry.role) {
    throw new RefGoneError(
      bare,
      "changed",
      change,
    );
  }
  // A text field's name may follow its placeholder or a label that changes as the user types;
  // it is still the same field. Anything else that changes its name is treated as another thing
  // (frameworks recycle nodes for different items).
  if (
    squash(now.name) !== squash(entry.name) && !(now.editable || EDITABLE_ROLES.has(entry.role))
  ) {
    throw new RefGoneError(
      bare,
      "changed",
      change,
    );
  }
  // Its row's counts, times or prices changed ("3s ago", "5/140", "$12"): the same item, unless
  // another ref was shown in exactly the row it now sits in (a list shifted by one).
  if (
    entry.context && sameSkeleton(entry.context, nowContext) &&
    !registry.shownElsewhere(entry, nowContext)
  ) {
    const was = entry.context;
    entry.context = nowContext;
    // A time that ticked is taken over. A price, count or amount the agent has not seen is
    // told first and nothing is done (a red team's row read "Transfer $99,999 to Bob" where
    // "$10" was shown, "Seat 14B" for "12B"): the ref now stands for the row as it reads, so
    // the agent acts again knowingly.
    if (sameSteady(was, nowContext)) return entry;
    throw new RefGoneError(
      bare,
      "changed",
      valuesChanged(entry, was, nowContext),
      valuesHint(bare),
    );
  }
  // Frameworks recycle nodes: a "Delete" button keeps its role and name while its row now
  // shows another item. The row's text (typed values and the element's own text left out)
  // tells; states such as checked, focus or classes do not change it.
  const moved = contextChange(entry, nowContext);
  if (moved) throw new RefGoneError(bare, "changed", moved);
  return entry;
}

/** The handle, carrying what its ref was shown as (checked again at the press: hit_lib.ts). */
export function withShown(
  handle: RemoteHandle,
  entry: RefEntry,
  registry: RefRegistry,
): RemoteHandle {
  if (!entry.context) return handle;
  const context: [string, string] = [entry.context.kind, entry.context.text];
  const elsewhere = ([kind, text]: [string, string]) =>
    registry.shownElsewhere(entry, { kind, text });
  const others = registry.lookAlikes(entry);
  const names = registry.namesAlike(entry);
  return {
    ...handle,
    shown: {
      ref: entry.ref,
      role: entry.role,
      name: entry.name,
      context,
      elsewhere,
      ...(others.length ? { others } : {}),
      ...(names.length ? { names } : {}),
    },
  };
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

/**
 * Resolves a ref to a remote handle of its element in its frame's utility
 * world (release it with `releaseHandle`). See {@link checkRef} for the checks.
 *
 * CDP: `Runtime.evaluate` in the ref's frame's session: once (`refElement`) when the element
 * is exactly as the agent was shown it; else twice more (`refState`, then `element`), for the
 * reason it fails or a change the checks accept (a text field's name).
 *
 * @throws RefGoneError when the ref is malformed, unknown, from another tab,
 *   its frame or document is gone, the element is detached, or its role,
 *   name or context changed.
 */
export async function resolveRef(
  page: Page,
  registry: RefRegistry,
  ref: string,
): Promise<RemoteHandle> {
  return (await resolveRefChecked(page, registry, ref)).handle;
}

/**
 * {@link resolveRef}, telling whether the element is known to be no `<label>`: with
 * `notLabel`, the one-call check also refuses a label (a form action, which acts on a label's
 * control instead, then need not ask the page again). CDP: as {@link resolveRef}.
 *
 * @throws RefGoneError as {@link resolveRef}.
 */
export async function resolveRefChecked(
  page: Page,
  registry: RefRegistry,
  ref: string,
  options: { notLabel?: boolean } = {},
): Promise<{ handle: RemoteHandle; notLabel: boolean }> {
  const live = liveEntry(page, registry, ref);
  const notLabel = options.notLabel === true;
  // One round trip when nothing changed: the page checks the exact role, name and context.
  const same = await callUtilityHandle(page, live.frameId, "refElement", [
    live.localId,
    live.instance,
    live.role,
    live.name,
    live.context ? [live.context.kind, live.context.text] : null,
    notLabel,
  ]).catch(() => undefined);
  if (same) return { handle: withShown(same, live, registry), notLabel };
  const entry = await checkLive(page, registry, live);
  const handle = await callUtilityHandle(page, entry.frameId, "element", [
    entry.localId,
    entry.instance,
  ]);
  if (!handle) throw goneError(registry, entry);
  return { handle: withShown(handle, entry, registry), notLabel: false };
}
