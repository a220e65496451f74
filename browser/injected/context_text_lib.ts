/// <reference lib="dom" />
/**
 * The page-side context text: what a ref's container reads, for its fingerprint
 * (`context_lib.ts` picks the container). Installed before `context_lib.ts`.
 *
 * Adds to the utility api:
 * - `contextText(root, skip, ownValue?) → string`: the text of `root` without `skip`'s
 *   subtree (see below).
 * - `contextSkeleton(text) → string`: a context text with its counts, times and prices made
 *   equal (a row whose count ticks is the same row).
 * - `contextSteady(text) → string`: a context text with what ticks on its own (a time, a
 *   counter) made equal.
 * - `noteEdit(field, done?)`: a value browxai sets by script (fill_form, dates) is typed, not
 *   the page's (trusted `beforeinput`/`input` events mark the rest).
 * - `memoContexts(memo | null)`: within one snapshot walk, each subtree's text is read once.
 *
 * Context texts are whitespace collapsed and at most 80 characters: a longer one is its first
 * 72, `… #` and two hashes of up to 600, `SKELETON~STEADY` (rows sharing a long prefix differ; a
 * count that ticks keeps the first, a time or counter that ticks both); when its item's number
 * (see `identity`) lies past them, fewer and `… NUMBER #` (so a hover change is told from a
 * renumbered row). They hold the container's own aria-label, the row's text, the alt text of
 * its images, the aria-labels of its other elements (icon-only controls; a field counts by its
 * value alone), and fields' values as the page set them (an editable grid's item, a read-only
 * field, a button input's label; a text field's own too, in a list or table row outside a
 * form; a select's chosen option; a text field's placeholder; not a value repeating the text
 * just before it, a todo's hidden edit box after its label); never what was typed or chosen
 * (`noteEdit`: a field the agent or a person typed in counts by its value before, while it
 * reads what was typed, or what the page's handlers made of it), a value put in a field seen
 * empty, a secret, the content of contenteditable regions or of `datalist` suggestions. A row
 * that reads none of these is told by its links' href attributes (a bare "Open" link's row).
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";

/** Adds the context text (see the module doc) to the utility api. */
export function installContextTextLib(api: PageApi): void {
  const { localOf, nodeTypeOf, attrOf, matchesOf, qsaOf } = api.dom;
  type Fn<A extends unknown[], R> = (...a: A) => R;
  const isInline = api.isInline as Fn<[Element], boolean>;
  const childNodesOf = api.childNodesOf as Fn<[Element], ArrayLike<Node>>;
  const flatParent = api.flatParent as Fn<[Node], Element | null>;
  const isSecret = api.isSecret as Fn<[Element], boolean>;

  // Shown (in ref-gone messages, find's reasons) as at most CONTEXT_MAX characters; a longer
  // text keeps CONTEXT_SHOWN of them and a hash of up to CONTEXT_HASHED (rows that share a long
  // prefix, "Invoice for ACME … INV-1001" / "… INV-1002", are still told apart).
  const CONTEXT_MAX = 80;
  const CONTEXT_SHOWN = 72;
  const CONTEXT_HASHED = 600;
  const NO_CONTEXT_TEXT = new Set("script style template noscript datalist".split(" "));
  // Fields whose value is not typed by the user: their values tell rows apart like text does.
  const SHOWN_VALUE_TYPES = new Set(["button", "submit", "reset"]);
  const NO_VALUE_TYPES = new Set(["hidden", "password", "file", "checkbox", "radio", "image"]);

  // Counts, times and prices tick while a row stays the same item: the hash leaves them out,
  // but for the first whole number of 3 digits or more, the item's own (an order's, a build's)
  // (the same rule as browser/snapshot/row_identity.ts's skeleton, which compares the shown part).
  const VOLATILE =
    /^[([]?[+\-−]?[$€£¥]?\d[\d.,:/]*(ms|s|m|h|d|w|mo|y|min|mins|sec|secs|hr|hrs|k|K|M|B|%)?[)\],.;:]?$/;
  const IDENTIFIER = /^#?\d{3,}[,.;:]?$/;
  // A long text's second hash, over its exact words (see contextText): not part of a skeleton.
  const EXACT_HASH = /(?<=… (?:\S+ )?#[0-9a-z]+)~[0-9a-z]+$/;
  const skeleton = (t: string) => {
    let id = false;
    return t.replace(EXACT_HASH, "").split(" ").map((w) => {
      if (!id && IDENTIFIER.test(w)) return (id = true, w);
      return VOLATILE.test(w) ? "0" : w;
    }).join(" ");
  };

  // What ticks on its own while a row shows the same thing (row_identity.ts steady, the same
  // rule): a time, a duration, a counter, a number before a time or counter word.
  const TICKS =
    /^[([]?(?:\d{1,2}:\d{2}(?::\d{2})?(?:am|pm)?|\d+(?:\.\d+)?(?:ms|s|m|h|d|w|mo|y|min|mins|sec|secs|hr|hrs)|\d+\/\d+)[)\],.;:]?$/i;
  const TICK_WORD =
    /^(?:ms|secs?|seconds?|mins?|minutes?|hrs?|hours?|days?|weeks?|months?|years?|ago|characters?|chars?|words?|left|remaining)[)\],.;:]?$/i;
  const steady = (t: string) => {
    const w = t.split(" ");
    return w.map((x, i) =>
      TICKS.test(x) || (/^\d+(?:\.\d+)?$/.test(x) && TICK_WORD.test(w[i + 1] ?? "")) ? "0" : x
    ).join(" ");
  };

  // The row's item (row_identity.ts identityOf, the same rule): the first word holding 3 digits or more
  // that is no count, time or price ("1001", "#1001", "INV-1003"), a comma or full stop after it
  // left out.
  const identity = (words: string[]) =>
    words.map((w) => w.replace(/[,.;:]$/, "")).find((w) =>
      /\d{3}/.test(w) && (IDENTIFIER.test(w) || !VOLATILE.test(w))
    );

  // FNV-1a, 32 bits, base 36: a fingerprint of the text past what is shown.
  function hash(t: string): string {
    let h = 0x811c9dc5;
    for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 0x01000193);
    return (h >>> 0).toString(36);
  }

  // Typing in a field (a trusted beforeinput/input, or browxai's own setting of a value:
  // noteEdit) does not make its row another item: its value counts as it was before the edit
  // (`before`) while it still reads what was typed (`after`); a value the page sets later (a
  // row re-used for another item) counts as it is. `after` follows what the page's own input
  // and change handlers made of the typing (upper case, a format on commit) by the end of the
  // task. A field seen empty counts as empty (`seenEmpty`): the page filling it in (a prefill, an
  // autocomplete, a computed total) is no other item; a re-used row shows another item's value.
  const edits = new WeakMap<Element, { before: string; after: string }>();
  const seenEmpty = new WeakSet<Element>();
  type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
  const isField = (t: EventTarget | undefined): t is Field =>
    t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement ||
    t instanceof HTMLSelectElement;
  // A select by its chosen options' text (what the row shows); empty when its value is (a
  // "Choose…" placeholder option).
  const valueOf = (f: Field) =>
    f instanceof HTMLSelectElement
      ? (f.value ? [...f.selectedOptions].map((o) => o.text).join(" ") : "")
      : f.value;
  // `done`: the edit is in (input), or committed (change: only a value still as typed).
  function noteEdit(f: Field, done?: boolean | "commit") {
    const r = edits.get(f);
    if (!done) {
      if (!r || r.after !== valueOf(f)) edits.set(f, { before: valueOf(f), after: valueOf(f) });
      return;
    }
    if (!r || (done === "commit" && r.after !== valueOf(f))) return;
    const typed = r.after = valueOf(f);
    // What the page's handlers made of it, once they ran.
    return () => {
      if (r.after === typed) r.after = valueOf(f);
    };
  }
  // Captured before the page's handlers; followed once they ran: when the event bubbled back
  // to the window, or (a handler stopped it) at the end of the task, never later (a value set
  // later is the page's own).
  const onEdit = (done: boolean | "commit") => (ev: Event) => {
    const t = ev.composedPath()[0];
    const follow = ev.isTrusted && isField(t) ? noteEdit(t, done) : undefined;
    if (!follow) return;
    addEventListener(ev.type, follow, { once: true });
    setTimeout(() => {
      removeEventListener(ev.type, follow);
      follow();
    }, 0);
  };
  api.onFirst("beforeinput", onEdit(false));
  api.onFirst("input", onEdit(true));
  api.onFirst("change", onEdit("commit"));
  // A select has no beforeinput: what it held as a person's focus reached it is its value
  // before their pick.
  api.onFirst("focusin", (ev) => {
    const t = ev.composedPath()[0];
    if (ev.isTrusted && t instanceof HTMLSelectElement) noteEdit(t);
  });
  const shownValue = (f: Field) => {
    const r = edits.get(f);
    const now = valueOf(f);
    const v = r && r.after === now ? r.before : now;
    if (!v) seenEmpty.add(f);
    return seenEmpty.has(f) ? "" : v;
  };

  // What a field adds to its row's context: its value as the page set it (an editable grid's
  // item name, a read-only field's, a button's label), never what is typed in it (see
  // `edits`: values change as the agent fills a row) nor a secret's.
  function fieldText(el: Element): string {
    const tag = localOf(el);
    if (tag === "textarea" || tag === "input") {
      const f = el as HTMLInputElement;
      const type = tag === "input" ? f.type : "textarea";
      if (NO_VALUE_TYPES.has(type) || isSecret(f)) return "";
      if (SHOWN_VALUE_TYPES.has(type)) return f.value;
      // Its placeholder too: a row's empty field may be all that names its item.
      return `${shownValue(f)} ${f.placeholder}`.trim();
    }
    if (tag === "select") return shownValue(el as HTMLSelectElement);
    return "";
  }

  // Where one visit of a subtree's text goes (see contextText): `text` a counted part (a text
  // node, a label, an alt text), `space` a separator, `field` a field's value part, `skip` the
  // element left out, `sub` an element's subtree; the ones that add say when the cap is passed.
  interface Sink {
    text(t: string): boolean;
    space(): void;
    field(f: Element, t: string): boolean;
    skip(el: Element): boolean;
    sub(el: Element): boolean;
  }

  // The parts of `el`'s children's text, in order, into `sink` (see contextText); true once the
  // cap is passed.
  function visit(el: Element, skip: Element | null, sink: Sink): boolean {
    const kids = childNodesOf(el);
    for (let i = 0; i < kids.length; i++) {
      const n = kids[i]!;
      if (nodeTypeOf(n) === 3) {
        if (sink.text((n as Text).data)) return true;
        continue;
      }
      if (nodeTypeOf(n) !== 1) continue;
      const c = n as Element;
      if (c === skip) {
        if (sink.skip(c)) return true;
        continue;
      }
      if (NO_CONTEXT_TEXT.has(localOf(c))) continue;
      const ce = attrOf(c, "contenteditable");
      if (ce !== null && ce !== "false") continue;
      const block = !isInline(c);
      if (block) sink.space();
      // A field by its value alone: its label is the same in every row (a "Done" checkbox).
      if (/^(input|textarea|select)$/.test(localOf(c))) {
        if (sink.field(c, " " + fieldText(c) + " ")) return true;
        continue;
      }
      const label = attrOf(c, "aria-label");
      if (label && sink.text(" " + label + " ")) return true;
      const alt = /^(img|area)$/.test(localOf(c)) ? attrOf(c, "alt") : null;
      if (alt && sink.text(" " + alt + " ")) return true;
      if (sink.sub(c)) return true;
      if (block) sink.space();
    }
    return false;
  }

  // A context reads at most this many characters of text (before whitespace is collapsed).
  const CONTEXT_READ = CONTEXT_HASHED * 2;

  // What one element's subtree gives a context text, read once per snapshot walk: its parts in
  // order ([0] a separator, [1, text], [2, text, field], [3, the parts of a child's subtree]),
  // up to CONTEXT_READ characters of its own, and their count. A row's context reads its
  // subtree, and in a nested outline (a docs sidebar, a file tree, a thread) that holds the rows
  // below: read anew for each row above, the walk cost its size times the depth (to the cap).
  type Parts = {
    steps: Array<[0] | [1, string] | [2, string, Element] | [3, Parts]>;
    size: number;
  };
  // The walk's memo (`memoContexts`), or null outside a walk (the page may change between calls).
  let memo: Map<Element, Parts> | null = null;

  function partsOf(el: Element): Parts {
    const known = memo!.get(el);
    if (known) return known;
    const out: Parts = { steps: [], size: 0 };
    const count = (t: string) => (out.size += t.length) > CONTEXT_READ;
    visit(el, null, {
      text: (t) => !!t && (out.steps.push([1, t]), count(t)),
      space: () => out.steps.push([0]),
      field: (f, t) => (out.steps.push([2, t, f]), count(t)),
      skip: () => false,
      sub: (c) => {
        const p = partsOf(c);
        out.steps.push([3, p]);
        return (out.size += p.size) > CONTEXT_READ;
      },
    });
    memo!.set(el, out);
    return out;
  }

  // The text of `root` without `skip`'s subtree, editable regions, and fields' typed values
  // (see fieldText), with the alt text of images and the aria-label of elements, the root's
  // own first (a row told apart only by an icon's label, `<li aria-label="Order 1001">`),
  // whitespace collapsed; stops once CONTEXT_READ characters are in. `ownValue`: `skip` (a
  // text field) adds its value as the page set it (fieldText), the item of an editable grid's
  // row. Within a snapshot walk, subtrees that do not hold `skip` are read from the memo.
  function contextText(root: Element, skip: Element | null, ownValue = false): string {
    const parts: string[] = [];
    // Which parts are fields' values, and what was typed in the row's fields (see swapTyped).
    const fieldAt = new Set<number>();
    const typed: Array<[string, string]> = [];
    let size = 0;
    const add = (t: string) => {
      if (!t) return false;
      parts.push(t);
      size += t.length;
      return size > CONTEXT_READ;
    };
    const field = (f: Element, t: string) => {
      noteTyped(f, typed);
      fieldAt.add(parts.length);
      return add(t);
    };
    const replay = (p: Parts): boolean => {
      for (const s of p.steps) {
        if (s[0] === 0) parts.push(" ");
        else if (s[0] === 1 ? add(s[1]) : s[0] === 2 ? field(s[2], s[1]) : replay(s[1])) {
          return true;
        }
      }
      return false;
    };
    // The elements that hold `skip` (read directly); none known when the walk up misses the root.
    let holding: Set<Element> | null = new Set();
    for (let a = skip ? flatParent(skip) : root; a !== root; a = flatParent(a)) {
      if (!a) {
        holding = null;
        break;
      }
      holding.add(a);
    }
    const direct: Sink = {
      text: add,
      space: () => parts.push(" "),
      field,
      skip: (c) => {
        if (ownValue) return field(c, " " + fieldText(c) + " ");
        noteTyped(c, typed);
        return false;
      },
      sub: (c) => memo && holding && !holding.has(c) ? replay(partsOf(c)) : visit(c, skip, direct),
    };
    const rootLabel = attrOf(root, "aria-label");
    if (!(rootLabel && add(rootLabel + " "))) {
      if (memo && !skip) replay(partsOf(root));
      else visit(root, skip, direct);
    }
    const joined = fieldAt.size ? swapTyped(parts, fieldAt, typed) : parts.join("");
    const text = (joined.replace(/\s+/g, " ").trim() || linksOf(root))
      .slice(0, CONTEXT_HASHED);
    if (text.length <= CONTEXT_MAX) return text;
    const head = text.slice(0, CONTEXT_SHOWN);
    // Two hashes: of the skeleton (a count that ticks keeps it), and of the text but for what
    // ticks on its own (rows "… line 3" / "… line 4" are told apart as short texts are, a price
    // changed past the cut is seen; a "3s ago" that ticks is not a change).
    const tail = `#${hash(skeleton(text))}~${hash(steady(text))}`;
    // The item's number stays in sight when the cut would hide it: a row renumbered under the
    // pointer ("… Order 1001" now "… Order 1011") is told from one whose hover changed it.
    const id = identity(text.split(" "));
    if (!id || identity(head.replace(/\S*$/, "").split(" ")) === id) return `${head}… ${tail}`;
    return `${text.slice(0, Math.max(0, CONTEXT_SHOWN - id.length - 1))}… ${id} ${tail}`;
  }

  // A field of the row still reads what was typed in it (see `edits`): [typed, before], both
  // whitespace collapsed. Secrets and fields whose value never changed are left out.
  function noteTyped(f: Element, out: Array<[string, string]>) {
    if (!isField(f) || isSecret(f)) return;
    const r = edits.get(f);
    if (!r || r.after !== valueOf(f)) return;
    const collapse = (v: string) => v.replace(/\s+/g, " ").trim();
    const after = collapse(r.after), before = collapse(r.before);
    if (after && after !== before) out.push([after, before]);
  }

  // The row's text with what was typed in its fields read as their value before the edit, in
  // the row's own text (not in the fields' values, `fieldAt`): an edit committed in place (a
  // TodoMVC todo renamed by its edit field, whose label now reads the typed text) leaves the
  // row its item, as the field itself counts by its value before the edit. Whole words only.
  // A row re-used for another item is still told: the page sets its fields' values anew.
  // A field whose value repeats the text just before it is left out (said once).
  function swapTyped(parts: string[], fieldAt: Set<number>, typed: Array<[string, string]>) {
    const swap = (run: string) => {
      let t = run.replace(/\s+/g, " ");
      for (const [after, before] of typed) {
        const esc = after.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        t = t.replace(new RegExp(`(?<=^| )${esc}(?= |$)`, "g"), before);
      }
      return t;
    };
    let out = "", run = "";
    for (let i = 0; i < parts.length; i++) {
      if (!fieldAt.has(i)) run += parts[i];
      else {
        out += swap(run);
        run = "";
        // A field repeating the text just before it (a todo's hidden edit box after its label)
        // tells nothing more, and would show the item twice ("Walk dog Walk dog").
        const v = parts[i]!.replace(/\s+/g, " ").trim();
        const shown = v && out.replace(/\s+/g, " ").trimEnd();
        if (!v || !(shown === v || shown.endsWith(" " + v))) out += parts[i];
        else out += " ";
      }
    }
    return out + swap(run);
  }

  // A row that reads nothing (a bare "Open" link's, an icon's) is told by where its links go:
  // their href attributes, as the page wrote them (the snapshot shows them).
  function linksOf(root: Element): string {
    const links = matchesOf(root, "a[href]") ? [root] : [];
    links.push(...qsaOf(root, "a[href]"));
    return links.map((a) => attrOf(a, "href")).join(" ");
  }

  api.contextText = contextText;
  api.memoContexts = (m: Map<Element, unknown> | null) => {
    memo = m as Map<Element, Parts> | null;
  };
  api.noteEdit = (f: Field, done?: boolean) => {
    const follow = noteEdit(f, done);
    if (follow) setTimeout(follow, 0);
  };
  api.contextSkeleton = skeleton;
  api.contextSteady = steady;
}
