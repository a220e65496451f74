/// <reference lib="dom" />
/**
 * Page-side HTML sanitizer for markup an agent writes into a page
 * (`set_editor` with html=true). Writing markup must never run script in the
 * page: the `eval` capability gates that, and an `<img onerror>` would be a
 * way around it (reading cookies or a filled password, in the page's origin).
 *
 * How: the markup is parsed by `DOMParser` into an inert document (no
 * browsing context: no script runs, no handler fires, nothing loads), the
 * tree is cleaned there, serialized, and parsed and cleaned again until the
 * text is stable (so markup that mutates on re-parsing, "mXSS", cannot sneak
 * through the string handed to an editor API). The caller imports the clean
 * nodes, or passes the clean string to `setData` / `setContent`.
 *
 * What goes (each reported in `removed`, e.g. `"onerror attribute"`,
 * `"script element"`, `"href attribute (javascript: URL)"`):
 *
 * - elements with their content: script, style, template, noscript and the
 *   other raw-text legacy elements, iframe/frame/frameset, object, embed,
 *   applet, portal, fencedframe, link, meta, base, title, math (MathML), svg
 *   script, foreignObject and SVG animation elements (animate, set, …);
 * - form controls (input, button, select, textarea, option, …): inside a
 *   contenteditable they would post with the page's form and could set or
 *   override its fields (is_draft=0, say); `<form>` and custom elements
 *   (names with a dash, whose page-defined constructors would run) are
 *   unwrapped, their content kept; comments are dropped;
 * - attributes: every `on*` (HTML and SVG alike), srcdoc, is, form,
 *   formaction, action, `name` (except on `<a>`), an `id` that would shadow
 *   something of the page (an element of the page, a `document`/`window`
 *   property); URL attributes (href, xlink:href, src, srcset, poster, …)
 *   whose scheme is not http(s), mailto, tel, ftp or sms — `data:image/*`
 *   stays allowed on `<img src/srcset>`.
 *
 * Kept: text, formatting, paragraphs, headings, lists, links, images,
 * tables, figures, media, inline `style` attributes, class, data-*, aria-*,
 * and SVG drawings.
 *
 * Self-contained (its source is sent to the page), see `mod.ts`.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";

/** Adds `api.sanitizeHtml(html, target?)` to the utility api. */
export function installSanitizeLib(api: PageApi): void {
  /** Dropped with everything inside them (lower-cased local names, any namespace). */
  const DROP = new Set([
    "script",
    "style",
    "template",
    "noscript",
    "noembed",
    "noframes",
    "xmp",
    "plaintext",
    "iframe",
    "frame",
    "frameset",
    "object",
    "embed",
    "applet",
    "portal",
    "fencedframe",
    "link",
    "meta",
    "base",
    "title",
    "head",
    "math",
    "foreignobject",
    "animate",
    "animatemotion",
    "animatetransform",
    "animatecolor",
    "set",
    "discard",
    "handler",
    "listener",
    "input",
    "button",
    "select",
    "textarea",
    "option",
    "optgroup",
    "datalist",
    "output",
    "keygen",
    "selectedcontent",
  ]);
  /** Removed, their children kept. */
  const UNWRAP = new Set(["form"]);
  /** Attributes removed wherever they are. */
  const BAD_ATTRS = new Set(["srcdoc", "is", "form", "formaction", "action"]);
  /** Attributes holding a URL (or a list of them), by local name. */
  const URL_ATTRS = new Set([
    "href",
    "src",
    "srcset",
    "imagesrcset",
    "poster",
    "background",
    "cite",
    "longdesc",
    "lowsrc",
    "dynsrc",
    "data",
    "codebase",
    "ping",
    "manifest",
    "usemap",
    "icon",
    "profile",
    "archive",
  ]);
  const SAFE_SCHEMES = new Set(["http", "https", "mailto", "tel", "ftp", "sms"]);

  /** The scheme a browser would see (control characters and spaces stripped), or null. */
  const schemeOf = (url: string) => {
    // deno-lint-ignore no-control-regex
    const m = /^([a-z][a-z0-9+.-]*):/i.exec(url.replace(/[\u0000-\u0020\u007f-\u009f]/g, ""));
    return m ? m[1]!.toLowerCase() : null;
  };
  const isDataImage = (url: string) =>
    // deno-lint-ignore no-control-regex
    /^data:image\//i.test(url.replace(/[\u0000-\u0020\u007f-\u009f]/g, ""));

  /** The URLs of a srcset value (a URL may hold commas, as `data:` ones do). */
  const srcsetUrls = (v: string) => {
    const urls: string[] = [];
    let i = 0;
    while (i < v.length) {
      while (i < v.length && /[\s,]/.test(v[i]!)) i++;
      if (i >= v.length) break;
      let j = i;
      while (j < v.length && !/\s/.test(v[j]!)) j++;
      const url = v.slice(i, j);
      if (url.endsWith(",")) {
        urls.push(url.replace(/,+$/, ""));
        i = j;
        continue;
      }
      urls.push(url);
      let depth = 0;
      while (j < v.length && (v[j] !== "," || depth > 0)) {
        if (v[j] === "(") depth++;
        else if (v[j] === ")") depth--;
        j++;
      }
      i = j + 1;
    }
    return urls;
  };

  /** Why a URL attribute must go, or null when it may stay. */
  const badUrl = (el: Element, attr: Attr): string | null => {
    const imgSrc = el.localName === "img" &&
      (attr.localName === "src" || attr.localName === "srcset");
    const urls = attr.localName === "srcset" || attr.localName === "imagesrcset" ||
        attr.localName === "ping" || attr.localName === "archive"
      ? (attr.localName === "srcset" || attr.localName === "imagesrcset"
        ? srcsetUrls(attr.value)
        : attr.value.split(/[\s,]+/))
      : [attr.value];
    for (const url of urls) {
      const scheme = schemeOf(url);
      if (scheme === null || SAFE_SCHEMES.has(scheme)) continue;
      if (scheme === "data" && imgSrc && isDataImage(url)) continue;
      return `${scheme}: URL`;
    }
    return null;
  };

  /**
   * Cleans `root`'s subtree in place; `note` records what went. `clash(id)` says whether an
   * id would shadow something of the target page.
   */
  const clean = (root: Node, note: (what: string) => void, clash: (id: string) => boolean) => {
    for (const node of [...root.childNodes]) {
      if (
        node.nodeType === Node.COMMENT_NODE || node.nodeType === Node.PROCESSING_INSTRUCTION_NODE
      ) {
        node.remove();
        note("comment");
        continue;
      }
      if (node.nodeType !== Node.ELEMENT_NODE) continue;
      let el = node as Element;
      const tag = el.localName.toLowerCase();
      if (DROP.has(tag)) {
        el.remove();
        note(`${el.localName} element`);
        continue;
      }
      if (el.hasAttribute("is")) {
        // The parser keeps `is` as the element's custom-element name, which a clone carries
        // into the page (upgrading it with the page's constructor): rebuild it without one.
        const qualified = el.prefix ? `${el.prefix}:${el.localName}` : el.localName;
        const fresh = el.ownerDocument.createElementNS(el.namespaceURI, qualified);
        for (const a of el.attributes) fresh.setAttributeNodeNS(a.cloneNode() as Attr);
        fresh.append(...el.childNodes);
        el.replaceWith(fresh);
        el = fresh;
      }
      for (const attr of [...el.attributes]) {
        const name = attr.name.toLowerCase();
        const local = attr.localName.toLowerCase();
        let why: string | null = null;
        if (name.startsWith("on") || local.startsWith("on") || BAD_ATTRS.has(local)) why = "";
        else if (local === "name" && tag !== "a") why = "";
        else if (local === "id" && clash(attr.value)) why = " (clashes with the page)";
        else if (URL_ATTRS.has(local)) {
          const bad = badUrl(el, attr);
          if (bad) why = ` (${bad})`;
        }
        if (why !== null) {
          el.removeAttributeNode(attr);
          note(`${attr.name} attribute${why}`);
        }
      }
      clean(el, note, clash);
      if (UNWRAP.has(tag) || tag.includes("-")) {
        el.replaceWith(...el.childNodes);
        note(`${el.localName} element (content kept)`);
      }
    }
  };

  /**
   * Sanitizes `html` for writing into `target` (an editable element, whose document's ids it
   * must not shadow). Returns the clean markup, a fragment of inert nodes holding it (to
   * import), and what was removed; or `{ error, code }` when the markup does not settle.
   */
  api.sanitizeHtml = (html: string, target?: Element | null) => {
    const doc = target?.ownerDocument ?? document;
    const win = doc.defaultView;
    const clash = (id: string) => {
      const hit = doc.getElementById(id);
      if (hit) return !target?.contains(hit);
      return id in doc || (!!win && id in win);
    };
    const removed = new Set<string>();
    const parser = new DOMParser();
    let text = html;
    for (let pass = 0; pass < 4; pass++) {
      // `<body>` first keeps leading markup in the body (a bare `<style>` would go to <head>).
      const inert = parser.parseFromString("<!doctype html><body>" + text, "text/html");
      // A `<body onload>` in the markup lends its attributes to the inert body: never imported.
      for (const a of inert.body.attributes) removed.add(`${a.name} attribute`);
      clean(inert.body, (what) => removed.add(what), clash);
      const next = inert.body.innerHTML;
      if (next === text) {
        const fragment = inert.createDocumentFragment();
        fragment.append(...inert.body.childNodes);
        return { html: next, fragment, removed: [...removed] };
      }
      text = next;
    }
    return {
      error:
        "the markup changes each time it is parsed (nested svg/table/foreign content): simplify it",
      code: "invalid-argument",
    };
  };
}
