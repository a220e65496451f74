/**
 * The ActionResult's `element`: what the acted-on element looks like after
 * the action (attached, focused, value, display text).
 *
 * @module
 */
import { isTimeoutError } from "../../cdp/errors.ts";
import { callOnHandle, type RemoteHandle, shownForPage, withSignal } from "../injected/mod.ts";
import type { Page } from "../../cdp/page.ts";
import type { RefRegistry } from "../snapshot/refs.ts";
import { cutClearOfSecrets } from "./secret_query.ts";
import type { ResolvedTarget } from "./target.ts";
import type { ElementProbe } from "./action_result.ts";

/**
 * The ActionResult's `element` for `target` after the action: the page's
 * `elementInfo` (long texts cut here, clear of secrets), or
 * `{ stillAttached: false }` after a full load (the document is new) or when
 * the probe fails (its object or document is gone); `{}` when the page did not answer in time
 * (a busy page: nothing known, the element is not said to be gone); undefined without an
 * element target. `signal` ends the probe (its reason is thrown).
 */
export async function probeAfter(
  target: ResolvedTarget | undefined,
  fullLoad: boolean,
  signal?: AbortSignal,
): Promise<ElementProbe | undefined> {
  if (target?.kind !== "element") return undefined;
  if (fullLoad) return { stillAttached: false };
  return await elementProbe(target, signal).catch((e) => {
    signal?.throwIfAborted();
    return isTimeoutError(e) ? {} : { stillAttached: false };
  });
}

async function elementProbe(
  target: ResolvedTarget & { kind: "element" },
  signal: AbortSignal | undefined,
): Promise<ElementProbe> {
  const { cuts, ...info } = await callOnHandle(withSignal(target.handle, signal), "elementInfo", [
    shownForPage(target.handle),
  ]);
  // Texts the page sent long are cut here, never inside a secret's value.
  for (const [key, max] of Object.entries(cuts ?? {})) {
    if (key === "value" || key === "displayText") {
      const v = info[key];
      if (typeof v === "string") info[key] = cutClearOfSecrets(v, max);
    }
  }
  return info;
}

/**
 * The ref the tab's registry already holds for a selector target's element (the one its
 * snapshots show it with), or undefined: none issued, or the page did not answer. Never
 * issues a ref. CDP: `Runtime.callFunctionOn` (`refFacts`), one round trip.
 */
export async function registeredRef(
  refs: RefRegistry,
  page: Page,
  handle: RemoteHandle,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const facts = await callOnHandle(withSignal(handle, signal), "refFacts").catch(() => null);
  const frame = page.frame(handle.frameId);
  if (!facts || !frame) return undefined;
  return refs.lookup({
    targetId: page.target.targetId,
    frameId: handle.frameId,
    loaderId: frame.loaderId,
    instance: facts.instance,
    localId: facts.localId,
  });
}
