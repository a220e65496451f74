/**
 * Closed shadow roots for the snapshot: browxai's utility world cannot read
 * into `attachShadow({ mode: "closed" })` (`shadowRoot` is null), but CDP
 * can. The walker lists the elements it met that may hold one (see below), not
 * checked yet (`hosts`); each is described with CDP, and a closed root
 * found is resolved into the frame's utility world and handed to the
 * page-side table (`addClosedRoot`), which every walk then reads
 * (`shadowOf`): the snapshot shows the content, its refs act like any other,
 * and `text=`/CSS selectors see it. Hosts checked once are not listed again,
 * so a page without closed roots pays this once per custom element.
 *
 * Which hosts are listed (`hostUnchecked` of `mutation_lib.ts`): every defined
 * custom element, once (again after an upgrade); an undefined custom element or
 * an empty built-in host (`div`, `span`, …) only while it draws something and
 * its light children nothing, as a root without a slot for them does (a
 * script may attach one to such an element at any time; checking every
 * undefined framework tag would cost a CDP call each). Limit: a root attached
 * after its element was checked, or to a built-in element with children, stays
 * unread.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { callUtility, callUtilityHandle, releaseHandle } from "../injected/mod.ts";
import type { PageMethod } from "../injected/page_api_views.ts";

/**
 * Checks the hosts `ids` (page-local ids of `frameId`'s document) for closed
 * shadow roots, hands every one found to the page, marks all as checked, and
 * returns how many roots were handed over. CDP: `Runtime.evaluate`
 * (`element`), `DOM.describeNode` (a host's `shadowRoots` with their type),
 * `DOM.resolveNode` into the utility context, `Runtime.callFunctionOn`.
 *
 * @throws the CDP error of the frame's page calls (the caller goes on without closed roots).
 */
export async function handOverClosedHosts(
  page: Page,
  frameId: string,
  ids: number[],
  signal?: AbortSignal,
): Promise<number> {
  const { session, contextId } = await page.utilityContext(frameId);
  const call = { signal };
  const found = await Promise.all(ids.map(async (id) => {
    const handle = await callUtilityHandle(page, frameId, "element", [id], call);
    if (!handle) return false;
    let objectId: string | undefined;
    try {
      const { node } = await session.send("DOM.describeNode", { objectId: handle.objectId }, call);
      const root = node.shadowRoots?.find((r) => r.shadowRootType === "closed");
      if (!root) return false;
      const { object } = await session.send("DOM.resolveNode", {
        backendNodeId: root.backendNodeId,
        executionContextId: contextId,
      }, call);
      objectId = object.objectId;
      if (!objectId) return false;
      const r = await session.send("Runtime.callFunctionOn", {
        // The name is checked against the page api (this call passes a shadow root, not an element).
        functionDeclaration:
          `function() { return globalThis.__browxai.${"addClosedRoot" satisfies PageMethod}(this); }`,
        objectId,
        returnByValue: true,
      }, call);
      return !r.exceptionDetails && r.result.value === true;
    } finally {
      releaseHandle(handle);
      if (objectId) session.send("Runtime.releaseObject", { objectId }).catch(() => {});
    }
  }));
  await callUtility(page, frameId, "hostsChecked", [ids], call);
  return found.filter(Boolean).length;
}
