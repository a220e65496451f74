/**
 * Syncs a rich-text editor's own data model through its page API, when the
 * editor is a CKEditor 4, CKEditor 5 or TinyMCE instance: those keep their
 * content in the page's world, where browxai's isolated world cannot see it.
 *
 * The markup handed over must already be sanitized (`formEditorWrite`'s
 * `html`): `setData` / `setContent` parse it in the page, with scripting on.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { RemoteHandle } from "../injected/mod.ts";

/**
 * Page-world function (sent as source, `this` is the editor element): finds
 * the editor instance owning it, writes `html` through the API when given,
 * and makes the instance update the field the form posts. Returns the API's
 * name, or null when no known editor owns the element.
 */
function syncThroughApi(this: Element, html: string | null): Promise<string | null> | null {
  // deno-lint-ignore no-explicit-any
  const w = window as any;
  // Arrow functions below see the editor element as `this`.
  const owns = (node: Element | null | undefined) =>
    !!node && (node === this || node.contains(this));
  const settle = (setData: (done: () => void) => void) =>
    new Promise<void>((resolve) => {
      setTimeout(resolve, 2000); // an editor that never calls back must not hang the call
      setData(resolve);
    });
  const ck4 = w.CKEDITOR?.instances
    ? Object.values(w.CKEDITOR.instances).find((i) =>
      // deno-lint-ignore no-explicit-any
      owns((i as any).container?.$) || owns((i as any).editable?.()?.$)
    )
    : undefined;
  if (ck4) {
    // deno-lint-ignore no-explicit-any
    const i = ck4 as any;
    return (async () => {
      if (html !== null) await settle((done) => i.setData(html, { callback: done }));
      i.updateElement?.();
      return "ckeditor4";
    })();
  }
  // deno-lint-ignore no-explicit-any
  const ck5 = (this as any).ckeditorInstance ??
    // deno-lint-ignore no-explicit-any
    (this.querySelector?.(".ck-editor__editable") as any)
      ?.ckeditorInstance;
  if (ck5) {
    if (html !== null) ck5.setData(html);
    ck5.updateSourceElement?.();
    return Promise.resolve("ckeditor5");
  }
  const mce = w.tinymce;
  const list = mce ? (typeof mce.get === "function" ? mce.get() : mce.editors) : undefined;
  // deno-lint-ignore no-explicit-any
  const ed = Array.isArray(list) ? list.find((e: any) => owns(e.getContainer?.())) : undefined;
  if (ed) {
    if (html !== null) ed.setContent(html);
    ed.save?.();
    return Promise.resolve("tinymce");
  }
  return null;
}

/**
 * Runs {@link syncThroughApi} on the editor element in the page's own world.
 * Best effort: an editor without a known API, or a page that throws, gives null (so does
 * an abort of the handle's `signal`).
 * CDP: `DOM.describeNode`, `DOM.resolveNode` (into the main world), `Runtime.callFunctionOn`.
 */
export async function syncEditorApi(
  page: Page,
  editor: RemoteHandle,
  html: string | null,
): Promise<string | null> {
  const contextId = page.mainContext(editor.frameId);
  if (contextId === undefined) return null;
  try {
    const { node } = await editor.session.send("DOM.describeNode", { objectId: editor.objectId });
    const { object } = await editor.session.send("DOM.resolveNode", {
      backendNodeId: node.backendNodeId,
      executionContextId: contextId,
    });
    if (!object.objectId) return null;
    try {
      const r = await editor.session.send("Runtime.callFunctionOn", {
        functionDeclaration: syncThroughApi.toString(),
        objectId: object.objectId,
        arguments: [{ value: html }],
        returnByValue: true,
        awaitPromise: true,
      }, { signal: editor.signal });
      return r.exceptionDetails ? null : (r.result.value as string | null) ?? null;
    } finally {
      editor.session.send("Runtime.releaseObject", { objectId: object.objectId }).catch(() => {});
    }
  } catch {
    return null;
  }
}
