/// <reference lib="dom" />
/**
 * Types of the values the control and inspect parts (`control_lib.ts`, `inspect_lib.ts`) hand
 * the Deno side: `choose_option`'s control state and option search, `dom_read`'s tree,
 * `styles_read` / `styles_write`'s answers. Types only; `page_types.ts` re-exports them.
 *
 * @module
 */

/**
 * What kind of control an element is for `choose_option` (control_lib.ts): a native `<select>`;
 * a `list` that shows its options itself (listbox, menu, tree: never clicked open); a
 * `combobox`; a `popup` trigger (`aria-haspopup`, `aria-expanded`, `aria-controls`,
 * `aria-owns`); a plain `button` (a dropdown without ARIA); `""` for none of these.
 */
export type ControlKind = "select" | "list" | "combobox" | "popup" | "button" | "";

/** A control's state as `choose_option` reads it (`controlState`). */
export type ControlState = {
  kind: ControlKind;
  /** Its role (`combobox`, `button`, …). */
  role: string;
  /**
   * `aria-expanded="true"`, or without `aria-expanded` a list it names (`aria-controls`,
   * `aria-owns`) shows; a `list` is always open.
   */
  expanded: boolean;
  /** Its label (labelling elements other than itself, `<label>`, `aria-label`), `""` when none. */
  label: string;
  /** What it shows as chosen (a field's value, its text, a list's selected options), ≤ 4296 chars. */
  displayText: string;
  /** How the page names it in messages (`combobox input#fruit "Fruit"`). */
  what: string;
  /** A native `<select>`'s option labels, in order. */
  options?: string[];
};

/** What `controlFind` found for an option text. */
export type OptionSearch =
  | {
    state: "found";
    /** The option's accessible name (or text). */
    name: string;
    role: string;
    /** How it was found: by role `option`, role `menuitem*`, or by its text. */
    via: "option" | "menuitem" | "text";
    /** How many options matched (the first in document order is taken). */
    matches: number;
    /** It is `aria-disabled="true"`. */
    disabled: boolean;
  }
  | {
    state: "none";
    /** The names of the options seen (first 30). */
    options: string[];
    /** How many options were seen. */
    total: number;
    /** A list that scrolls was not at its end: scrolling it may show (or load) more. */
    more: boolean;
  };

/** One DOM node of `dom_read` (`inspectTree`, inspect_lib.ts). */
export type DomNodeInfo = {
  /** Lowercase tag, or `#text`, `#shadow-root`, `#document`. */
  tag: string;
  id?: string;
  /** The class attribute, whitespace collapsed. */
  class?: string;
  /** The page-local id (`idOf`) of an element, for its ref; with `role`, `name`, `context`. */
  localId?: number;
  role?: string;
  name?: string;
  context?: [string, string];
  /** A text node's text, whitespace collapsed (≤ 4296 chars; the server cuts it). */
  text?: string;
  /** Its children in the document (element and non-blank text nodes). */
  child_count: number;
  /** The children read (absent past the depth or the node cap). */
  children?: DomNodeInfo[];
};

/** The `inspectTree` answer: the tree, whether the node cap cut it, and the world's instance. */
export type DomTreeInfo = {
  root: DomNodeInfo;
  truncated: boolean;
  nodes: number;
  instance: string;
};

/** The `inspectStyles` answer. */
export type StylesInfo = {
  /** Property → computed value, in the asked order. */
  computed: Record<string, string>;
  /** Asked names the browser does not know. */
  unknown: string[];
  /** The element's `style` attribute. */
  inline: string;
};

/** The `inspectStyleWrite` answer. */
export type StyleWriteInfo =
  | { ok: true; inline: string; computed: string }
  | { ok: false; error: string };
