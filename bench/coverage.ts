/**
 * The coverage check: a snapshot counts only when it holds a text from the end of the page and
 * the names of the page's interactive elements (a sample spread over the page).
 *
 * Probes come from the page generator (`stress_pages.ts`) or from {@link TRUTH_SCRIPT}, run in
 * a separate plain Chromium (`truth.ts`). Matching ignores case, punctuation and quoting, so
 * `link "Foo \"bar\""` (YAML) and `[Foo "bar"](url)` (markdown) both contain `Foo "bar"`.
 *
 * @module
 */

/** What a complete snapshot of one page must contain. */
export interface Probes {
  /** Names of interactive elements (already sampled, see {@link spread}). */
  interactive: string[];
  /** A text from the end of the page. */
  tail: string;
}

/** The result of {@link checkCoverage}. */
export interface Coverage {
  /** Probes found. */
  found: number;
  /** Probes checked (interactive + 1 for the tail). */
  total: number;
  /** `100 * found / total`, rounded to 0.1. */
  percent: number;
  /** Whether the tail text was found. */
  tailFound: boolean;
  /** The probes not found (at most 10). */
  missing: string[];
}

/**
 * Lower case, every run of characters other than letters and digits (any script) turned into
 * one space, trimmed.
 */
export function normalizeForMatch(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

/**
 * `n` items spread evenly over `items` (first and last included), in order; all of them when
 * there are no more than `n`.
 */
export function spread<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  if (n <= 0) return [];
  if (n === 1) return [items[items.length - 1]!];
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(items[Math.round(i * (items.length - 1) / (n - 1))]!);
  return out;
}

/**
 * Most words of snapshot syntax allowed between two consecutive words of a probe: a snapshot
 * may split one link's text around inline markup, e.g. the peer's
 * `- link: … - text: support of file system - code [ref=e1823]: flags`.
 */
export const MAX_GAP_WORDS = 6;

/** Finds word sequences in a text, allowing up to {@link MAX_GAP_WORDS} words between them. */
export class WordIndex {
  readonly #words: string[];
  readonly #at = new Map<string, number[]>();
  constructor(text: string) {
    const norm = normalizeForMatch(text);
    this.#words = norm === "" ? [] : norm.split(" ");
    this.#words.forEach((w, i) => {
      const list = this.#at.get(w);
      if (list) list.push(i);
      else this.#at.set(w, [i]);
    });
  }
  /** Whether the words of `phrase` (normalized) occur in order with small gaps. */
  has(phrase: string): boolean {
    const want = normalizeForMatch(phrase).split(" ").filter(Boolean);
    if (!want.length) return true;
    for (const start of this.#at.get(want[0]!) ?? []) {
      let pos = start;
      let ok = true;
      for (const w of want.slice(1)) {
        let next = -1;
        for (let j = pos + 1; j <= pos + 1 + MAX_GAP_WORDS && j < this.#words.length; j++) {
          if (this.#words[j] === w) {
            next = j;
            break;
          }
        }
        if (next < 0) {
          ok = false;
          break;
        }
        pos = next;
      }
      if (ok) return true;
    }
    return false;
  }
}

/**
 * Checks which probes `snapshot` contains: the probe's words (see {@link normalizeForMatch}) in
 * order, whole words, with at most {@link MAX_GAP_WORDS} other words between two of them.
 * Probes that normalize to nothing are skipped (not counted).
 */
export function checkCoverage(snapshot: string, probes: Probes): Coverage {
  const index = new WordIndex(snapshot);
  const has = (probe: string) => normalizeForMatch(probe) === "" ? undefined : index.has(probe);
  let found = 0;
  let total = 0;
  const missing: string[] = [];
  for (const probe of probes.interactive) {
    const r = has(probe);
    if (r === undefined) continue;
    total++;
    if (r) found++;
    else if (missing.length < 10) missing.push(probe);
  }
  const tail = has(probes.tail);
  let tailFound = false;
  if (tail !== undefined) {
    total++;
    tailFound = tail;
    if (tail) found++;
    else missing.push(`(tail) ${probes.tail}`);
  }
  const percent = total === 0 ? 100 : Math.round(1000 * found / total) / 10;
  return { found, total, percent, tailFound, missing };
}

/**
 * The probe of a long text from the end of a page: its last `maxChars` characters (default 60),
 * starting at a word boundary.
 */
export function tailProbe(text: string, maxChars = 60): string {
  const t = text.replace(/\s+/g, " ").trim();
  if (t.length <= maxChars) return t;
  const cut = t.slice(t.length - maxChars);
  const space = cut.indexOf(" ");
  return space >= 0 && space < cut.length - 1 ? cut.slice(space + 1) : cut;
}

/** What {@link TRUTH_SCRIPT} returns. */
export interface PageTruth {
  /** Names of visible interactive elements with a name, in document order (all of them). */
  interactive: string[];
  /** The last visible text node of at least 20 characters (whitespace collapsed). */
  tail: string;
  /** `document.body.innerText` after forcing `content-visibility: visible` everywhere. */
  innerText: string;
  /**
   * The body's text nodes outside script/style/noscript/template, visible or not, joined
   * (the markup's text: hidden menus and collapsed whitespace runs included).
   */
  textContent: string;
}

/**
 * A script (an expression evaluating to a Promise of {@link PageTruth}) run in the page, in a
 * plain Chromium. It first adds a style `* { content-visibility: visible !important }` (the
 * Node.js docs use `content-visibility: auto`, whose skipped sections `innerText` leaves out)
 * and waits two animation frames. Then it walks the document, open shadow roots and
 * same-origin iframes in order and collects:
 *
 * - interactive elements: `a[href]`, `button`, `input` (not hidden), `select`, `textarea`,
 *   `summary` and elements with role button/link/checkbox/radio/tab/menuitem/option/switch, that
 *   are visible (`checkVisibility()`) and have a name: `aria-label`, else the text of
 *   `aria-labelledby`, else a `<label>`'s text (the field's own value left out), else the text
 *   content, else `value` (buttons), `placeholder`, `title`, `alt`; names of 2–80 chars with a
 *   letter, whitespace collapsed;
 * - the last visible text node of ≥ 20 chars (not in script/style/noscript/template);
 * - `document.body.innerText` of the top document, and its text nodes' text (`textContent`
 *   without scripts and styles).
 */
export const TRUTH_SCRIPT = `(async () => {
  const style = document.createElement("style");
  style.textContent = "* { content-visibility: visible !important; }";
  document.documentElement.append(style);
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const clean = (s) => (s || "").replace(/\\s+/g, " ").trim();
  const SEL = 'a[href],button,input:not([type=hidden]),select,textarea,summary,' +
    '[role=button],[role=link],[role=checkbox],[role=radio],[role=tab],[role=menuitem],' +
    '[role=option],[role=switch]';
  const visible = (el) => el.checkVisibility ? el.checkVisibility() : el.getClientRects().length > 0;
  const labelText = (el) => {
    const parts = [];
    for (const l of el.labels || []) {
      const c = l.cloneNode(true);
      for (const f of c.querySelectorAll("input,select,textarea")) f.remove();
      parts.push(c.textContent);
    }
    return clean(parts.join(" "));
  };
  const nameOf = (el) => {
    const doc = el.ownerDocument;
    const aria = clean(el.getAttribute("aria-label"));
    if (aria) return aria;
    const by = el.getAttribute("aria-labelledby");
    if (by) {
      const t = clean(by.split(/\\s+/).map((id) => doc.getElementById(id)?.textContent).join(" "));
      if (t) return t;
    }
    const isField = /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName);
    if (isField) {
      const l = labelText(el);
      if (l) return l;
    } else {
      const t = clean(el.textContent);
      if (t) return t;
      const img = el.querySelector("img[alt]");
      if (img && clean(img.alt)) return clean(img.alt);
    }
    if (el.tagName === "INPUT" && /^(submit|button|reset)$/.test(el.type)) return clean(el.value);
    return clean(el.getAttribute("placeholder") || el.getAttribute("title") || el.getAttribute("alt"));
  };
  const interactive = [];
  let tail = "";
  const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE"]);
  const walk = (root) => {
    const it = (root.ownerDocument || root).createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let n = it.nextNode(); n; n = it.nextNode()) {
      if (n.nodeType === 3) {
        const t = clean(n.data);
        const p = n.parentElement;
        if (t.length >= 20 && p && !SKIP.has(p.tagName) && visible(p)) tail = t;
        continue;
      }
      if (n.matches(SEL) && visible(n)) {
        const name = nameOf(n);
        if (name.length >= 2 && name.length <= 80 && /\\p{L}/u.test(name)) interactive.push(name);
      }
      if (n.shadowRoot) walk(n.shadowRoot);
      if (n.tagName === "IFRAME") {
        try {
          if (n.contentDocument && n.contentDocument.body) walk(n.contentDocument.body);
        } catch {}
      }
    }
  };
  walk(document.body);
  const texts = [];
  const all = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = all.nextNode(); n; n = all.nextNode()) {
    if (!SKIP.has(n.parentElement?.tagName)) texts.push(n.data);
  }
  return { interactive, tail, innerText: document.body.innerText, textContent: texts.join("") };
})()`;

/** Probes from a page's truth: `n` (default 50) interactive names spread over it, and the tail. */
export function probesFromTruth(truth: PageTruth, n = 50): Probes {
  return { interactive: spread(truth.interactive, n), tail: tailProbe(truth.tail) };
}
