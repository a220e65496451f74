/// <reference lib="dom" />
/**
 * Types of the values the page-side parts (`*_lib.ts`) hand each other and
 * the Deno side: objects with methods that stay in the page (an outline
 * buffer, a link writer, the form kit) and the JSON shapes results take
 * across `Runtime.evaluate` / `Runtime.callFunctionOn` with `returnByValue`.
 * Types only: nothing here is sent to the page.
 *
 * @module
 */

/** The outline buffer `newOutline()` (outline_lib.ts) creates (documented for the Deno side's types). */
export interface Outline {
  /** Appends text to the current run; a run becomes one line (whitespace collapsed unless `pre`). */
  addText(s: string, depth: number, pre: boolean): void;
  /** Ends the current run. */
  flush(): void;
  /**
   * Adds a node line (`kind` 1, 2 when it carries a ref, 4 a `## heading`, 5 a `*` list item);
   * returns its index.
   */
  node(depth: number, text: string, name: string, kind: number): number;
  /** Adds a line as is (no folding). */
  raw(depth: number, text: string): void;
  /** Folds after a node's children; see the rules in the module doc. */
  finish(idx: number, depth: number, conditional: boolean, canMerge: boolean): void;
  /** Number of lines so far (after a flush). */
  size(): number;
  /** True when every line from `start` on is plain text. */
  plainFrom(start: number): boolean;
  /** Turns the lines of a row's cells (`[start, end)` ranges) into `| a | b |` or nodes. */
  foldRow(start: number, depth: number, cells: Array<[number, number]>): void;
  /** The outline text, 2 spaces of indentation per depth. */
  render(): string;
}

/** What `newLinks()` returns: one per snapshot walk (it remembers the URLs it showed). */
export interface LinkWriter {
  /** The URL to show for a link: same-origin as a path, none for in-page anchors and `#`. */
  urlOf(el: Element): string;
  /** `url`, or `""` when this text with this URL was shown already or the link targets itself. */
  shownUrl(el: Element, name: string, url: string): string;
  /** True for a permalink mark: `#`, `¶`, `§`, 🔗 or no text, linking to its own heading. */
  isPermalink(el: Element, name: string): boolean;
  /** The heading's name without a trailing permalink mark it holds. */
  headingName(el: Element, name: string): string;
}
