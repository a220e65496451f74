/**
 * Closed shadow roots for screenshot covering: page scripts (and browxai's
 * utility world) cannot reach into `attachShadow({ mode: "closed" })`, so
 * a secret shown there would escape `coverScan`. CDP can: the DOM tree with
 * `pierce` lists every shadow root with its type, and each closed one is
 * resolved into the frame's utility world and handed to the page-side
 * library (`coverAddRoot`).
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { callUtility } from "../injected/mod.ts";
import type { PageMethod } from "../injected/page_api_views.ts";

interface DomNode {
  backendNodeId: number;
  children?: DomNode[];
  shadowRoots?: DomNode[];
  shadowRootType?: string;
  contentDocument?: DomNode;
  templateContent?: DomNode;
}

/** Backend node ids of every closed shadow root in `node`'s tree (frames included). */
function closedIn(node: DomNode, out: number[]): number[] {
  for (const root of node.shadowRoots ?? []) {
    if (root.shadowRootType === "closed") out.push(root.backendNodeId);
    closedIn(root, out);
  }
  for (const child of node.children ?? []) closedIn(child, out);
  if (node.contentDocument) closedIn(node.contentDocument, out);
  return out;
}

/**
 * Hands the closed shadow roots of `frameId`'s document to its utility
 * world's library, and returns how many. CDP: `DOM.getDocument`
 * (`depth: -1, pierce: true`, once per target session: `trees` caches it),
 * `DOM.resolveNode` into the frame's utility context (a root of another
 * frame fails to resolve there and is skipped), `Runtime.callFunctionOn`.
 *
 * @throws the CDP error of `DOM.getDocument` (the caller fails closed).
 */
export async function handOverClosedRoots(
  page: Page,
  frameId: string,
  trees: Map<unknown, Promise<number[]>>,
): Promise<number> {
  await callUtility(page, frameId, "coverResetRoots");
  const { session, contextId } = await page.utilityContext(frameId);
  let ids = trees.get(session);
  if (!ids) {
    ids = session.send("DOM.getDocument", { depth: -1, pierce: true })
      .then(({ root }) => closedIn(root as DomNode, []));
    trees.set(session, ids);
  }
  let handed = 0;
  for (const backendNodeId of await ids) {
    const object = await session.send("DOM.resolveNode", {
      backendNodeId,
      executionContextId: contextId,
    }).then((r) => r.object).catch(() => undefined);
    if (!object?.objectId) continue;
    try {
      const r = await session.send("Runtime.callFunctionOn", {
        // The name is checked against the page api (this call passes a shadow root, not an element).
        functionDeclaration:
          `function() { return globalThis.__browxai.${"coverAddRoot" satisfies PageMethod}(this); }`,
        objectId: object.objectId,
        returnByValue: true,
      });
      if (!r.exceptionDetails) handed++;
    } finally {
      session.send("Runtime.releaseObject", { objectId: object.objectId }).catch(() => {});
    }
  }
  return handed;
}
