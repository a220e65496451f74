/// <reference lib="dom" />
/**
 * Page-side part for the secrets policy. The page never gets a secret's
 * value from these (only `fill` puts values into pages): the page hands the
 * server raw text, the server finds values in it, and tells the page which
 * nodes to treat as secret by index.
 *
 * - `text=` selectors under masking: `queryMatches` (text_lib.ts) gives each
 *   innermost match's text, `queryAt` the match the server judged free of secrets.
 * - `rawText`: the page's shown text as is (wait_for matches it masked).
 * - `frameOrigin`, `focusedOrigin`: where a fill lands (origin-bound secrets).
 * - `holdSecret`: a field a secret was filled into shows no part of it after edits.
 * - Screenshot covering lives in `cover_lib.ts`.
 *
 * Self-contained (its source is sent to the page): see `mod.ts`.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";

/** Adds the secrets methods to the page-side api (needs the text part's `shownText`). */
export function installSecretLib(api: PageApi): void {
  const { localOf, shadowRootOf, textContentOf, containsOf, qsaOf, attrsOf, docOf } = api.dom;
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
      for (const el of qsaOf(root, "*")) {
        if (cut) return;
        for (const a of attrsOf(el)) {
          if (!a.value || !wanted.has(lower(a.localName)) || seen.has(a.value)) continue;
          chars += a.value.length;
          if (seen.size >= 20000 || chars > 2_000_000) {
            cut = true;
            return;
          }
          seen.add(a.value);
        }
        const sr = shadowRootOf(el);
        if (sr) walk(sr);
      }
    };
    walk(document);
    return { values: [...seen], cut };
  };
  // Fields a secret was filled into → the exact values they may show (aria_lib.ts reads it
  // in `isSecret`). On the world's global: a re-install of the library keeps it.
  const heldWorld = globalThis as unknown as {
    __browxaiHeld?: WeakMap<Element, Set<string>>;
    __browxaiHeldGuard?: boolean;
  };
  const held = heldWorld.__browxaiHeld ??= new WeakMap();
  /** Whether `n` is in an element a secret was filled into (or is one). */
  const inHeld = (n: Node | null): boolean => {
    for (let e = n instanceof Element ? n : n?.parentElement ?? null; e; e = api.flatParent(e)) {
      if (held.has(e)) return true;
    }
    return false;
  };
  /**
   * Holds `el` as a field a secret was filled into: from now on, for its life, it shows only
   * one of `shown` (what this fill puts in, which the server masks); any other value (what
   * is left after keys, a cut, an undo) is treated as a secret field's (`isSecret`). Its
   * text cannot be copied, cut or dragged out either (the default actions are prevented in
   * this frame). Returns true.
   */
  api.holdSecret = (el: Element, shown: string[]): boolean => {
    held.set(el, new Set(shown));
    if (!heldWorld.__browxaiHeldGuard) {
      heldWorld.__browxaiHeldGuard = true;
      // Capture on the window, from this world: a page's listener cannot undo a prevented default.
      for (const type of ["copy", "cut", "dragstart"]) {
        addEventListener(type, (e) => {
          const sel = getSelection();
          if (inHeld(e.target as Node) || (sel && !sel.isCollapsed && inHeld(sel.anchorNode))) {
            e.preventDefault();
          }
        }, true);
      }
    }
    return true;
  };
  /**
   * Whether a field in this document was ever filled with a secret ({@link holdSecret}): an
   * undo anywhere in the frame may then reach its typing.
   */
  api.anyHeld = (): boolean => heldWorld.__browxaiHeldGuard === true;
  /**
   * {@link holdSecret} on the element that has focus in this document (typed into with no
   * target); false when focus is inside a frame (the field cannot be held from here), true
   * when it is held or nothing has focus.
   */
  api.holdFocusedSecret = (shown: string[]): boolean => {
    let a = document.activeElement;
    while (a && shadowRootOf(a)?.activeElement) a = shadowRootOf(a)!.activeElement;
    if (a instanceof HTMLIFrameElement || a instanceof HTMLFrameElement) return false;
    if (!a || a === document.body || a === document.documentElement) return true;
    return api.holdSecret(a, shown) as boolean;
  };
  /**
   * Whether the element that has focus in this document is (or is in) a field a secret was
   * filled into: `"input"` for an `<input>` (Enter submits it), `"other"` (a textarea, an
   * editor: Enter edits), null when not.
   */
  api.focusHeld = (): "input" | "other" | null => {
    let a = document.activeElement;
    while (a && shadowRootOf(a)?.activeElement) a = shadowRootOf(a)!.activeElement;
    if (!inHeld(a)) return null;
    return a && localOf(a) === "input" ? "input" : "other";
  };
  /**
   * The value of the element that has focus in this document when it is a text field (an
   * `<input>`, a `<textarea>`, an editing host's text), else null: the server looks in it for
   * a registered secret that the browser put back (a history return restores form state into
   * the new document, where nothing is held yet: red team s15 #5).
   */
  api.focusedValue = (): string | null => {
    let a = document.activeElement;
    while (a && shadowRootOf(a)?.activeElement) a = shadowRootOf(a)!.activeElement;
    if (a instanceof HTMLInputElement || a instanceof HTMLTextAreaElement) return a.value;
    if (a instanceof HTMLElement && a.isContentEditable) return textContentOf(a) ?? "";
    return null;
  };
  /** This document's text fields (open shadow roots too), in tree order, at most 2,000. */
  const textFields = (): Array<HTMLInputElement | HTMLTextAreaElement> => {
    const out: Array<HTMLInputElement | HTMLTextAreaElement> = [];
    const walk = (root: Document | ShadowRoot) => {
      for (const el of qsaOf(root, "*")) {
        if (out.length >= 2000) return;
        if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) out.push(el);
        const sr = shadowRootOf(el);
        if (sr) walk(sr);
      }
    };
    walk(document);
    return out;
  };
  /**
   * The values of this document's text fields not held ("" for a held one; at most 200,000
   * characters in all, "" past that): the server looks in them for a registered secret the
   * browser put back (form state restored into a new document by a history return).
   */
  api.fieldValues = (): string[] => {
    let chars = 0;
    return textFields().map((el) => {
      if (held.has(el) || (chars += el.value.length) > 200_000) return "";
      return el.value;
    });
  };
  /** {@link holdSecret} on the text fields at `indexes` of `fieldValues`, each showing its value. */
  api.holdFields = (indexes: number[]): boolean => {
    const fields = textFields();
    for (const i of indexes) if (fields[i]) api.holdSecret(fields[i], [fields[i].value]);
    return true;
  };
  /** Whether `el` was filled with a secret and shows anything but what that fill put in. */
  api.heldEdited = (el: Element): boolean => {
    const shown = held.get(el);
    if (!shown) return false;
    const v = /^(input|textarea|select)$/.test(localOf(el))
      ? (el as HTMLInputElement).value
      : textContentOf(el) ?? "";
    return v !== "" && !shown.has(v);
  };

  /** The page's shown text, raw (the text model of text_lib.ts, not normalized). */
  api.rawText = () => (api.shownText as () => string)();

  /**
   * Whether `el` (a field) still has focus: its frame is in the focus chain
   * and its active element is `el`, inside it or its editing host (not a
   * frame element: focus went into another frame; not the body: nothing).
   */
  api.focusIsOn = (el: Element): boolean => {
    const doc = docOf(el)!;
    if (!doc.hasFocus()) return false;
    let a = doc.activeElement;
    while (a && shadowRootOf(a)?.activeElement) a = shadowRootOf(a)!.activeElement;
    if (!a || a === doc.body || a === doc.documentElement) return false;
    if (a instanceof HTMLIFrameElement || a instanceof HTMLFrameElement) return false;
    return a === el || containsOf(a, el) || containsOf(el, a);
  };
  /**
   * What a copy shortcut would take, for the server to look for secrets in: the focused
   * field's value (or editable element's text), the selection's text, and the whole text
   * nodes it starts and ends in (a selection of part of a value).
   */
  api.copySource = (): { texts: string[]; held: boolean } => {
    const out: string[] = [];
    let a = document.activeElement;
    while (a && shadowRootOf(a)?.activeElement) a = shadowRootOf(a)!.activeElement;
    const sel = document.getSelection();
    // A field a secret was filled into: whatever it holds now may be part of the value.
    if (inHeld(a) || (sel && !sel.isCollapsed && inHeld(sel.anchorNode))) {
      return { texts: [], held: true };
    }
    if (a instanceof HTMLInputElement || a instanceof HTMLTextAreaElement) out.push(a.value);
    else if (a instanceof HTMLElement && a.isContentEditable) out.push(textContentOf(a) ?? "");
    if (sel && !sel.isCollapsed) {
      out.push(sel.toString());
      for (const n of [sel.anchorNode, sel.focusNode]) if (n instanceof Text) out.push(n.data);
    }
    return { texts: out, held: false };
  };
  /** `window.origin` of the element's frame ("null" when opaque). */
  api.frameOrigin = (el: Element) => docOf(el)?.defaultView?.origin ?? "null";
  /**
   * `window.origin` of the frame whose element has focus, following
   * same-origin iframes; null when focus is inside a frame this world cannot
   * see into (cross-origin).
   */
  api.focusedOrigin = (): string | null => {
    let doc: Document = document;
    for (;;) {
      let el = doc.activeElement;
      while (el && shadowRootOf(el)?.activeElement) el = shadowRootOf(el)!.activeElement;
      if (!(el instanceof HTMLIFrameElement || el instanceof HTMLFrameElement)) {
        return doc.defaultView?.origin ?? "null";
      }
      const inner = el.contentDocument;
      if (!inner) return null;
      doc = inner;
    }
  };
}
