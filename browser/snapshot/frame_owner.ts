/**
 * The frame an `<iframe>` element shows, from the element's page-local id in its parent frame
 * (the snapshot, `text_search`, selectors and `find` go down the frames this way).
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { callUtilityHandle, releaseHandle } from "../injected/mod.ts";

/**
 * The frame id of an iframe element, from its page-local id in its parent
 * frame; undefined when the element is gone. CDP: `DOM.describeNode`.
 */
export async function contentFrameId(
  page: Page,
  parentFrameId: string,
  ownerId: number,
): Promise<string | undefined> {
  return (await frameOwner(page, parentFrameId, ownerId))?.frameId;
}

/**
 * {@link contentFrameId}, with the iframe element's attributes (`[name, value, …]`, as
 * `DOM.describeNode` gives them: its title, name, aria-label say what the frame is).
 */
export async function frameOwner(
  page: Page,
  parentFrameId: string,
  ownerId: number,
): Promise<{ frameId: string | undefined; attributes: string[] } | undefined> {
  const handle = await callUtilityHandle(page, parentFrameId, "element", [ownerId]);
  if (!handle) return undefined;
  try {
    const { node } = await handle.session.send("DOM.describeNode", { objectId: handle.objectId });
    return { frameId: node.frameId, attributes: node.attributes ?? [] };
  } finally {
    releaseHandle(handle);
  }
}
