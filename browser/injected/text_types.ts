/// <reference lib="dom" />
/**
 * Types of the text parts (`text_lib.ts`, `section_lib.ts`, `read_lib.ts`) and their answers:
 * a `text=` match, the text walk's hook, a frame's text and sections for `text_search`, a
 * section as a ref needs it, and a page's text as `read_page` shows it. Types only: nothing
 * here is sent to the page.
 *
 * @module
 */
import type { RefDescription } from "./page_types.ts";

/** One match of a `text=` selector, for choosing among several (`queryMatches`, text_lib.ts). */
export type TextMatchInfo = {
  /** The match's role, or that of the control it sits in (`button`); `text` for plain text. */
  role: string;
  /**
   * Its control's accessible name, or its own text, whitespace collapsed, at most 4296
   * characters (the server cuts it, clear of secrets); `""` past the first 50 described.
   */
  name: string;
  /** It is, or sits in, a control, a link, a label of a control or a click handler. */
  actionable: boolean;
  /** Its shown text, raw (asked for under masking: the server judges it for secrets). */
  text?: string;
  /** Its shown text is the text sought, whole (case and spaces aside). */
  exact?: boolean;
  /** It (with its ancestors) is drawn at an opacity under 0.1: a person does not see it. */
  faint?: boolean;
  /** Where it sits (its row's or card's context text), when another match is described alike. */
  where?: string;
};

/**
 * Told of each shown element of a text walk (`textWalk`), in document (flat tree) order:
 * `enter` before its content, `leave` after it, with the offset reached in the collapsed text.
 * `flags` are the walk's visibility flags (bit 4: inside `visibility: hidden`).
 */
export type TextWalkHook = {
  enter: (el: Element, at: number, flags: number) => void;
  leave: (el: Element, at: number) => void;
};

/**
 * One frame's text for `text_search` (`textSections`): the collapsed text, its sections and
 * iframes. `spans` holds five numbers per section: kind (0 a heading's section, 1 a table, 2 a
 * list, 3 a form, 4 a landmark or dialog, 5 a table row), start and end offsets in `text`,
 * heading level (0 for others), and the index `textSectionInfo` takes.
 */
export type TextSections = {
  text: string;
  spans: number[];
  /** `[iframe's page-local id, offset in text]`, in order. */
  frames: Array<[number, number]>;
  /** Names this walk for `textSectionInfo`. */
  token: number;
  /** The world's instance id (refs record it). */
  instance: string;
  /** The text was longer than 16 million chars: only its start is here. */
  cut: boolean;
};

/** A section element as a ref needs it (`textSectionInfo`), and the name a result shows. */
export type SectionInfo = RefDescription & { localId: number; shown: string };

/** A page's or a region's text as `read_page` shows it (`readText`). */
export type ReadText = {
  /** One line per block, whitespace collapsed. */
  text: string;
  /** Shown links, de-duplicated by absolute URL, at most 100. */
  links: Array<{ text: string; href: string }>;
  /** More distinct links were left out. */
  moreLinks: boolean;
};

/**
 * A scroll box that hides content (`scrollBoxes`, scroll_box_lib.ts): what a ref records, and
 * its mark without brackets (`scroll: 1% shown, more below`).
 */
export type ScrollBox = RefDescription & { localId: number; mark: string };
