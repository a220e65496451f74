/**
 * The hint a search that found nothing gives on a page with inner scroll boxes (a virtual
 * list renders only the rows in view: the rest is in no element, so no search can find it).
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { callUtility } from "../injected/mod.ts";
import type { RefRegistry } from "./refs.ts";

/** Scroll boxes named at most. */
const MAX_BOXES = 3;

/**
 * A hint naming the main frame's scroll boxes that hide content, each with a ref to scroll it
 * by (issued in `registry`): `list "Destinations" [e14] (scroll: <1% shown, more below) may
 * hold more not rendered yet: scroll it, then search again`; undefined when there is none, or
 * when the page could not be asked (a hint is no reason to fail a search).
 *
 * CDP: `Runtime.evaluate` in the main frame's utility world (`scrollBoxes`).
 */
export async function scrollBoxHint(
  page: Page,
  registry: RefRegistry,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const frameId = page.mainFrameId;
  let got;
  try {
    got = await callUtility(page, frameId, "scrollBoxes", [MAX_BOXES], { signal });
  } catch {
    signal?.throwIfAborted();
    return undefined;
  }
  if (!got.boxes.length) return undefined;
  const loaderId = page.frame(frameId)?.loaderId ?? "";
  const named = got.boxes.map((b) => {
    const target = {
      targetId: page.target.targetId,
      frameId,
      loaderId,
      instance: got.instance,
      localId: b.localId,
    };
    const context = { kind: b.context[0], text: b.context[1] };
    const ref = registry.refFor(target, b.role, b.name, { context });
    // The hint hands the ref to the agent: usable as any shown ref (no snapshot may come first).
    registry.markShown([ref]);
    const name = b.name ? ` "${b.name.length > 60 ? b.name.slice(0, 59) + "…" : b.name}"` : "";
    return `${b.role}${name} [${ref}] (${b.mark})`;
  });
  return `${named.join(", ")} may hold more not rendered yet: scroll ${
    named.length > 1 ? "them" : "it"
  }, then search again`;
}
