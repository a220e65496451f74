/// <reference lib="dom" />
/**
 * Page-side reads and edits for `dom_read`, `styles_read` and `styles_write`: the DOM as a
 * tree of tags (depth and node capped), an element's computed styles, and one inline style
 * property set or removed. Installed on demand (mod.ts, the `inspect` group).
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";
import type { DomNodeInfo, DomTreeInfo, StylesInfo, StyleWriteInfo } from "./page_types.ts";

/** Adds `inspectTree`, `inspectStyles` and `inspectStyleWrite` to the utility api. */
export function installInspectLib(api: PageApi): void {
  const { attrOf, childListOf, localOf, nodeTypeOf } = api.dom;
  const norm = (s: string) => s.replace(/\s+/g, " ").trim();
  const MAX_TEXT = 4296;
  /** Elements whose text is code or data, not page text: their text nodes are not read. */
  const NO_TEXT = new Set(["script", "style", "template", "noscript"]);

  /** Element children and non-blank text nodes (an open or handed shadow root first). */
  const kids = (n: Node): Node[] => {
    const out: Node[] = [];
    if (n instanceof Element && NO_TEXT.has(localOf(n))) return out;
    for (const c of childListOf(n)) {
      if (nodeTypeOf(c) === 1 || (nodeTypeOf(c) === 3 && norm(c.nodeValue ?? ""))) out.push(c);
    }
    return out;
  };

  /**
   * The tree under `el` (the document element when null), `depth` levels of children deep, at
   * most `maxNodes` nodes (breadth first, so the upper levels are whole).
   */
  api.inspectTree = (el: Element | null, depth: number, maxNodes: number): DomTreeInfo => {
    const start: Element = el ?? document.documentElement;
    let nodes = 0;
    let truncated = false;
    const info = (n: Node): DomNodeInfo => {
      nodes++;
      if (nodeTypeOf(n) === 3) {
        return { tag: "#text", text: norm(n.nodeValue ?? "").slice(0, MAX_TEXT), child_count: 0 };
      }
      if (n instanceof ShadowRoot) return { tag: "#shadow-root", child_count: kids(n).length };
      const e = n as Element;
      const shadow = api.shadowOf(e);
      const role = api.refRole(e);
      const name = api.nameOf(e);
      const cls = norm(attrOf(e, "class") ?? "");
      return {
        tag: localOf(e),
        ...(e.id ? { id: e.id } : {}),
        ...(cls ? { class: cls } : {}),
        localId: api.idOf(e),
        role,
        name,
        context: api.contextOf(e, role, name),
        child_count: kids(e).length + (shadow ? 1 : 0),
      };
    };
    const root = info(start);
    // Breadth first: a node cap leaves whole upper levels rather than one deep branch.
    let level: Array<[Node, DomNodeInfo]> = [[start, root]];
    for (let d = 0; d < depth && level.length; d++) {
      const next: Array<[Node, DomNodeInfo]> = [];
      for (const [node, out] of level) {
        const shadow = node instanceof Element ? api.shadowOf(node) : null;
        const children = [...(shadow ? [shadow] : []), ...kids(node)];
        if (!children.length) continue;
        if (nodes >= maxNodes) {
          truncated = true;
          continue;
        }
        out.children = [];
        for (const c of children) {
          if (nodes >= maxNodes) {
            truncated = true;
            break;
          }
          const ci = info(c);
          out.children.push(ci);
          next.push([c, ci]);
        }
      }
      level = next;
    }
    return { root, truncated, nodes, instance: api.instance };
  };

  /**
   * Computed styles of an element: `names` (null: every property the browser computes), with
   * its `style` attribute. A name the browser does not know (no such property, not a custom
   * `--property`) is listed in `unknown`.
   */
  api.inspectStyles = (el: Element, names: string[] | null): StylesInfo => {
    const cs = getComputedStyle(el);
    const all = names ?? [...cs];
    const known = new Set<string>([...cs]);
    const computed: Record<string, string> = {};
    const unknown: string[] = [];
    for (const raw of all) {
      const n = raw.trim();
      const v = cs.getPropertyValue(n);
      // Shorthands (margin, border, font) are not among the longhands `[...cs]` lists.
      if (known.has(n) || v !== "" || CSS.supports(n, "inherit")) computed[n] = v;
      else unknown.push(raw);
    }
    return { computed, unknown, inline: attrOf(el, "style") ?? "" };
  };

  /**
   * Sets (`value` not empty) or removes (`value` empty) one inline style property, `!important`
   * when asked. Fails, changing nothing, on a property the browser does not know or a value it
   * does not take for it.
   */
  api.inspectStyleWrite = (
    el: Element,
    property: string,
    value: string,
    important: boolean,
  ): StyleWriteInfo => {
    const style = (el as HTMLElement).style;
    if (!style) {
      return { ok: false, error: "the element has no inline style (not an HTML or SVG element)" };
    }
    const p = property.trim();
    if (!p.startsWith("--") && !CSS.supports(p, "inherit")) {
      return { ok: false, error: `unknown CSS property "${p}"` };
    }
    if (value.trim() === "") style.removeProperty(p);
    else {
      if (!p.startsWith("--") && !CSS.supports(p, value)) {
        return { ok: false, error: `"${value}" is not a valid value of ${p}` };
      }
      style.setProperty(p, value, important ? "important" : "");
    }
    return {
      ok: true,
      inline: attrOf(el, "style") ?? "",
      computed: getComputedStyle(el).getPropertyValue(p),
    };
  };
}
