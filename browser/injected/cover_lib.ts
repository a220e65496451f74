/// <reference lib="dom" />
/**
 * Page-side part of screenshot covering. The page never gets a secret's
 * value: `coverScan` hands the server the frame's text nodes and what each
 * control or image shows, the server finds the values and names the ones to
 * cover by index.
 *
 * Covering draws opaque boxes ON TOP of the page instead of restyling its
 * elements (a page's CSS transitions animated restyles back into view, and
 * `::selection`, `::placeholder` or alt text kept their own colours): one
 * overlay element browxai owns, its boxes in a closed shadow root, shown as a
 * manual popover so it sits in the top layer (above modal dialogs and the
 * page's popovers opened before it) with inline `!important` styles (no
 * transition, no animation, no pointer events). Boxes are placed relative to
 * the overlay's own position, so they line up in viewport and full-page
 * captures alike. `coverCheck` tells whether every box a secret needs now is
 * still inside a drawn one (the page may have moved or re-rendered it).
 *
 * The boxes hide a secret where its text is laid out, not copies the page paints
 * elsewhere (`filter: drop-shadow`, `-webkit-box-reflect`, `text-shadow`, an
 * ancestor's filter): while the boxes are drawn, each element showing a secret is
 * shielded (`shield`): no filter, reflection or text shadow, a field's value drawn as
 * discs (`-webkit-text-security`: so no copy of it shows letters), and ancestors with a
 * filter or reflection lose it; inline `!important` styles, restored exactly (the `style`
 * attribute as it was) when the boxes go. Text outside fields keeps its glyphs (discs are
 * another width: the page would reflow). Transitions are left alone (cutting one short
 * would change the page): a filter the page transitions may still draw its copy (a
 * field's of discs), and so may a `::first-line` text shadow (no inline style reaches it).
 *
 * Self-contained (its source is sent to the page): see `mod.ts`.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";

/** Adds the covering methods to the page-side api. */
export function installCoverLib(api: PageApi): void {
  const { attrOf, matchesOf, parentElOf, parentOf, shadowRootOf, slotOf, tagNameOf } = api.dom;
  type Box = { x: number; y: number; w: number; h: number };
  let scanned: { texts: Text[]; controls: Element[] } | undefined;
  let overlay: HTMLElement | undefined;
  let drawn: Box[] = [];
  /** Whether the overlay was shown as a popover (then it must still be open). */
  let inTopLayer = false;
  const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "TITLE"]);

  /** Closed shadow roots of this document, found by the server with `DOM.getDocument`. */
  let closedRoots: ShadowRoot[] = [];
  /** Forgets the closed roots handed over before (each scan lists them again). */
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
   * Lists the document's text nodes (open and handed-over closed shadow roots
   * included) and, per text control, select or image, the strings it shows
   * (value, placeholder, alt; a select its options' text; an image its alt,
   * drawn when it fails to load), for the server to look for secrets in; and `held`, those
   * (by index) in or of a field a secret was filled into and edited since (`heldEdited`).
   */
  api.coverScan = () => {
    const texts: Text[] = [];
    const controls: Element[] = [];
    const walk = (root: Document | ShadowRoot) => {
      const w = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let n = w.nextNode(); n; n = w.nextNode()) {
        if (n instanceof Text) {
          const up = parentElOf(n);
          if (up && !SKIP.has(tagNameOf(up))) texts.push(n);
          continue;
        }
        const el = n as Element;
        if (
          el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ||
          el instanceof HTMLSelectElement || el instanceof HTMLImageElement
        ) controls.push(el);
        const sr = shadowRootOf(el);
        if (sr) walk(sr);
      }
    };
    walk(document);
    for (const root of closedRoots) if (root.isConnected) walk(root);
    scanned = { texts, controls };
    // Fields a secret was filled into, edited since: what they show may be part of it.
    const heldEdited = api.heldEdited as (el: Element) => boolean;
    const heldIn = (el: Element | null): boolean => {
      for (let e = el; e; e = parentElOf(e)) if (heldEdited(e)) return true;
      return false;
    };
    const heldTexts = texts.flatMap((t, i) => heldIn(parentElOf(t)) ? [i] : []);
    return {
      held: {
        texts: heldTexts,
        values: controls.flatMap((c, i) => heldEdited(c) ? [i] : []),
      },
      texts: texts.map((t) => t.data),
      values: controls.map((c) =>
        c instanceof HTMLSelectElement
          ? [...c.options].map((o) => o.text)
          : c instanceof HTMLImageElement
          ? [c.alt ?? ""]
          : [
            (c as HTMLInputElement).value ?? "",
            (c as HTMLInputElement).placeholder ?? "",
            attrOf(c, "alt") ?? "",
          ]
      ),
    };
  };

  /** Elements restyled by {@link shield} → their `style` attribute before (null: none). */
  let shielded = new Map<Element, string | null>();
  /** What an element showing a secret as text gets while the boxes are drawn. */
  const TEXT: Record<string, string> = {
    "text-shadow": "none",
    "filter": "none",
    // Chromium does not parse `none` here (its initial value): `initial` is.
    "-webkit-box-reflect": "initial",
  };
  /**
   * What a field showing one gets: its value drawn as discs too (a field's box does not
   * change size with its text, so nothing around it moves).
   */
  const FIELD: Record<string, string> = { ...TEXT, "-webkit-text-security": "disc" };
  /** What an ancestor painting a copy of its content (a filter, a reflection) gets. */
  const COPIER: Record<string, string> = {
    "filter": "none",
    // Chromium does not parse `none` here (its initial value): `initial` is.
    "-webkit-box-reflect": "initial",
  };
  /** Sets `props` inline with `!important` on `el`, remembering its `style` attribute first. */
  const restyle = (el: Element, props: Record<string, string>) => {
    const style = (el as HTMLElement).style;
    if (!(style instanceof CSSStyleDeclaration)) return;
    if (!shielded.has(el)) shielded.set(el, attrOf(el, "style"));
    for (const [k, v] of Object.entries(props)) style.setProperty(k, v, "important");
  };
  /** `el`'s parent in the flat tree (its slot, its parent, its shadow root's host). */
  const flatParent = (el: Element): Element | null => {
    const parent = slotOf(el) ?? parentElOf(el);
    if (parent) return parent;
    const root = parentOf(el);
    return root instanceof ShadowRoot ? root.host : null;
  };
  /**
   * Shields the listed text nodes' parents and controls (of the last {@link coverScan}):
   * see the module doc.
   */
  const shield = (textIdx: number[], controlIdx: number[]) => {
    if (!scanned) return;
    const holders = new Map<Element, Record<string, string>>();
    for (const i of textIdx) {
      const parent = scanned.texts[i]?.parentElement;
      if (parent?.isConnected) holders.set(parent, TEXT);
    }
    for (const i of controlIdx) {
      const el = scanned.controls[i];
      if (el?.isConnected) holders.set(el, FIELD);
    }
    const seen = new Set<Element>();
    for (const [el, props] of holders) {
      restyle(el, props);
      for (let a = flatParent(el); a && !seen.has(a); a = flatParent(a)) {
        seen.add(a);
        const cs = getComputedStyle(a);
        const copies = cs.filter !== "none" ||
          (cs.getPropertyValue("-webkit-box-reflect") || "none") !== "none";
        if (copies) restyle(a, COPIER);
      }
    }
  };
  /** Puts back every `style` attribute {@link shield} changed. */
  const unshield = () => {
    for (const [el, before] of shielded) {
      try {
        if (before === null) el.removeAttribute("style");
        else el.setAttribute("style", before);
      } catch { /* the page's own business from here */ }
    }
    shielded = new Map();
  };

  /** Pixels added around each box: anti-aliasing, glyphs that overhang their box. */
  const PAD = 2;

  /**
   * The viewport rects (with {@link PAD}) a secret needs covered: a control's
   * or image's border boxes; a text node's own rects (a Range) and its parent
   * element's boxes (its padding and line height), unless the parent is the
   * body or root (that would black out the page).
   */
  const needed = (textIdx: number[], controlIdx: number[]): DOMRect[] => {
    if (!scanned) return [];
    const out: DOMRect[] = [];
    const add = (list: Iterable<DOMRect>) => {
      for (const r of list) {
        if (r.width > 0 && r.height > 0) {
          out.push(new DOMRect(r.x - PAD, r.y - PAD, r.width + 2 * PAD, r.height + 2 * PAD));
        }
      }
    };
    for (const i of controlIdx) {
      const el = scanned.controls[i];
      if (el?.isConnected) add(el.getClientRects());
    }
    for (const i of textIdx) {
      const node = scanned.texts[i];
      if (!node?.isConnected) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      add(range.getClientRects());
      const parent = parentElOf(node);
      if (parent && parent !== document.body && parent !== document.documentElement) {
        add(parent.getClientRects());
      }
    }
    return out;
  };

  /** Where the overlay's origin is in the viewport now. */
  const origin = () => {
    const r = overlay!.getBoundingClientRect();
    return { x: r.x, y: r.y };
  };

  /**
   * Draws opaque `color` boxes over the listed text nodes and controls of
   * the last {@link coverScan}, in a fresh overlay (any earlier one removed),
   * after shielding them ({@link shield}: no copies, no letters).
   * Returns how many of the listed nodes had something to cover, and
   * whether the overlay made it into the top layer (`popover`).
   */
  api.coverDraw = (textIdx: number[], controlIdx: number[], color: string) => {
    remove();
    // Before measuring: the shield changes how wide the text is drawn.
    shield(textIdx, controlIdx);
    const rects = needed(textIdx, controlIdx);
    const host = document.createElement("div");
    const base = "all:initial;display:block;position:absolute;inset:0 auto auto 0;" +
      "width:0;height:0;margin:0;padding:0;border:0;overflow:visible;" +
      "z-index:2147483647;pointer-events:none;transition:none;animation:none;" +
      "opacity:1;visibility:visible;transform:none;filter:none;clip-path:none;" +
      "mask:none;mix-blend-mode:normal;contain:none;background:transparent";
    host.setAttribute("style", base.replaceAll(";", " !important;") + " !important");
    host.setAttribute("popover", "manual");
    const root = host.attachShadow({ mode: "closed" });
    document.documentElement.append(host);
    let popover = false;
    try {
      host.showPopover();
      popover = matchesOf(host, ":popover-open");
    } catch { /* no popover support: the z-index alone */ }
    overlay = host;
    inTopLayer = popover;
    const o = origin();
    drawn = rects.map((r) => ({ x: r.x - o.x, y: r.y - o.y, w: r.width, h: r.height }));
    for (const b of drawn) {
      const box = document.createElement("div");
      box.setAttribute(
        "style",
        `position:absolute !important;left:${b.x}px !important;top:${b.y}px !important;` +
          `width:${b.w}px !important;height:${b.h}px !important;background:${color} !important;` +
          "transition:none !important;animation:none !important;opacity:1 !important",
      );
      root.append(box);
    }
    return { covered: textIdx.length + controlIdx.length, popover };
  };

  /**
   * Whether every rect the listed nodes (of the last {@link coverScan}) need
   * now lies inside a box {@link coverDraw} drew, and the overlay is still
   * in place and shown (a page may move, re-render or hide things).
   */
  api.coverCheck = (textIdx: number[], controlIdx: number[]) => {
    if (!overlay?.isConnected) return textIdx.length + controlIdx.length === 0;
    if (inTopLayer && !matchesOf(overlay, ":popover-open")) return false;
    const o = origin();
    const inside = (r: DOMRect) => {
      const x = r.x - o.x, y = r.y - o.y;
      return drawn.some((b) =>
        x >= b.x - 0.5 && y >= b.y - 0.5 && x + r.width <= b.x + b.w + 0.5 &&
        y + r.height <= b.y + b.h + 0.5
      );
    };
    // A node gone since the scan may have been re-rendered anywhere: not held.
    const gone = textIdx.some((i) => !scanned?.texts[i]?.isConnected) ||
      controlIdx.some((i) => !scanned?.controls[i]?.isConnected);
    return !gone && needed(textIdx, controlIdx).every(inside);
  };

  /** Removes the overlay and the shield (the scan stays: a check may follow). */
  const remove = () => {
    unshield();
    if (overlay) {
      try {
        if (matchesOf(overlay, ":popover-open")) overlay.hidePopover();
      } catch { /* already hidden */ }
      overlay.remove();
    }
    overlay = undefined;
    inTopLayer = false;
    drawn = [];
    return true;
  };
  api.coverRemove = remove;

  /** Forgets everything (after the screenshot). */
  api.coverDone = () => {
    remove();
    scanned = undefined;
    closedRoots = [];
    return true;
  };
}
