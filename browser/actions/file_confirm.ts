/**
 * What a human approving a file hook (`file_upload`, `file_download`) is told, held to after
 * the yes (red team s14 #6): the page (its URL and main document, by loader), the element the
 * call acts on (described, and its DOM node) and, for a link, where it points. A page that
 * navigates while the person reads (an upload then lands in another page's input), swaps the
 * element (another input takes the selector's id) or rewrites the link (`evil.exe`) fails the
 * call with nothing done (`page-changed`).
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import { callOnHandle, releaseHandle } from "../injected/mod.ts";
import { targetHandle } from "./action_start.ts";
import type { TargetSpec } from "./target.ts";
import { changedWhileAsked } from "./send_facts.ts";
import type { CallContext } from "../call_context.ts";
import type { ConfirmOutcome } from "../../policy/confirm.ts";

/** The page and element a file question describes. */
export interface FileFacts {
  /** The main frame's URL. */
  url: string;
  /** The main document's loader (CDP `loaderId`). */
  loader: string;
  /** The element, described (`input#f "CV"`), when the call names one that is there. */
  element?: string;
  /** Its DOM node (CDP `backendNodeId`): another element with the same description differs. */
  node?: number;
  /** A link's `href`, resolved against the page (what a click downloads). */
  href?: string;
}

/**
 * Reads the facts of the active tab and of the element `spec` names (in the main frame).
 * CDP: as `resolveTarget`; `DOM.describeNode`; `Runtime.callFunctionOn` (`describeElement`).
 */
export async function fileFacts(
  session: BrowserSession,
  page: Page,
  spec: TargetSpec | undefined,
  signal?: AbortSignal,
): Promise<FileFacts> {
  const handle = spec ? await targetHandle(session, page, spec, signal) : undefined;
  const facts: FileFacts = { url: page.url, loader: page.frame(page.mainFrameId)?.loaderId ?? "" };
  if (!handle) return facts;
  try {
    const [{ node }, element] = await Promise.all([
      handle.session.send("DOM.describeNode", { objectId: handle.objectId }),
      callOnHandle(handle, "describeElement"),
    ]);
    const attrs = node.attributes ?? [];
    const at = attrs.findIndex((a, i) => i % 2 === 0 && a.toLowerCase() === "href");
    const href = at < 0 ? undefined : URL.parse(attrs[at + 1]!, page.url)?.href;
    return { ...facts, element, node: node.backendNodeId, ...(href ? { href } : {}) };
  } catch {
    return facts;
  } finally {
    releaseHandle(handle);
  }
}

/** The element and page in words, for the question: `input#f "CV" on https://host/apply`. */
export function fileTarget(facts: FileFacts): string {
  const link = facts.href ? ` (a link to ${facts.href})` : "";
  return `${facts.element ? `${facts.element}${link} on ` : ""}${facts.url}`;
}

/** What changed between the facts asked about and now, as phrases; empty when nothing. */
export function fileChanges(was: FileFacts, now: FileFacts): string[] {
  if (was.loader !== now.loader || was.url !== now.url) {
    return [`the tab shows another document (was ${was.url}, now ${now.url})`];
  }
  if (was.node === undefined) return [];
  if (now.node === undefined) return [`the element (${was.element}) is gone`];
  if (now.node !== was.node) {
    return [`the call now names another element (${now.element}, was ${was.element})`];
  }
  if (now.href !== was.href) return [`the link points to ${now.href}, was ${was.href}`];
  return [];
}

/**
 * Asks a file hook about the element `spec` names on the active tab: `ask` gets the element
 * and page in words (undefined when the hook is not configured: nothing is read). After a
 * person's yes the facts are read again, and a change fails the call with nothing done.
 *
 * @throws ToolError what `ask` throws (`blocked-by-policy`); `page-changed` when the page
 *   changed while the person read.
 */
export async function confirmOnTarget(
  ctx: CallContext,
  session: BrowserSession,
  options: {
    hook: "file_upload" | "file_download";
    spec: TargetSpec | undefined;
    ask: (on: string | undefined) => Promise<ConfirmOutcome>;
  },
): Promise<void> {
  const page = session.activePage;
  if (!page || !ctx.config.confirmRequired.has(options.hook)) {
    await options.ask(undefined);
    return;
  }
  const was = await fileFacts(session, page, options.spec, ctx.signal);
  const outcome = await options.ask(fileTarget(was));
  if (outcome.decision !== "approved") return;
  const changes = fileChanges(was, await fileFacts(session, page, options.spec, ctx.signal));
  if (changes.length) throw changedWhileAsked(options.hook, changes);
}
