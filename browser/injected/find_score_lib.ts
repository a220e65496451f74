/// <reference lib="dom" />
/**
 * Page-side scoring for `find`: a scorer per query that rates one element at a time (the walk
 * of `find_lib.ts` hands it every candidate) and keeps the matches. Words against the
 * accessible name, the shown text, placeholder, title, alt, test ids, id, name and class, and
 * for a control with none of the words the text of the row or list item it sits in; the role
 * against the role words; the context words against where the element sits (`find_place_lib.ts`).
 * Words and texts are compared by `find_words_lib.ts`.
 *
 * Sent as source text: {@link installFindScoreLib} must not use anything from its module scope.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";
import type { FindItem, FindQuery, FindScorer } from "./page_types.ts";

/**
 * Adds to the utility api `findScorer(query) → FindScorer`: the query's words, roles and an
 * empty list of items; its `score(el, role, hidden, skip, item, shown?)` adds `el` to the items
 * when it matches (scored 0..1, with the parts and the evidence `find` shows), `heading(el)`
 * tells it the walk passed a shown heading (the place of what follows).
 */
export function installFindScoreLib(api: PageApi): void {
  const { localOf, attrOf, hasAttrOf, visibleEl, matchesOf, textContentOf, qsaOf } = api.dom;
  type Fn<A extends unknown[], R> = (...a: A) => R;
  const roleOf = api.roleOf as Fn<[Element], string>;
  const nameOf = api.nameOf as Fn<[Element], string>;
  const refRole = api.refRole as Fn<[Element], string>;
  const isEditableRoot = api.isEditableRoot as Fn<[Element], boolean>;
  const contextOf = api.contextOf as Fn<[Element, string, string], [string, string]>;
  const setStaticOnly = api.setStaticOnly as Fn<[boolean], void>;
  const idOf = api.idOf as Fn<[Element], number>;
  const tokens = api.findTokens as Fn<[string], string[]>;
  const wordMatch = api.findWordMatch as Fn<[string, string], number>;
  const fieldScore = api.findFieldScore as Fn<[string[], string[]], number>;
  const fieldsScore = api.findFieldsScore as Fn<
    [Array<[string, string, number]>, string[], string, string],
    [number, string]
  >;
  const textOf = api.findTextOf as Fn<
    [Element, number, (Element | null)?, ((e: Element) => boolean)?],
    string
  >;
  const testIdOf = api.findTestId as Fn<[Element], string>;
  const synonymsOf = api.findSynonyms as Fn<[string], string[]>;
  const actionOf = api.findAction as Fn<[Field[], string[]], [Field | null, number]>;
  type Bag = Array<[string, number, string]>;
  type Field = [string, string, number];
  type Match = [number, string];
  const findPlaceBag = api.findPlaceBag as Fn<[Element, string, string?], Bag>;
  const findNearBag = api.findNearBag as Fn<[Element, number, (Element | null)?], Bag>;
  const bagScore = api.findBagScore as Fn<[Bag, string[]], [number, string]>;
  const itemMatch = api.findItemMatch as Fn<[Element, Element, Field[], string[], string], Match>;
  const itemBound = api.findItemBound as Fn<[Element, Field[], string[], string], number>;
  const placeBound = api.findPlaceBound as Fn<[Element, Element, string, string, string[]], number>;
  const isItem = api.findIsItem as Fn<[Element], boolean>;
  type Where = { heading: string; frame: string; twin: boolean };
  const findMissing = api.findMissing as Fn<[Element, string, string[], Where], string[]>;

  const WIDGETS = new Set(
    ("button link checkbox radio textbox searchbox combobox listbox slider spinbutton switch " +
      "tab menuitem menuitemcheckbox menuitemradio option treeitem").split(" "),
  );
  const CLICKABLE = new Set(
    "button link menuitem tab generic option treeitem switch menuitemcheckbox".split(" "),
  );
  /**
   * What a combobox shows as its value, as the snapshot does ("Pick a size", a select's chosen
   * option): people name the control by it. Never a typed value (a field's may be a secret).
   */
  const shownValue = (el: Element): string => {
    if (localOf(el) === "select") {
      return [...(el as HTMLSelectElement).selectedOptions].map((o) => o.label).join(" ");
    }
    return attrOf(el, "role") === "combobox" ? textOf(el, 120) : "";
  };
  // A row's own words leave out its controls' (they are candidates of their own).
  const isControl = (e: Element) => WIDGETS.has(refRole(e)) || isEditableRoot(e);

  function scorer(q: FindQuery): FindScorer {
    const words = tokens(q.words.join(" "));
    const exact = q.exact.replace(/\s+/g, " ").trim().toLowerCase();
    const ctxWords = tokens(q.context.join(" "));
    const nearWords = tokens(q.near.join(" "));
    const whole = tokens(q.whole.join(" "));
    const roles = new Set(q.roles);
    // "edit Walk dog": the verb beside the words of what is edited.
    const editSyn = ["edit", ...synonymsOf("edit")];
    const editVerbs = exact ? [] : words.filter((w) => editSyn.includes(w));
    const asksEdit = editVerbs.length > 0 && editVerbs.length < words.length;
    // Cheap test before a name is computed: some query word (or a synonym) appears at all.
    const probes = [...words, ...exact ? tokens(exact) : []].flatMap((w) => [
      w.slice(0, 4),
      ...synonymsOf(w).map((s) => s.slice(0, 4)),
    ]);
    const items: FindItem[] = [];
    // Each item's element, and whether it sat in skipped content (static checks only there).
    const els = new Map<number, [Element, boolean]>();
    // Each item's own words (its fields' values joined) and the heading it sat under.
    const owns = new Map<number, [string, string]>();
    const itemWords = [...words, ...nearWords];
    const headingNames = new Map<Element, string>();
    let lastHeading: Element | null = null;
    let order = 0;

    function nameIn(el: Element, skip: boolean): string {
      if (!skip) return nameOf(el);
      setStaticOnly(true);
      try {
        return nameOf(el);
      } finally {
        setStaticOnly(false);
      }
    }

    function haystack(el: Element): string {
      let s = textOf(el, 300) + " " + shownValue(el);
      for (const a of el.getAttributeNames()) {
        if (a === "style" || a === "d" || a === "src" || a === "srcset") continue;
        s += " " + (attrOf(el, a) ?? "").slice(0, 200);
      }
      if (localOf(el) === "input" || localOf(el) === "textarea" || localOf(el) === "select") {
        // A control's label may sit anywhere: its name is the honest haystack.
        s += " " + nameOf(el);
      }
      return s.toLowerCase();
    }

    const headingNow = () => {
      let heading = "";
      if (lastHeading) {
        heading = headingNames.get(lastHeading) ?? nameOf(lastHeading).slice(0, 80);
        headingNames.set(lastHeading, heading);
      }
      return heading;
    };
    const placeBag = (el: Element) => findPlaceBag(el, headingNow(), q.frame);
    // The best `q.max` scores so far, best first. A control that cannot score more than the
    // last of them is not read further: it comes after them in page order, so it would not
    // be returned (an ordinal query counts every close match, a remembered one always comes).
    const top: number[] = [];
    const bounded = !q.ends && !exact && !roles.size && !ctxWords.length && !nearWords.length &&
      q.max > 0;
    const keepTop = (score: number) => {
      if (!bounded) return;
      let i = top.length;
      while (i > 0 && top[i - 1]! < score) i--;
      if (i >= q.max) return;
      top.splice(i, 0, score);
      if (top.length > q.max) top.pop();
    };
    const nearBag = (el: Element, stop?: Element | null) =>
      findNearBag(el, Math.max(1, nearWords.length || words.length), stop);
    /**
     * How a row's text is edited in place, or "": `field` when the row holds a hidden text field
     * whose value is the text (a todo's label and its `input.edit`, shown when the label is
     * double-clicked); `row` when the row has no shown field and nothing in it says the edit
     * verb (the field is made on double-click: TodoMVC's vanilla app).
     */
    const editsInPlace = (host: Element, shown: string): "field" | "row" | "" => {
      const norm = (v: string) => v.replace(/\s+/g, " ").trim().toLowerCase();
      const text = norm(shown);
      let open = false;
      for (const f of qsaOf(host, "input, textarea")) {
        const type = localOf(f) === "input" ? (f as HTMLInputElement).type : "text";
        if (type !== "text") continue;
        if (!visibleEl(f)) {
          if (norm((f as HTMLInputElement).value) === text) return "field";
        } else open = true;
      }
      if (open) return "";
      for (const e of qsaOf(host, "*")) {
        const own = [
          e.id,
          attrOf(e, "class"),
          attrOf(e, "title"),
          attrOf(e, "aria-label"),
          WIDGETS.has(refRole(e)) ? textContentOf(e) : "",
        ];
        if (tokens(own.join(" ")).some((t) => editSyn.includes(t))) return "";
      }
      return "row";
    };
    const itemHays = new Map<Element, string>();
    const itemHay = (item: Element) => {
      let hay = itemHays.get(item);
      if (hay === undefined) itemHays.set(item, hay = textOf(item, 160).toLowerCase());
      return hay;
    };

    /**
     * Scores `el` and adds it to the items when it matches. `item`: the row or list item it sits
     * in (its text may name it). `shown`: a text candidate, matched by that text alone.
     */
    function score(
      el: Element,
      role: string,
      hidden: boolean,
      skip: boolean,
      item: Element | null,
      shown = "",
      host: Element | null = null,
    ) {
      const ord = order++;
      const tag = localOf(el);
      const asLabel = tag === "label" ? (el as HTMLLabelElement).control : null;
      const effRole = asLabel ? roleOf(asLabel) : role;
      if (q.hard && !roles.has(effRole) && !roles.has(role)) return;
      const testId = testIdOf(el);
      const idAttr = el.id;
      // The same element as a remembered one: same role, then the same test id, else the same
      // id, else the same name in the same place (two "Save" buttons differ by their toolbar).
      const remembered = q.remember.findIndex((r) => {
        if (r.role !== role) return false;
        if (r.testId || testId) return r.testId === testId;
        if (r.idAttr || idAttr) return r.idAttr === idAttr;
        const n = nameIn(el, skip);
        return r.name === n && r.context === contextOf(el, role, n).join("\u0000");
      });
      if (
        (words.length || exact) && remembered < 0 && (shown || !hasAttrOf(el, "aria-labelledby"))
      ) {
        // Cheap before anything is scored: most text on a page is not asked for.
        const hay = shown ? shown.toLowerCase() : haystack(el);
        if (!probes.some((p) => hay.includes(p))) {
          if (!item || !probes.some((p) => itemHay(item).includes(p))) return;
        }
      }
      // Asked to edit a text edited in place: the text is what a person double-clicks.
      const inPlace = asksEdit && shown && host ? editsInPlace(host, shown) : "";
      // A text candidate (never hidden) is matched by its text alone: its name is asked for
      // once it is kept (a big table's every cell is one).
      let name = shown ? "" : nameIn(el, skip);
      const text = hidden && !name ? textOf(el, 120) : "";
      // A row's own words: its text without its controls' ("Delete row 5" is its Delete button).
      const said = !shown && isItem(el) && !WIDGETS.has(role)
        ? textOf(el, 120, null, isControl)
        : null;
      let nameScore = -1, via = "", where = "";
      let own = "";
      const phrase = q.words.join(" ");
      if (words.length || exact) {
        const asShown = inPlace ? `${editVerbs.join(" ")} ${shown}` : shown;
        const fields: Field[] = shown ? [[`text "${shown.slice(0, 30)}"`, asShown, 1]] : [
          ["name", said ?? (name || text), 1],
          ["text", said === null && name ? textOf(el, 120) : "", 0.9],
          ["placeholder", attrOf(el, "placeholder") ?? "", 0.9],
          ["value", role === "combobox" ? shownValue(el) : "", 0.9],
          ["title", attrOf(el, "title") ?? "", 0.8],
          ["alt", attrOf(el, "alt") ?? "", 0.9],
          ["testid", testId, 0.85],
          ["id", idAttr, 0.7],
          ["name attr", attrOf(el, "name") ?? "", 0.7],
          ["class", typeof el.className === "string" ? el.className : "", 0.5],
          ["label", asLabel ? nameOf(asLabel) : "", 0.9],
        ];
        if (tag === "a") fields.push(["href", attrOf(el, "href") ?? "", 0.4]);
        // "delete Walk dog": the control that says the action, not the one with the row's words.
        const [act, verbless] = actionOf(fields, shown || exact ? [] : words);
        if (act) fields.push(act);
        own = fields.map(([, v]) => v).join(" ");
        [nameScore, via] = fieldsScore(fields, words, exact, phrase);
        // Words it does not carry, and whether its place may give credit for them (below).
        let left: string[] = [];
        const placed = nameScore > 0.1 && nameScore < 0.95 && words.length > 1 && !exact && !shown;
        if (placed) {
          const cls = typeof el.className === "string" ? el.className : "";
          const own = tokens(
            [said ?? name, text, attrOf(el, "placeholder"), testId, el.id, cls].join(" "),
          );
          left = words.filter((w) => !own.some((t) => wordMatch(w, t) >= 0.7));
        }
        // A big table's controls: most cannot make the best, and reading their rows is most
        // of the work.
        if (
          bounded && remembered < 0 && !shown && item && !isItem(el) && top.length >= q.max
        ) {
          let most = nameScore;
          if (placed && left.length && left.length < words.length) {
            const s = placeBound(el, item, headingNow(), q.frame ?? "", left);
            most += (1 - most) * 0.8 * s * (1 - left.length / (words.length + 1));
          }
          most = Math.max(most, itemBound(item, fields, words, exact));
          most *= WIDGETS.has(effRole) || role === "generic" || role === "textbox"
            ? 1
            : effRole === "heading"
            ? 0.9
            : 0.8;
          if (hidden) most *= 0.8;
          if (Math.round(most * 1000) / 1000 <= top[q.max - 1]!) return;
        }
        // "Edit order 1003", "Read more about Chromium": words the element does not carry may
        // describe where it is (its row, its article, its table): partial credit from there.
        if (placed) {
          if (left.length && left.length < words.length) {
            // Around a row is other rows: where it sits may name it, its neighbours do not.
            // Around a control in a row, only its own row: the rows beside it name other items.
            const bag = isItem(el) ? placeBag(el) : [...nearBag(el, item), ...placeBag(el)];
            const [s, label] = bagScore(bag, left);
            if (s > 0) {
              nameScore += (1 - nameScore) * 0.8 * s * (1 - left.length / (words.length + 1));
              where = label;
            }
          }
        }
        // Text is only what it says: "delete Walk dog" is not the "Walk dog" label, and "Delete"
        // is not "Delete order #1002?" (the query must be most of the text).
        if (shown && !exact) {
          const own = tokens(asShown);
          const missed = words.filter((w) => !own.some((t) => wordMatch(w, t) >= 0.5)).length;
          const said = own.filter((t) => words.some((w) => wordMatch(w, t) >= 0.5)).length;
          if (said * 2 < own.length) return;
          nameScore *= 0.5 ** missed;
        }
        const bar = shown ? 0.5 : 0.25;
        // "Walk dog checkbox": a control without those words, in the "Walk dog" row. Its row is
        // read only when that can count: when it may score more, and enough to be kept.
        if (item && nameScore < 0.9) {
          const most = itemBound(item, fields, words, exact);
          if (most > nameScore && (most >= bar || remembered >= 0)) {
            const [s, label] = itemMatch(item, el, fields, words, exact);
            if (s > nameScore) [nameScore, via, where] = [s, label, ""];
          }
        }
        if (nameScore < bar && remembered < 0) return;
        nameScore *= verbless;
        // Nothing in its row says so: likely, not known.
        if (inPlace === "row") nameScore *= 0.9;
      }
      if (shown) name = nameIn(el, skip);
      let roleScore = -1;
      if (roles.size) {
        roleScore = roles.has(effRole) || roles.has(role) ||
            // "dropdown": a button that opens a popup (a menu button) is one; a plain one is not.
            (roles.has("haspopup") && /^(?:true|menu|listbox|tree|grid|dialog)$/.test(
              attrOf(el, "aria-haspopup") ?? "",
            ))
          ? 1
          : !shown && CLICKABLE.has(effRole) && [...roles].some((r) => CLICKABLE.has(r))
          ? 0.5
          // "Delete the Item 5 row": a control in the row asked for may be what is meant.
          : item && roles.has(roleOf(item))
          ? 0.5
          : 0;
        if (nameScore < 0 && roleScore < 1 && remembered < 0) return;
      }
      let ctxScore = -1;
      if (ctxWords.length || nearWords.length) {
        const [c, cl] = bagScore(ctxWords.length ? placeBag(el) : [], ctxWords);
        const [n, nl] = bagScore(nearWords.length ? nearBag(el) : [], nearWords);
        ctxScore = c >= 0 && n >= 0 ? (c + n) / 2 : Math.max(c, n);
        where = c >= n ? cl : nl;
      }
      // "Edit on GitHub", "View on single page": the whole query may be the name itself.
      if (whole.length > words.length && (q.context.length || q.near.length)) {
        const full = Math.max(
          fieldScore(tokens(name || text), whole),
          name ? fieldScore(tokens(textOf(el, 120)), whole) : 0,
        );
        if (full >= 0.85 && full > nameScore) {
          [nameScore, ctxScore, via, where] = [full, -1, "name", ""];
        }
      }
      let sum = 0, weights = 0;
      for (const [s, w] of [[nameScore, 3], [roleScore, 1.5], [ctxScore, 2]] as const) {
        if (s < 0) continue;
        sum += s * w;
        weights += w;
      }
      let total = weights ? sum / weights : 0;
      if (!roles.size) {
        total *= shown
          ? 0.85
          : WIDGETS.has(effRole) || role === "generic" || role === "textbox"
          ? 1
          : effRole === "heading"
          ? 0.9
          : 0.8;
      }
      const disabled = attrOf(el, "aria-disabled") === "true" ||
        ("disabled" in el && matchesOf(el, ":disabled"));
      // Less than a visible twin, not less than a row asked for by name: controls shown on
      // hover are hidden in every row but the one under the pointer.
      if (hidden) total *= 0.8;
      if (disabled) total *= 0.9;
      if (total <= 0.05 && remembered < 0) return;
      keepTop(Math.round(total * 1000) / 1000);
      els.set(items.length, [el, skip]);
      if (!exact && itemWords.length) owns.set(items.length, [own || name, headingNow()]);
      items.push({
        id: idOf(el),
        role,
        name,
        score: Math.round(total * 1000) / 1000,
        parts: [nameScore, roleScore, ctxScore].map((x) =>
          Math.round(x * 100) / 100
        ) as FindItem["parts"],
        via,
        where,
        hidden,
        disabled,
        order: ord,
        // Filled in for the items returned only (a context reads the row's text).
        context: ["", ""],
        testId,
        idAttr,
        remembered,
        ...(inPlace ? { editsInPlace: inPlace } : {}),
      });
    }

    return {
      words,
      exact,
      roles,
      items,
      els,
      score,
      missing: (i: number, twin: boolean) => {
        const got = owns.get(i), at = els.get(i);
        if (!got || !at) return [];
        return findMissing(at[0], got[0], itemWords, {
          heading: got[1],
          frame: q.frame ?? "",
          twin,
        });
      },
      heading: (el: Element) => {
        lastHeading = el;
      },
      scanned: () => order,
    };
  }

  api.findScorer = scorer;
}
