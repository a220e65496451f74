/// <reference lib="dom" />
/**
 * Page-side part for the secrets policy. The page never gets a secret's
 * value from these (only `fill` puts values into pages): the page hands the
 * server raw text, the server finds values in it, and tells the page which
 * nodes to treat as secret by index.
 *
 * - `text=` selectors under masking: `queryTexts` gives each innermost match's
 *   text, `queryAt` the match the server judged free of secrets.
 * - `rawText`: the page's visible text as is (wait_for matches it masked).
 * - `frameOrigin`, `focusedOrigin`: where a fill lands (origin-bound secrets).
 * - Screenshot covering lives in `cover_lib.ts`.
 *
 * Self-contained (its source is sent to the page): see `mod.ts`.
 *
 * @module
 */

/** Adds the secrets methods to the page-side api (needs the action part's `queryAll`). */
export function installSecretLib(api: Record<string, unknown>): void {
  const queryAll = (s: string) => (api.queryAll as (s: string) => Element[])(s);
  const textOf = (el: Element) => (el as HTMLElement).innerText ?? el.textContent ?? "";
  let lastTexts: { selector: string; all: Element[] } | undefined;

  /** The innermost matches' texts (as shown, not normalized), in document order. */
  api.queryTexts = (selector: string): string[] => {
    const all = queryAll(selector);
    lastTexts = { selector, all };
    return all.map(textOf);
  };
  /**
   * The `index`-th match of the last `queryTexts`, if its text is still
   * `expected` (the server judged that text); else null (the page changed:
   * query again).
   */
  api.queryAt = (selector: string, index: number, expected: string) => {
    const el = lastTexts?.selector === selector ? lastTexts.all[index] : undefined;
    return el && el.isConnected && textOf(el) === expected ? el : null;
  };
  /**
   * Every value of the named attributes in the document (open shadow roots
   * included), each cut at 4096 characters, at most 5000 values: the server
   * looks for secrets in them before running a selector that tests them.
   */
  api.attrValues = (names: string[]): string[] => {
    const out: string[] = [];
    const walk = (root: Document | ShadowRoot) => {
      for (const el of root.querySelectorAll("*")) {
        if (out.length >= 5000) return;
        for (const n of names) {
          const v = el.getAttribute(n);
          if (v) out.push(v.slice(0, 4096));
        }
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document);
    return out;
  };
  /** The page's visible text as shown (not normalized). */
  api.rawText = () => document.body?.innerText ?? "";

  /** `window.origin` of the element's frame ("null" when opaque). */
  api.frameOrigin = (el: Element) => el.ownerDocument.defaultView?.origin ?? "null";
  /**
   * `window.origin` of the frame whose element has focus, following
   * same-origin iframes; null when focus is inside a frame this world cannot
   * see into (cross-origin).
   */
  api.focusedOrigin = (): string | null => {
    let doc: Document = document;
    for (;;) {
      let el = doc.activeElement;
      while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
      if (!(el instanceof HTMLIFrameElement || el instanceof HTMLFrameElement)) {
        return doc.defaultView?.origin ?? "null";
      }
      const inner = el.contentDocument;
      if (!inner) return null;
      doc = inner;
    }
  };
}
