/**
 * `find`'s query language, parsed without a model: what an agent writes ("the Save button in
 * the editor toolbar", "email field", "second Delete in the Orders table") split into the words
 * of the element's name, the role words, where it sits ("in / inside / within / under / on the
 * …"), what it sits beside ("next to / near / beside / for …"), an ordinal ("second", "3rd",
 * "last", "second to last") and a quoted exact name.
 *
 * @module
 */

/** A parsed query. */
export interface ParsedQuery {
  /** Words of the element's name (lower case; role, stop and ordinal words left out). */
  words: string[];
  /** A quoted name (`"Save"` in the query), or `""`. */
  exact: string;
  /** Roles the role words ask for (any when empty). */
  roles: string[];
  /** Words after "in / inside / within / under / on". */
  context: string[];
  /** Words after "next to / near / beside / for". */
  near: string[];
  /** Every non-role, non-ordinal word in order, prepositions kept: the query read as a name. */
  whole: string[];
  /** 1-based position among the matches; negative from the end (-1 = last); undefined: none. */
  ordinal?: number;
}

const TEXT_ENTRY = ["textbox", "searchbox", "combobox", "spinbutton"];
/** Role words, one or two words long, and the roles they ask for. */
const ROLE_WORDS: Record<string, string[]> = {
  "button": ["button"],
  "btn": ["button"],
  "link": ["link"],
  "hyperlink": ["link"],
  "field": TEXT_ENTRY,
  "input": TEXT_ENTRY,
  "textbox": TEXT_ENTRY,
  "text box": TEXT_ENTRY,
  "textfield": TEXT_ENTRY,
  "text field": TEXT_ENTRY,
  "text input": TEXT_ENTRY,
  "textarea": ["textbox"],
  "box": TEXT_ENTRY,
  "search box": ["searchbox", "textbox", "combobox"],
  "searchbox": ["searchbox", "textbox", "combobox"],
  "checkbox": ["checkbox", "switch", "menuitemcheckbox"],
  "check box": ["checkbox", "switch", "menuitemcheckbox"],
  "tickbox": ["checkbox"],
  "radio": ["radio", "menuitemradio"],
  "radio button": ["radio", "menuitemradio"],
  "switch": ["switch", "checkbox"],
  "tab": ["tab"],
  "menu item": ["menuitem", "menuitemcheckbox", "menuitemradio"],
  "menuitem": ["menuitem", "menuitemcheckbox", "menuitemradio"],
  "heading": ["heading"],
  "header": ["heading"],
  "headline": ["heading"],
  "title": ["heading"],
  // "haspopup": a control with aria-haspopup (a menu button), not any button.
  "dropdown": ["combobox", "listbox", "haspopup"],
  "drop down": ["combobox", "listbox", "haspopup"],
  "drop-down": ["combobox", "listbox", "haspopup"],
  "select": ["combobox", "listbox"],
  "combobox": ["combobox"],
  "combo box": ["combobox"],
  "listbox": ["listbox"],
  "list box": ["listbox"],
  "slider": ["slider"],
  "option": ["option"],
  "image": ["img"],
  "img": ["img"],
  "picture": ["img"],
  "photo": ["img"],
  "dialog": ["dialog", "alertdialog"],
  "modal": ["dialog", "alertdialog"],
  // A row or list item as a whole ("the Item 2718 row"): its text is its name.
  "row": ["row"],
  "table row": ["row"],
  "list item": ["listitem"],
  "listitem": ["listitem"],
};
// Words that carry no meaning for the match in the element's own part.
const STOP = new Set(
  ("the a an this that these those please click press tap hit choose pick type enter into " +
    "to called named labeled labelled label says saying reads reading with text element one " +
    "which is and or its it thing control icon of at").split(" "),
);
// Kept where they name things ("Sign in", "Log in", "Add on", "Sort by", "Search for").
const VERB_PARTICLES = new Set(
  "sign log logged check opt plug zoom add turn sort group order search look apply".split(" "),
);
const CONTEXT_WORDS = new Set(["in", "inside", "within", "under", "on", "from"]);
const NEAR_WORDS = new Set(["near", "beside", "for", "by", "after", "alongside"]);
const ORDINALS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  last: -1,
};
// An ordinal word before these is part of a name ("First name", "Last page").
const ORDINAL_NAMES = new Set(["name", "names", "page", "step", "quarter"]);

function ordinalOf(w: string): number | undefined {
  if (w in ORDINALS) return ORDINALS[w];
  const m = /^(\d{1,2})(st|nd|rd|th)$/.exec(w);
  return m ? Number(m[1]) : undefined;
}

/**
 * Parses a query (see the module doc). `role`, when given, is the only role asked for.
 * Never throws; an empty result (no words, roles, context) is the caller's to refuse.
 */
export function parseQuery(query: string, role?: string): ParsedQuery {
  let exact = "";
  const unquoted = query.replace(/"([^"]+)"|“([^”]+)”/, (_m, a, b) => {
    exact = String(a ?? b ?? "").trim();
    return " ";
  });
  // How to press says nothing of what: "double-click to edit Walk dog" is "edit Walk dog".
  const how = unquoted.replace(/\b(?:double|dbl)[- ]?click(?:s|ed|ing)?\b/gi, " ");
  // Dots stay inside words ("fs.watch"), not at their ends.
  const toks = how.toLowerCase().replace(/'s\b/g, "").replace(/[^\p{L}\p{N}\-#.]+/gu, " ")
    .split(" ").map((t) => t.replace(/^\.+|\.+$/g, "")).filter((t) => t && t !== "-");
  const head: string[] = [], context: string[] = [], near: string[] = [], whole: string[] = [];
  const roles = new Set<string>();
  let bucket = head;
  let ordinal: number | undefined;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!, next = toks[i + 1];
    const prev = toks[i - 1];
    // "second to last", "second last"
    const ord = ordinalOf(t);
    if (ord !== undefined && !(next && ORDINAL_NAMES.has(next))) {
      if (ord > 0 && next === "to" && toks[i + 2] === "last") {
        ordinal = -ord;
        i += 2;
      } else if (ord > 0 && next === "last") {
        ordinal = -ord;
        i += 1;
      } else ordinal = ord;
      continue;
    }
    if (t === "next" && next === "to" && toks.length > i + 2) {
      bucket = near;
      whole.push("next", "to");
      i++;
      continue;
    }
    if (!(bucket === head && ROLE_WORDS[t])) whole.push(t);
    const particle = prev !== undefined && VERB_PARTICLES.has(prev) && bucket === head;
    if (i > 0 && i < toks.length - 1 && !particle) {
      if (CONTEXT_WORDS.has(t)) {
        bucket = context;
        continue;
      }
      if (NEAR_WORDS.has(t)) {
        bucket = near;
        continue;
      }
    }
    if (bucket === head) {
      const two = next ? `${t} ${next}` : "";
      const hit = ROLE_WORDS[two] ? two : ROLE_WORDS[t] ? t : undefined;
      if (hit) {
        for (const r of ROLE_WORDS[hit]!) roles.add(r);
        if (hit === two) i++;
        // "search box": the word says what it is for, too.
        if (hit.startsWith("search")) head.push("search");
        continue;
      }
    }
    if (STOP.has(t) && !(particle && bucket === head)) continue;
    bucket.push(t);
  }
  return {
    words: head,
    exact,
    roles: role ? [role] : [...roles],
    context,
    near,
    whole: whole.filter((w) => !STOP.has(w)),
    ...(ordinal !== undefined ? { ordinal } : {}),
  };
}

/** True when a parsed query asks for nothing at all (only stop words). */
export function isEmptyQuery(q: ParsedQuery): boolean {
  return !q.words.length && !q.exact && !q.roles.length && !q.context.length && !q.near.length;
}
