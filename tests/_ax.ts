/**
 * Chromium's accessibility tree as the oracle of snapshot tests: the role and name Chromium
 * gives a ref's element.
 *
 * @module
 */
import type { Page } from "../cdp/page.ts";
import { releaseHandle } from "../browser/injected/mod.ts";
import type { RefRegistry } from "../browser/snapshot/refs.ts";
import { resolveRef } from "../browser/snapshot/resolve.ts";

/** A node of Chromium's tree: role, name (whitespace collapsed), whether it is ignored. */
export interface AxNode {
  role: string;
  name: string;
  ignored: boolean;
}

/** Whitespace collapsed and trimmed. */
export function norm(s: unknown): string {
  return String(s ?? "").replace(/\s+/g, " ").trim();
}

/**
 * Chromium's node of a ref's element. CDP: `DOM.describeNode`,
 * `Accessibility.getPartialAXTree`. Throws when the ref does not resolve.
 */
export async function axOfRef(page: Page, refs: RefRegistry, ref: string): Promise<AxNode> {
  const h = await resolveRef(page, refs, ref);
  try {
    const { node } = await h.session.send("DOM.describeNode", { objectId: h.objectId });
    const { nodes } = await h.session.send("Accessibility.getPartialAXTree", {
      backendNodeId: node.backendNodeId,
      fetchRelatives: false,
    });
    const n = nodes.find((x) => x.backendDOMNodeId === node.backendNodeId) ?? nodes[0]!;
    return { role: String(n.role?.value ?? ""), name: norm(n.name?.value), ignored: n.ignored };
  } finally {
    releaseHandle(h);
  }
}
