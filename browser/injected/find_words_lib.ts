/// <reference lib="dom" />
/**
 * Page-side words for `find` (`find_lib.ts`): how a text becomes the words the ranker compares
 * (camelCase, kebab and snake case split, lower case, plural `s` dropped), how well two words
 * match (same, synonym, prefix), how well a field's words cover a query's, and a bounded text
 * of a subtree. Deterministic and small on purpose: the figure of the labelled set
 * (tests/find_quality_test.ts) is what tells a change is better.
 *
 * Sent as source text: {@link installFindWordsLib} must not use anything from its module scope.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";

/**
 * Adds to the utility api:
 * - `findTokens(s) → string[]`: the words of a text (a camelCase word counts whole and by parts;
 *   the array may be shared with other calls: read it only).
 * - `findWordMatch(q, t) → 0..1`: query word against page word: 1 same, 0.8 synonym, 0.7 the page
 *   word starts with it (4 letters or more), 0.6 a typo of it (one letter wrong, missing, added,
 *   or two swapped; the longer of 5 letters or more, letters only: "Betta" for "Beta"), 0.5 it starts
 *   with the page word.
 * - `findFieldScore(field, q) → 0..1`: how much of the query the field's words cover, times
 *   (0.7 + 0.3 × how much of the field the query covers), times 0.85..1 as the query's
 *   neighbouring words stand apart or together in the field (`findTogether`).
 * - `findTogether(toks, q) → 0..1`: of the query's neighbouring words both in `toks`, the share
 *   side by side there (either order, filler words such as "the" between); 1 when none are.
 * - `findFieldsScore(fields, words, exact, phrase) → [0..1, label]`: the best of an element's
 *   fields (`[label, value, weight]`) against the query (its words, its quoted `exact` name, or
 *   the words as typed, `phrase`, equal to a whole field), times the field's weight, plus 0.03
 *   for each other field that matches well; the label of the best field.
 * - `findTextOf(root, max, skip?)`: the text of a subtree (open shadow roots in place; `skip`'s
 *   subtree, fields and editable regions left out: their content is a value, maybe a secret),
 *   whitespace collapsed, at most `max` characters.
 * - `findTextWhole(root, max)`: `findTextOf(root, max)` when that read the whole subtree (its
 *   text is at most about `2 × max` characters), else null.
 * - `findTestId(el)`: its `data-testid`, `data-test-id`, `data-test`, `data-qa` or `data-cy`, or `""`.
 * - `findSynonyms(w)`: the words counted as the same as `w` ("delete": remove, destroy, trash, …).
 * - `findAction(fields, words) → [field | null, factor]`: for a query that asks for an action
 *   ("delete Walk dog", "toggle Buy milk": a verb of {@link ACTIONS} beside other words), what an
 *   element's fields (`[label, value, weight]`) say of it: the action said only by a weak field (a
 *   class "destroy", an id) as a field of its own (`["action", words, 0.9]`: what a control is
 *   classed as is what it does), and 0.8 for an element that says no such action at all (the
 *   todo's "Walk dog" label beside its delete button), else 1.
 */
export function installFindWordsLib(api: PageApi): void {
  const { localOf, nodeTypeOf, attrOf, nextOf, firstOf } = api.dom;
  type Fn<A extends unknown[], R> = (...a: A) => R;
  const shadowOf = api.shadowOf as Fn<[Element], ShadowRoot | null>;
  const SKIP_TAGS = new Set(
    ("script style template noscript head meta link title datalist option optgroup param " +
      "source track base area map iframe frame").split(" "),
  );
  const SYNONYMS: string[][] = [
    ["delete", "remove", "destroy", "trash", "del", "erase"],
    ["email", "mail", "e-mail"],
    ["login", "signin", "logon"],
    ["signup", "register", "join"],
    ["logout", "signout"],
    ["close", "dismiss", "cancel"],
    ["search", "find", "query", "lookup"],
    ["submit", "send", "go"],
    ["next", "continue", "forward"],
    ["previous", "prev", "back"],
    ["add", "new", "create", "plus"],
    ["edit", "modify", "change", "rename"],
    ["save", "store"],
    ["settings", "preferences", "options", "config"],
    ["username", "user", "login"],
    ["password", "pass", "pwd"],
    ["phone", "tel", "telephone", "mobile"],
    ["toggle", "complete", "done", "mark", "check"],
    ["menu", "hamburger", "nav"],
    ["name", "fullname"],
  ];
  const synonyms = new Map<string, Set<string>>();
  for (const group of SYNONYMS) {
    for (const w of group) {
      const s = synonyms.get(w) ?? new Set<string>();
      for (const o of group) if (o !== w) s.add(o);
      synonyms.set(w, s);
    }
  }
  // Verbs a query asks a control to do: a control saying one is meant over one only named like
  // its row. (Their synonym groups count too.)
  const ACTIONS = new Set(["delete", "edit", "toggle", "close"]);
  const TEST_ATTRS = ["data-testid", "data-test-id", "data-test", "data-qa", "data-cy"];

  function stem(w: string): string {
    if (w.length > 4 && w.endsWith("ies")) return w.slice(0, -3) + "y";
    if (w.length > 4 && /(x|ch|sh|ss)es$/.test(w)) return w.slice(0, -2);
    if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) return w.slice(0, -1);
    return w;
  }

  // Two words that are one ("Log in" is "login", a synonym of "signin").
  const COMPOUNDS: Record<string, string> = {
    "log in": "login",
    "sign in": "signin",
    "log out": "logout",
    "sign out": "signout",
    "sign up": "signup",
    "check out": "checkout",
    "e mail": "email",
    "user name": "username",
    "set up": "setup",
  };

  // The words of texts seen lately (a table's rows ask the same of the same texts): the arrays
  // are shared, so callers only read them.
  const seen = new Map<string, string[]>();
  const COMPOUND_FIRST = new Set(Object.keys(COMPOUNDS).map((k) => k.split(" ")[0]!));
  const CAMEL = /[a-z][A-Z]/;
  function tokens(s: string): string[] {
    if (!s) return [];
    const key = s.slice(0, 400);
    let out = seen.get(key);
    if (out) return out;
    if (seen.size >= 4096) seen.clear();
    seen.set(key, out = wordsOf(key));
    return out;
  }

  function wordsOf(s: string): string[] {
    const out: string[] = [];
    const words = s.split(/[^\p{L}\p{N}]+/u).filter((w) => w);
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!;
      const lower = word.toLowerCase();
      const pair = i + 1 < words.length && COMPOUND_FIRST.has(lower)
        ? COMPOUNDS[`${lower} ${words[i + 1]!.toLowerCase()}`]
        : "";
      if (pair) {
        out.push(pair);
        i++;
        continue;
      }
      // camelCase words count whole and by their parts ("GitHub": github, git, hub).
      if (!CAMEL.test(word)) {
        out.push(stem(lower));
        continue;
      }
      const parts = word.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(" ");
      out.push(stem(lower));
      for (const p of parts) out.push(stem(p));
    }
    return out;
  }

  function testIdOf(el: Element): string {
    for (const a of TEST_ATTRS) {
      const v = attrOf(el, a);
      if (v) return v;
    }
    return "";
  }

  /** How well query word `q` matches page word `t`, 0..1. */
  function wordMatch(q: string, t: string): number {
    if (q === t) return 1;
    if (synonyms.get(q)?.has(t)) return 0.8;
    if (q.length >= 4 && t.startsWith(q)) return 0.7;
    if (typo(q, t)) return 0.6;
    if (t.length >= 3 && q.startsWith(t)) return 0.5;
    return 0;
  }

  const LETTERS = /^\p{L}+$/u;
  /**
   * One edit apart (Damerau), the longer of 5 letters or more, letters only: a typo ("Gama",
   * "Betta"), not another word ("milk" is not "mild", "Item 276" not "Item 270").
   */
  function typo(q: string, t: string): boolean {
    const d = q.length - t.length;
    if (d > 1 || d < -1 || q.length < 4 || t.length < 4 || (q.length < 5 && t.length < 5)) {
      return false;
    }
    // Most pairs differ at once: one edit keeps one of the first two letters in place or
    // shifted by one (cheap before anything else: a table's every word meets every query word).
    if (q[0] !== t[0] && q[1] !== t[1] && q[1] !== t[0] && q[0] !== t[1]) return false;
    let i = 0;
    while (i < q.length && i < t.length && q[i] === t[i]) i++;
    if (i === q.length && i === t.length) return false; // the same: not a typo
    const one = d === 0
      // One letter wrong, or swapped neighbours ("Gmama").
      ? sameFrom(q, i + 1, t, i + 1) ||
        (q[i] === t[i + 1] && q[i + 1] === t[i] && sameFrom(q, i + 2, t, i + 2))
      : d > 0
      ? sameFrom(q, i + 1, t, i)
      : sameFrom(q, i, t, i + 1);
    return one && LETTERS.test(q) && LETTERS.test(t);
  }

  /** `q` from `a` is `t` from `b` (without slicing either). */
  function sameFrom(q: string, a: number, t: string, b: number): boolean {
    for (; a < q.length; a++, b++) if (q[a] !== t[b]) return false;
    return true;
  }

  // Short words a query leaves out: "Walk the dog" is "walk dog" as typed.
  const FILLER = new Set("a an the of to in on for and or at by with my your our".split(" "));

  /**
   * Of the query's neighbouring words that `toks` both carry, the share that stand together
   * there (side by side, either order, filler words between allowed): "Item 2718" stands
   * together in "Item 2718 8154 units", apart in "Item 906 2718 units". 1 when no neighbouring
   * pair is carried (nothing to tell).
   */
  function together(toks: string[], q: string[]): number {
    let pairs = 0, side = 0;
    for (let i = 0; i + 1 < q.length; i++) {
      const a = q[i]!, b = q[i + 1]!;
      let hasA = false, hasB = false, near = false;
      for (let k = 0; k < toks.length && !near; k++) {
        const ma = wordMatch(a, toks[k]!) > 0, mb = wordMatch(b, toks[k]!) > 0;
        hasA ||= ma;
        hasB ||= mb;
        if (!ma && !mb) continue;
        let j = k + 1;
        while (j < toks.length && FILLER.has(toks[j]!)) j++;
        if (j < toks.length && wordMatch(ma ? b : a, toks[j]!) > 0) near = true;
      }
      if (near) [pairs, side] = [pairs + 1, side + 1];
      else if (hasA && hasB) pairs++;
    }
    return pairs ? side / pairs : 1;
  }

  /**
   * Coverage of the query words by a field's words, times how much of the field they cover,
   * times whether the query's neighbouring words stand together there too.
   */
  function fieldScore(field: string[], q: string[]): number {
    if (!field.length || !q.length) return 0;
    let cov = 0;
    const used = new Set<number>();
    for (const w of q) {
      let best = 0, at = -1;
      for (let i = 0; i < field.length; i++) {
        const m = wordMatch(w, field[i]!);
        if (m > best) [best, at] = [m, i];
      }
      cov += best;
      if (at >= 0) used.add(at);
    }
    const apart = used.size > 1 ? 0.15 * (1 - together(field, q)) : 0;
    return (cov / q.length) * (0.7 + 0.3 * Math.min(1, used.size / field.length)) * (1 - apart);
  }

  function fieldsScore(
    fields: Array<[string, string, number]>,
    words: string[],
    exact: string,
    phrase: string,
  ): [number, string] {
    let good = 0, best = 0, via = "";
    for (const [label, value, weight] of fields) {
      if (!value) continue;
      let s: number;
      const v = value.replace(/\s+/g, " ").trim().toLowerCase();
      if (exact) s = v === exact ? 1 : v.includes(exact) ? 0.75 : 0;
      else {
        s = v === phrase ? 1 : fieldScore(tokens(value), words);
        // "fs.watch" names `fs.watch(filename[, options])` more than `fsPromises.watch()`.
        // Only where the phrase ends at a non-word character: "fs.watch(" yes, "Save settings"
        // and "fs.watchFile" no.
        if (
          s < 1 && phrase.length > 2 && v.startsWith(phrase) &&
          /^[^\p{L}\p{N}\s]/u.test(v.slice(phrase.length))
        ) s = Math.min(0.99, s + 0.1);
      }
      s *= weight;
      if (s >= 0.5) good++;
      if (s > best) [best, via] = [s, label];
    }
    return [Math.min(1, best + 0.03 * Math.max(0, good - 1)), via];
  }

  /**
   * The shown-ish text of a subtree, whitespace collapsed, at most `max` characters, without
   * `skip`'s subtree and those `leave` picks.
   */
  // What a field holds is its value, not text about it (and may be a secret): left out, as the
  // snapshot's contexts leave it out.
  const VALUE_TAGS = new Set(["input", "textarea", "select"]);
  const editable = (e: Element) => {
    const ce = attrOf(e, "contenteditable");
    return ce !== null && ce !== "false";
  };

  function textOf(
    root: Element,
    max: number,
    skip: Element | null = null,
    leave?: (e: Element) => boolean,
  ): string {
    return walkText(root, max, skip, leave)[0];
  }

  /** {@link textOf}'s text, and whether the walk stopped before the end of the subtree. */
  function walkText(
    root: Element,
    max: number,
    skip: Element | null = null,
    leave?: (e: Element) => boolean,
  ): [string, boolean] {
    let s = "";
    if (editable(root)) return ["", false];
    const visit = (n: Node): boolean => {
      for (let c = firstOf(shadowOf(n as Element) ?? n); c; c = nextOf(c)) {
        if (nodeTypeOf(c) === 3) s += (c as Text).data;
        else if (nodeTypeOf(c) === 1) {
          const e = c as Element;
          // An element apart from its neighbours' words, left out or not ("Walk<b>x</b>dog"
          // without the <b> is "Walk dog").
          s += " ";
          if (
            e === skip || SKIP_TAGS.has(localOf(e)) || VALUE_TAGS.has(localOf(e)) ||
            editable(e) || leave?.(e)
          ) continue;
          if (visit(e)) return true;
        }
        if (s.length > max * 2) return true;
      }
      return false;
    };
    const cut = visit(root);
    return [s.replace(/\s+/g, " ").trim().slice(0, max), cut];
  }

  type Field = [string, string, number];
  function action(fields: Field[], words: string[]): [Field | null, number] {
    const verbs = words.filter((w) =>
      ACTIONS.has(w) || [...synonyms.get(w) ?? []].some((o) => ACTIONS.has(o))
    );
    if (!verbs.length || verbs.length === words.length) return [null, 1];
    let strong = false;
    const weak: string[] = [];
    for (const [, value, weight] of fields) {
      for (const t of tokens(value)) {
        if (!verbs.some((v) => wordMatch(v, t) >= 0.7)) continue;
        if (weight >= 0.8) strong = true;
        else weak.push(t);
      }
    }
    if (strong) return [null, 1];
    return weak.length ? [["action", weak.join(" "), 0.9], 1] : [null, 0.8];
  }

  api.findTokens = tokens;
  api.findWordMatch = wordMatch;
  api.findFieldScore = fieldScore;
  api.findTogether = together;
  api.findFieldsScore = fieldsScore;
  api.findTextOf = textOf;
  api.findTextWhole = (root: Element, max: number) => {
    const [text, cut] = walkText(root, max);
    return cut ? null : text;
  };
  api.findTestId = testIdOf;
  api.findSynonyms = (w: string) => [...synonyms.get(w) ?? []];
  api.findAction = action;
}
