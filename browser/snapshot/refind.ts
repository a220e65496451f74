/**
 * A ref whose element the page re-created (a list re-rendered with new nodes every few hundred
 * milliseconds, the same rows): the action goes to the one element that now matches the ref's
 * whole identity — role, name, row text word for word, and frame; not another ref's element
 * nor a twin of one — and says so; none or several: `ref-gone`, saying which (a row whose
 * price, time or count changed is refused: it may be another item).
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { callUtility, callUtilityHandle, type RemoteHandle } from "../injected/mod.ts";
import type { RefRegistry } from "./refs.ts";
import { describeEntry, goneError, RefGoneError, withShown } from "./resolve.ts";
import { quote, shownText, valuesChanged, valuesHint } from "./ref_gone.ts";

/** The element a gone ref's identity now names: its handle, its ref, and the note to show. */
export interface Refound {
  handle: RemoteHandle;
  /** The element's ref (new, or the one a snapshot already gave it), marked shown. */
  ref: string;
  /** For the result's warnings: `e9's element was re-rendered; acted on … (now e15)`. */
  note: string;
}

/**
 * After `error` (`ref-gone`, reason `detached`, from `resolveRefChecked`): the one element of
 * the ref's frame that matches its role, name and context, registered (it gets a ref, shown to
 * the agent by the note) and recorded as the old ref's re-creation. A ref shown with no
 * context, or an empty one (no row, card or named structure tells it), is not searched for.
 *
 * CDP: `Runtime.evaluate` in the ref's frame's utility world, twice (`refFind`, `element`).
 *
 * @throws RefGoneError `error` again for any other reason, or with what the search found (no
 *   match, or several).
 */
export async function refindGone(
  page: Page,
  registry: RefRegistry,
  error: unknown,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<Refound> {
  const entry = error instanceof RefGoneError && error.reason === "detached"
    ? registry.get(error.ref)
    : undefined;
  // An element told by its role and name alone (a "Next" in no row, named structure or card)
  // is not searched for: the next step's "Next" would pass for it.
  if (!entry?.context?.text || entry.ref[0] !== "e") throw error;
  const context: [string, string] = [entry.context.kind, entry.context.text];
  const answer = await callUtility(page, entry.frameId, "refFind", [
    entry.role,
    entry.name,
    context,
    registry.lookAlikeRefs(entry).map((e): [number, string] => [e.localId, e.context!.text]),
    entry.liveValues === true,
  ], { signal: options.signal }).catch(() => undefined);
  if (!answer) throw error;
  const found = answer.found;
  // Rendered anew with other prices or amounts (a ticker): told first, nothing done; acting on
  // the ref again takes the row whatever its numbers read (resolve.ts checkLive, the same rule).
  if (!found.length && !entry.liveValues && answer.alike.length === 1) {
    const [kind, text] = answer.alike[0]!;
    entry.liveValues = true;
    throw new RefGoneError(
      entry.ref,
      "changed",
      valuesChanged(entry, entry.context, { kind, text }),
      valuesHint(entry.ref),
    );
  }
  if (found.length !== 1) {
    // The one element of its role and name left, in another row: what changed.
    const [kind, text, id] = answer.near.length === 1 && !found.length ? answer.near[0]! : [];
    // Shown to the agent already (a delta announced it): named, so it need not snapshot.
    const { targetId, frameId, loaderId, instance } = entry;
    const known = id === undefined
      ? undefined
      : registry.lookup({ targetId, frameId, loaderId, instance, localId: id });
    const shownRef = known && registry.get(known)?.shown ? known : undefined;
    throw goneError(
      registry,
      entry,
      found.length,
      kind === undefined ? undefined : {
        kind,
        text: text!,
        ...(shownRef ? { ref: shownRef } : {}),
      },
    );
  }
  const [localId, kind, text] = found[0]!;
  const handle = await callUtilityHandle(page, entry.frameId, "element", [
    localId,
    entry.instance,
  ], { signal: options.signal });
  if (!handle) throw goneError(registry, entry, 0);
  const { targetId, frameId, loaderId, instance } = entry;
  const ref = registry.refFor(
    { targetId, frameId, loaderId, instance, localId },
    entry.role,
    entry.name,
    { context: { kind, text } },
  );
  registry.markShown([ref]);
  registry.noteRenewed([[entry.ref, ref]]);
  const now = registry.get(ref)!;
  // Told its numbers change on their own: so is its re-creation, and the note says what it read.
  if (entry.liveValues) now.liveValues = true;
  const numbers = text !== entry.context.text
    ? ` (shown as ${quote(shownText(entry.context.text))}: its numbers change on their own)`
    : "";
  return {
    handle: withShown(handle, now, registry),
    ref,
    note: `${entry.ref}'s element was re-rendered by the page; acted on the same ${
      describeEntry(now)
    }${numbers}, now ${ref}`,
  };
}
