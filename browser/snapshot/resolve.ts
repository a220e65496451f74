/**
 * Ref resolution: from a ref `eN` an agent copied out of a snapshot back to
 * the one element it named, or a loud failure. Never a different element.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { callUtility, callUtilityHandle, type RemoteHandle } from "../injected/mod.ts";
import { EDITABLE_ROLES, type RefRegistry } from "./refs.ts";
import type { RefEntry } from "./ref_types.ts";
import { sameSkeleton, sameSteady, squash } from "./row_identity.ts";
import { parseRef } from "./ref_syntax.ts";
import {
  contextChange,
  goneError,
  liveValuesNote,
  RefGoneError,
  shownAs,
  valuesChanged,
  valuesHint,
} from "./ref_gone.ts";

export {
  describeEntry,
  goneError,
  RefGoneError,
  type RefGoneReason,
  reusedDuringAction,
} from "./ref_gone.ts";

type RefState =
  | { state: "ok"; role: string; name: string; editable: boolean; context: [string, string] }
  | { state: "gone" }
  | { state: "world" };

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
  return (await checkLive(page, registry, liveEntry(page, registry, ref, options.issuedByCaller)))
    .entry;
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

/**
 * {@link checkRef}'s page side: what the entry's element is now, with a `note` for the
 * result's warnings when it is acted on though its row's numbers changed (`liveValues`).
 * @throws RefGoneError
 */
async function checkLive(
  page: Page,
  registry: RefRegistry,
  entry: RefEntry,
): Promise<{ entry: RefEntry; note?: string }> {
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
    // the agent acts again knowingly. Told once, a row whose numbers keep changing (a ticker)
    // is acted on, saying what it read.
    if (sameSteady(was, nowContext)) return { entry };
    if (entry.liveValues) return { entry, note: liveValuesNote(entry, was) };
    entry.liveValues = true;
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
  return { entry };
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
): Promise<{ handle: RemoteHandle; notLabel: boolean; note?: string }> {
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
  const { entry, note } = await checkLive(page, registry, live);
  const handle = await callUtilityHandle(page, entry.frameId, "element", [
    entry.localId,
    entry.instance,
  ]);
  if (!handle) throw goneError(registry, entry);
  return { handle: withShown(handle, entry, registry), notLabel: false, ...(note ? { note } : {}) };
}
