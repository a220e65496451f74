/// <reference lib="dom" />
/**
 * Page-side drawn text of a control: the words a person sees on it, to hold against the name
 * its snapshot line shows. A name from content is read from the DOM, and a page can make the
 * two differ (red team, "Keep my account" read, "Delete account" drawn): text placed off-screen
 * or clipped away counts in the name and is not seen; text under `aria-hidden`, in CSS
 * generated content (`::before { content: "Delete" / "" }`), or inside a `role=img` with its
 * own label is seen and not in the name.
 *
 * Sent as source text: {@link installDrawnTextLib} must not use anything from its module scope.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";

/**
 * Adds `drawnText(el: Element, name: string): string` to the utility api: the text drawn on
 * `el` (whitespace collapsed) when its words are not the words of `name` in order (case and
 * punctuation aside; a picture's `alt` or label may stand in the name for the picture), and
 * `""` when they are or when nothing with letters or digits is drawn. Of a control of more than
 * 200 nodes (a tree item holding its subtree) the first 200 are read and must begin the name; at
 * most 300 characters are returned (then ending in `…`). Drawn text, in the flat tree: `el`'s own
 * text nodes (unmeasured), and its descendants' with a box of 2×2 px or more inside `el`'s box
 * (an inline `el`'s: 50px higher and lower, its content may be taller than its font) and every
 * clipping box between: `overflow`, `clip`, the box around a `clip-path` basic shape (`inset`,
 * `circle`, `ellipse`, `polygon`, an absolute `path`), so not off-screen, not clipped by an
 * `sr-only` box, not scaled to nothing; none hidden by `visibility`, an opacity under 0.1 (with
 * its ancestors' up to `el`), a colour of alpha under 0.1, a font under 2px, an `opacity(0)`
 * filter or `content-visibility: hidden`; and `::before` / `::after` string content (its alt
 * text after `/` is not drawn). Needs layout (callers skip `content-visibility` subtrees).
 * Not seen and still counted: text the colour of its background, text under another box.
 */
export function installDrawnTextLib(api: PageApi): void {
  const { localOf, nodeTypeOf, attrOf, textContentOf, rectOf, visibleEl } = api.dom;
  type Fn<A extends unknown[], R> = (...a: A) => R;
  const childNodesOf = api.childNodesOf as Fn<[Element], ArrayLike<Node>>;
  const MAX_NODES = 200;
  // Characters of drawn text a line shows at most.
  const MAX_SHOWN = 300;
  const SKIP = new Set("script style template noscript head title datalist".split(" "));
  // Where a picture's description stands in for it: alt, aria-label, title.
  const PICTURES = new Set(["img", "svg", "canvas", "video", "object", "embed"]);
  const SEEN = { opacityProperty: true, visibilityProperty: true };

  type Box = { l: number; t: number; r: number; b: number };
  type Part = { text: string; pic: boolean };

  const boxOf = (r: DOMRect | DOMRectReadOnly): Box => ({
    l: r.left,
    t: r.top,
    r: r.right,
    b: r.bottom,
  });
  const cut = (a: Box, b: Box): Box => ({
    l: Math.max(a.l, b.l),
    t: Math.max(a.t, b.t),
    r: Math.min(a.r, b.r),
    b: Math.min(a.b, b.b),
  });
  // Two pixels each way: an `sr-only` box is 1×1.
  const seenIn = (a: Box) => a.r - a.l >= 2 && a.b - a.t >= 2;
  // An element's box; an inline one's is as high as its own font (none at `font-size: 0`) while
  // its content's may be higher: 50px more each way (text moved off the box goes much farther).
  const boxIn = (e: Element, display: string): Box => {
    const b = boxOf(rectOf(e));
    return display === "inline" ? { l: b.l, t: b.t - 50, r: b.r, b: b.b + 50 } : b;
  };
  // Alpha under 0.1 (not seen on any background): `rgba(0, 0, 0, 0.05)`, `transparent`,
  // `color(srgb 0 0 0 / 0)`.
  const clear = (color: string) =>
    color === "transparent" ||
    /^rgba\((?:[^,]*,){3}\s*0(?:\.0\d*)?\)$|\/\s*0(?:\.0\d*)?\)$/.test(color);
  const NONE: Box = { l: 0, t: 0, r: 0, b: 0 };

  // A length of a basic shape in px (`%` of `of`), or NaN (`calc()`, a keyword).
  const len = (v: string | undefined, of: number): number => {
    const m = /^(-?[\d.]+)(px|%)?$/.exec(v ?? "");
    return !m ? NaN : m[2] === "%" ? (parseFloat(m[1]!) * of) / 100 : parseFloat(m[1]!);
  };
  // The box around a `clip-path` basic shape (computed value) in its element's `w`×`h` box, or
  // undefined when not read (`url()`, `calc()`, a shape box, a relative path): then nothing is cut.
  function shapeBox(v: string, w: number, h: number): Box | undefined {
    const m = /^(inset|circle|ellipse|polygon|path)\((.*)\)/.exec(v);
    if (!m) return undefined;
    const [, kind, args] = m as unknown as [string, string, string];
    let box: Box | undefined;
    if (kind === "inset") {
      const p = args.split(/\s+round\s/)[0]!.trim().split(/\s+/);
      const [t, r = t, b = t, l = r] = p;
      box = { l: len(l, w), t: len(t, h), r: w - len(r, w), b: h - len(b, h) };
    } else if (kind === "circle" || kind === "ellipse") {
      const [radii, at = "50% 50%"] = args.split(/\s*\bat\s+/);
      const rs = (radii ?? "").trim().split(/\s+/);
      const [x, y] = at.trim().split(/\s+/);
      const cx = len(x, w), cy = len(y ?? "50%", h);
      const rx = kind === "circle" ? len(rs[0], Math.hypot(w, h) / Math.SQRT2) : len(rs[0], w);
      const ry = kind === "circle" ? rx : len(rs[1], h);
      box = { l: cx - rx, t: cy - ry, r: cx + rx, b: cy + ry };
    } else {
      // Absolute points only: `polygon(0px 0px, …)`, `path("M 0 0 L 1 1")`.
      if (kind === "path" && /[a-y]/.test(args)) return undefined;
      const n = (kind === "path" ? args.replace(/[A-Z"]/g, " ") : args.replace(/^\s*\w+,/, ""))
        .split(/[\s,]+/).filter(Boolean);
      box = { l: Infinity, t: Infinity, r: -Infinity, b: -Infinity };
      for (let i = 0; i + 1 < n.length; i += 2) {
        const px = len(n[i], w), py = len(n[i + 1], h);
        box = {
          l: Math.min(box.l, px),
          t: Math.min(box.t, py),
          r: Math.max(box.r, px),
          b: Math.max(box.b, py),
        };
      }
    }
    return Object.values(box).some((x) => Number.isNaN(x)) ? undefined : box;
  }
  const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

  // The strings of a `content` value before its alt text (`"a" attr(x) "b" / "alt"`).
  function contentText(e: Element, c: string): string {
    if (c === "none" || c === "normal") return "";
    let out = "";
    for (let i = 0; i < c.length; i++) {
      const ch = c[i];
      if (ch === "/") break;
      if (ch === '"' || ch === "'") {
        let j = i + 1;
        for (; j < c.length && c[j] !== ch; j++) {
          if (c[j] === "\\") {
            const hex = /^[0-9a-fA-F]{1,6} ?/.exec(c.slice(j + 1));
            if (hex) {
              out += String.fromCodePoint(parseInt(hex[0], 16) || 0xfffd);
              j += hex[0].length;
            } else out += c[++j] ?? "";
          } else out += c[j];
        }
        i = j;
      } else if (c.startsWith("attr(", i)) {
        const m = /^attr\(\s*([\w-]+)[^)]*\)/.exec(c.slice(i));
        if (m) {
          out += attrOf(e, m[1]!) ?? "";
          i += m[0].length - 1;
        }
      }
    }
    return out;
  }

  // The parts drawn, in order; `whole` false when the walk stopped at MAX_NODES.
  function drawnParts(el: Element): { parts: Part[]; whole: boolean } {
    const parts: Part[] = [];
    // Drawn text since the last picture: inline pieces join without a space, as in a name.
    let run = "";
    const pic = (text: string) => {
      parts.push({ text: run, pic: false }, { text, pic: true });
      run = "";
    };
    let nodes = 0;
    const range = document.createRange();
    const pseudo = (e: Element, which: string, clip: Box, display: string) => {
      const cs = getComputedStyle(e, which);
      const text = contentText(e, cs.content);
      if (!text.trim() || cs.display === "none" || cs.visibility !== "visible") return;
      if (parseFloat(cs.opacity) < 0.1 || clear(cs.color) || parseFloat(cs.fontSize) < 2) return;
      // Its box is not measurable: the host's box stands for it.
      if (seenIn(cut(boxIn(e, display), clip))) run += text;
    };
    // `clip`: null for `el` (its own box). `alpha`: the opacity of `e`'s parent over `el`
    // (under 0.1 nothing is seen; `el`'s own is not read: all of it is hidden together).
    const visit = (e: Element, clip: Box | null, alpha: number): boolean => {
      if (++nodes > MAX_NODES) return false;
      const tag = localOf(e);
      if (SKIP.has(tag)) return true;
      const cs = getComputedStyle(e);
      if (cs.display === "none") return true;
      if (PICTURES.has(tag) || /^\s*img\b/.test(attrOf(e, "role") ?? "")) {
        // A picture's description may stand in the name for it; text inside is drawn.
        const label = attrOf(e, "alt") ?? attrOf(e, "aria-label") ?? attrOf(e, "title");
        if (label && visibleEl(e, SEEN)) pic(label);
      }
      if (tag === "input" || tag === "select" || tag === "textarea") {
        const v = (e as HTMLInputElement).value;
        if (v) pic(v);
        return true;
      }
      if (!clip) clip = boxIn(e, cs.display);
      else {
        alpha *= parseFloat(cs.opacity);
        if (alpha < 0.1) clip = NONE;
        // Content outside this box is not drawn where it clips (overflow, `clip`, a clip path's
        // shape); none under `opacity(0)` filters or `content-visibility: hidden`.
        const gone = cs.clip !== "auto" || cs.contentVisibility === "hidden" ||
          /\bopacity\(0%?\)/.test(cs.filter);
        if (gone) clip = NONE;
        else if (cs.overflowX !== "visible" || cs.overflowY !== "visible") {
          clip = cut(clip, boxOf(rectOf(e)));
        }
        if (cs.clipPath !== "none") {
          const r = rectOf(e);
          const s = shapeBox(cs.clipPath, r.width, r.height);
          if (s) {
            clip = cut(clip, { l: r.left + s.l, t: r.top + s.t, r: r.left + s.r, b: r.top + s.b });
          }
        }
      }
      const block = !cs.display.startsWith("inline") && cs.display !== "contents";
      if (block) run += " ";
      if (cs.display !== "contents") pseudo(e, "::before", clip, cs.display);
      const kids = childNodesOf(e);
      let seen: boolean | undefined;
      for (let i = 0; i < kids.length; i++) {
        const n = kids[i]!;
        const type = nodeTypeOf(n);
        if (type === 1) {
          if (!visit(n as Element, clip, alpha)) return false;
        } else if (type === 3) {
          if (++nodes > MAX_NODES) return false;
          const text = textContentOf(n) ?? "";
          if (!/[\p{L}\p{N}]/u.test(text)) {
            run += text;
            continue;
          }
          // Under 2px a glyph is a dot (the control's own text is not measured below).
          seen ??= visibleEl(e, SEEN) && !clear(cs.color) && !clear(cs.webkitTextFillColor) &&
            parseFloat(cs.fontSize) >= 2 && alpha >= 0.1;
          if (!seen) continue;
          // The control's own text lies in its box (a text indent aside, which hides the text
          // behind a picture: nothing to read either way); a descendant's is measured.
          if (e === el) {
            run += text;
            continue;
          }
          range.selectNodeContents(n);
          for (const r of range.getClientRects()) {
            if (seenIn(cut(boxOf(r), clip))) {
              run += text;
              break;
            }
          }
        }
      }
      if (cs.display !== "contents") pseudo(e, "::after", clip, cs.display);
      if (block) run += " ";
      return true;
    };
    const whole = visit(el, null, 1);
    parts.push({ text: run, pic: false });
    return { parts, whole };
  }

  // Whether `name` is the drawn words in order, a picture's words taken or skipped (`prefix`:
  // whether the drawn words begin the name).
  function sameWords(parts: Part[], name: string[], prefix: boolean): boolean {
    const drawn: [string, boolean][] = [];
    for (const p of parts) for (const w of words(p.text)) drawn.push([w, p.pic]);
    // ok[j]: the first j words of the name are matched by the drawn words so far.
    let ok = name.map((_, j) => j === 0).concat(name.length === 0);
    for (const [w, pic] of drawn) {
      const next = ok.map((_, j) => (pic && ok[j]!) || (j > 0 && ok[j - 1]! && name[j - 1] === w));
      ok = next;
    }
    return prefix ? ok.includes(true) : ok[name.length]!;
  }

  api.drawnText = (el: Element, name: string): string => {
    const { parts, whole } = drawnParts(el);
    if (!parts.some((p) => !p.pic && /[\p{L}\p{N}]/u.test(p.text))) return "";
    // A big control (a tree item holding its subtree) is compared as far as it was read: padding
    // does not hide other words drawn first.
    if (sameWords(parts, words(name), !whole)) return "";
    const text = parts.filter((p) => !p.pic).map((p) => p.text).join(" ").replace(/\s+/g, " ")
      .trim();
    return whole && text.length <= MAX_SHOWN ? text : text.slice(0, MAX_SHOWN) + "…";
  };
}
