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
 * - Screenshot covering: `coverScan` lists text nodes and control values
 *   (closed shadow roots included, handed over by `coverAddRoot`),
 *   `coverApply` paints opaque boxes over the chosen ones (inline styles,
 *   layout unchanged), `coverRemove` restores them.
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
   * Every distinct value of the named attributes (`names` ASCII-lower-cased;
   * an attribute matches when its local name, ASCII-lower-cased, is one of
   * them) in the document, open shadow roots included: the server looks for
   * secrets in them before running a selector that tests them. Bounded (at
   * most 20000 values, 2,000,000 characters in all); `cut` says the bound was
   * hit and the list is not complete (the server then refuses: it cannot
   * verify).
   */
  api.attrValues = (names: string[]): { values: string[]; cut: boolean } => {
    const wanted = new Set(names);
    const seen = new Set<string>();
    let chars = 0;
    let cut = false;
    const lower = (s: string) => s.replace(/[A-Z]+/g, (c) => c.toLowerCase());
    const walk = (root: Document | ShadowRoot) => {
      for (const el of root.querySelectorAll("*")) {
        if (cut) return;
        for (const a of el.attributes) {
          if (!a.value || !wanted.has(lower(a.localName)) || seen.has(a.value)) continue;
          chars += a.value.length;
          if (seen.size >= 20000 || chars > 2_000_000) {
            cut = true;
            return;
          }
          seen.add(a.value);
        }
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document);
    return { values: [...seen], cut };
  };
  /** The page's visible text as shown (not normalized). */
  api.rawText = () => document.body?.innerText ?? "";

  /**
   * Whether `el` (a field) still has focus: its frame is in the focus chain
   * and its active element is `el`, inside it or its editing host (not a
   * frame element: focus went into another frame; not the body: nothing).
   */
  api.focusIsOn = (el: Element): boolean => {
    const doc = el.ownerDocument;
    if (!doc.hasFocus()) return false;
    let a = doc.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    if (!a || a === doc.body || a === doc.documentElement) return false;
    if (a instanceof HTMLIFrameElement || a instanceof HTMLFrameElement) return false;
    return a === el || a.contains(el) || el.contains(a);
  };
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

  let scanned: { texts: Text[]; controls: Element[] } | undefined;
  const covered = new Map<HTMLElement | SVGElement, string | null>();
  const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "TITLE"]);

  /** Closed shadow roots of this document, found by the server with `DOM.getDocument`. */
  let closedRoots: ShadowRoot[] = [];
  /** Forgets the closed roots handed over before (a new screenshot lists them again). */
  api.coverResetRoots = () => {
    closedRoots = [];
    return true;
  };
  /** Adds a closed shadow root (called on the root itself) for {@link coverScan} to walk. */
  api.coverAddRoot = (root: ShadowRoot) => {
    if (root instanceof ShadowRoot) closedRoots.push(root);
    return true;
  };

  /**
   * Lists the document's text nodes (open shadow roots included) and, per
   * text control or select, the strings it shows (value, placeholder,
   * options' text), for the server to look for secrets in.
   */
  api.coverScan = () => {
    const texts: Text[] = [];
    const controls: Element[] = [];
    const walk = (root: Document | ShadowRoot) => {
      const w = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let n = w.nextNode(); n; n = w.nextNode()) {
        if (n instanceof Text) {
          if (n.parentElement && !SKIP.has(n.parentElement.tagName)) texts.push(n);
          continue;
        }
        const el = n as Element;
        if (
          el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ||
          el instanceof HTMLSelectElement
        ) controls.push(el);
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document);
    // Closed shadow roots this world cannot reach: the server hands them over (`coverAddRoot`).
    for (const root of closedRoots) if (root.isConnected) walk(root);
    scanned = { texts, controls };
    return {
      texts: texts.map((t) => t.data),
      // What each control shows: its value and placeholder; a select its options' text
      // (a dropdown shows the chosen one, a list box several).
      values: controls.map((c) =>
        c instanceof HTMLSelectElement
          ? [...c.options].map((o) => o.text)
          : [(c as HTMLInputElement).value ?? "", (c as HTMLInputElement).placeholder ?? ""]
      ),
    };
  };

  /** Text nodes wrapped in a span for covering (their parent was the body): span → node. */
  const wrapped = new Map<HTMLElement, Text>();

  /**
   * Paints an opaque `color` box over the parent element of each listed
   * text node and over each listed control (background, transparent text,
   * as inline `!important` styles: layout does not move). A text node right
   * under `<body>`/`<html>` is wrapped in a span first (a body background
   * would paint the whole canvas); SVG text is made transparent (SVG has no
   * background). Returns how many elements it covered.
   */
  api.coverApply = (textIdx: number[], controlIdx: number[], color: string) => {
    if (!scanned) return 0;
    const els: Array<Element | null | undefined> = controlIdx.map((i) => scanned!.controls[i]);
    for (const i of textIdx) {
      const node = scanned.texts[i];
      const parent = node?.parentElement;
      if (node && parent && (parent === document.body || parent === document.documentElement)) {
        const span = document.createElement("span");
        node.replaceWith(span);
        span.append(node);
        wrapped.set(span, node);
        els.push(span);
      } else els.push(parent);
    }
    for (const el of els) {
      if (!(el instanceof HTMLElement || el instanceof SVGElement) || covered.has(el)) continue;
      covered.set(el, el.getAttribute("style"));
      const svg = el instanceof SVGElement;
      for (
        const [k, v] of [
          ["background", svg ? "" : color],
          ["color", "transparent"],
          ["-webkit-text-fill-color", "transparent"],
          ["fill", svg ? "transparent" : ""],
          ["stroke", svg ? "transparent" : ""],
          ["text-shadow", "none"],
          ["caret-color", "transparent"],
          ["-webkit-text-stroke-width", "0"],
          ["opacity", "1"],
          ["filter", "none"],
        ]
      ) if (v) el.style.setProperty(k!, v!, "important");
    }
    return covered.size;
  };

  /** Restores every element {@link coverApply} covered. */
  api.coverRemove = () => {
    for (const [el, style] of covered) {
      // Read first: Chromium writes CSSOM changes to the attribute lazily, and a pending
      // write would otherwise land after the removal (leaving style="").
      el.getAttribute("style");
      if (style === null) el.removeAttribute("style");
      else el.setAttribute("style", style);
    }
    covered.clear();
    for (const [span, node] of wrapped) if (span.isConnected) span.replaceWith(node);
    wrapped.clear();
    scanned = undefined;
    closedRoots = [];
    return true;
  };
}
