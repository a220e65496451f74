/**
 * `text_search`: matches of a phrase or an RE2 pattern in a tab's visible text (the text model
 * of `browser/injected/text_lib.ts`: what the snapshot shows, `content-visibility: auto`
 * sections included), every frame in snapshot order, each with an excerpt, its heading and a
 * ref of the section it sits in (a heading's section, a table row, a list, a form, a landmark) that
 * `snapshot({ ref })` scopes to.
 *
 * The page only hands over its text and section offsets (`textSections`, section_lib.ts); the
 * matching runs here, on RE2 for patterns (linear time, whatever the agent sends). Under
 * masking the text is masked before it is searched: a secret's value never matches.
 *
 * @module
 */
import { RE2JS } from "re2js";
import type { Page } from "../../cdp/page.ts";
import { compileAgentRegex } from "../agent_pattern.ts";
import { callUtility } from "../injected/mod.ts";
import type { SectionInfo, TextSections } from "../injected/text_types.ts";
import { currentMasker } from "../secret_scope.ts";
import { ToolError } from "../tool_error.ts";
import { contentFrameId } from "./frame_owner.ts";
import type { RefRegistry } from "./refs.ts";

/** What to search for, and how much to answer. */
export interface TextSearchOptions {
  /** A phrase (whitespace collapsed), or an RE2 pattern with `regex`. */
  query: string;
  regex?: boolean | undefined;
  /** Default false: any case. */
  caseSensitive?: boolean | undefined;
  /** Matches answered (the first in snapshot order), ≥ 1. */
  limit: number;
  /** Characters of text either side of a match in its excerpt. */
  contextChars: number;
  /** A child frame showing `url` is not read when this returns a note (the navigation policy). */
  frameNote?: ((url: string, frameId: string) => string | undefined) | undefined;
  /** The call's signal. */
  signal?: AbortSignal | undefined;
}

/** One match. */
export interface TextMatch {
  /** The match with `contextChars` of text either side (`…` where cut). */
  excerpt: string;
  /** The matched text (pattern searches only). */
  match?: string;
  /** The nearest heading above it whose section holds it. */
  heading?: string;
  /** The innermost section holding it: `snapshot({ ref })` shows just that section. */
  sectionRef?: string;
  /** The heading's ref, when the section is a smaller one inside the heading's. */
  headingRef?: string;
  /** The URL of the frame it is in, when not the tab's main frame. */
  frame?: string;
}

/** What a search found. */
export interface TextSearchResult {
  matches: TextMatch[];
  /** Every match on the page (counted up to {@link MAX_COUNTED}). */
  total: number;
  /**
   * The end of the page was not searched: the pattern ran out of its work budget, or a frame's
   * text is longer than 16 million chars.
   */
  truncatedScan?: boolean;
}

/** Matches counted at most. */
export const MAX_COUNTED = 10_000;
/** Work a pattern search may spend, RE2 instructions × characters (measured ≈ 6 ns each). */
const WORK_BUDGET = 100_000_000;
/** Longest match shown in an excerpt, chars. */
const MAX_MATCH_SHOWN = 200;
const MAX_FRAME_DEPTH = 8;

interface Finder {
  /** Matches of `text` as `[start, end)`, at most `max`; stops at `maxChars` for patterns. */
  find(text: string, max: number): { found: Array<[number, number]>; cut: boolean };
}

/**
 * Checks the query and builds its finder, before the page is read.
 *
 * @throws ToolError `invalid-argument` for an empty query or an invalid / too big pattern.
 */
function finderFor(options: TextSearchOptions): Finder {
  const query = options.regex ? options.query : options.query.replace(/\s+/g, " ").trim();
  if (!query) {
    throw new ToolError(
      "invalid-argument",
      "Empty query: text_search needs words or a pattern to look for",
      'pass the words to find, e.g. text_search({ query: "fs.watch" })',
    );
  }
  const caseInsensitive = !options.caseSensitive;
  if (!options.regex) {
    const want = caseInsensitive ? query.toLowerCase() : query;
    return {
      find(text, max) {
        const hay = caseInsensitive ? text.toLowerCase() : text;
        // Lower-casing changed some offsets (rare letters): let RE2 match the phrase instead.
        if (hay.length !== text.length) {
          return regexFinder(RE2JS.quote(query), true).find(text, max);
        }
        const found: Array<[number, number]> = [];
        for (
          let i = hay.indexOf(want);
          i >= 0 && found.length < max;
          i = hay.indexOf(want, i + 1)
        ) {
          found.push([i, i + want.length]);
        }
        return { found, cut: false };
      },
    };
  }
  return regexFinder(query, caseInsensitive);
}

function regexFinder(pattern: string, caseInsensitive: boolean): Finder {
  const { re, programSize } = compileAgentRegex(pattern, { caseInsensitive, field: "query" });
  let budget = WORK_BUDGET;
  return {
    find(text, max) {
      const chars = Math.min(text.length, Math.floor(budget / programSize));
      budget -= chars * programSize;
      return {
        ...scan(re, chars < text.length ? text.slice(0, chars) : text, max),
        cut: chars < text.length,
      };
    },
  };
}

function scan(re: RE2JS, text: string, max: number): { found: Array<[number, number]> } {
  const found: Array<[number, number]> = [];
  const m = re.matcher(text);
  while (found.length < max && m.find()) {
    if (m.end() > m.start()) found.push([m.start(), m.end()]);
  }
  return { found };
}

/** One frame's text as searched: masked, its sections and matches. */
interface FrameRead {
  frameId: string;
  loaderId: string;
  url: string;
  main: boolean;
  text: string;
  spans: number[];
  token: number;
  instance: string;
  /** Orders frames in snapshot order: the iframes' offsets from the main frame down. */
  key: number[];
  found: Array<[number, number]>;
}

/** The last text read per tab and frame: read again only when the frame changed. */
const lastRead = new WeakMap<Page, Map<string, { loaderId: string; sections: TextSections }>>();

/**
 * A frame's text and sections (`textSections`), from the last read while the frame's document
 * and its mutation generation are unchanged (the 5.8 MB Node docs take ~0.4 s to walk).
 */
async function frameSections(
  page: Page,
  frameId: string,
  loaderId: string,
  signal: AbortSignal | undefined,
): Promise<TextSections> {
  let frames = lastRead.get(page);
  if (!frames) lastRead.set(page, frames = new Map());
  const cached = frames.get(frameId);
  const token = cached?.loaderId === loaderId ? cached.sections.token : null;
  const got = await callUtility(page, frameId, "textSections", [token], { signal });
  if (!got) return cached!.sections;
  frames.set(frameId, { loaderId, sections: got });
  return got;
}

/** `text` masked (under masking), and a map of its offsets into the masked text. */
function maskWithOffsets(text: string): { text: string; at: (p: number, end: boolean) => number } {
  const masker = currentMasker();
  const pieces = masker?.spans(text) ?? [];
  if (!masker || !pieces.length) return { text, at: (p) => p };
  let out = "", from = 0;
  const rows: Array<[number, number, number, number]> = []; // raw start, raw end, out start, out end
  for (const [s, e] of pieces) {
    out += text.slice(from, s);
    const start = out.length;
    out += masker.maskText(text.slice(s, e));
    rows.push([s, e, start, out.length]);
    from = e;
  }
  out += text.slice(from);
  const at = (p: number, end: boolean) => {
    let lo = 0, hi = rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (rows[mid]![0] <= p) lo = mid + 1;
      else hi = mid;
    }
    const r = rows[lo - 1];
    if (!r) return p;
    if (p >= r[1]) return p + r[3] - r[1];
    return end ? r[3] : r[2];
  };
  return { text: out, at };
}

/**
 * Searches the tab's text (see the module doc) and registers refs for the sections of the
 * matches answered. CDP: `Runtime.evaluate` in each frame's utility world (`textSections`,
 * `textSectionInfo`), `DOM.describeNode` for iframes.
 *
 * @throws ToolError `invalid-argument` for an empty query or a pattern RE2 refuses; errors of
 *   the main frame's page calls (the tab closed or navigated meanwhile).
 */
export async function textSearch(
  page: Page,
  registry: RefRegistry,
  options: TextSearchOptions,
): Promise<TextSearchResult> {
  const finder = finderFor(options);
  for (const id of lastRead.get(page)?.keys() ?? []) {
    if (!page.frame(id)) lastRead.get(page)!.delete(id);
  }
  const reads: FrameRead[] = [];
  let truncatedScan = false;
  let left = MAX_COUNTED;
  const read = async (frameId: string, key: number[], level: number): Promise<void> => {
    const frame = page.frame(frameId);
    if (!frame) return;
    const got = await frameSections(page, frameId, frame.loaderId, options.signal);
    const masked = maskWithOffsets(got.text);
    const spans = got.spans.slice();
    for (let i = 0; i < spans.length; i += 5) {
      spans[i + 1] = masked.at(spans[i + 1]!, false);
      spans[i + 2] = masked.at(spans[i + 2]!, true);
    }
    const { found, cut } = finder.find(masked.text, left);
    left -= found.length;
    if (cut || got.cut) truncatedScan = true;
    reads.push({
      frameId,
      loaderId: frame.loaderId,
      url: frame.url,
      main: level === 0,
      text: masked.text,
      spans,
      token: got.token,
      instance: got.instance,
      key,
      found,
    });
    if (level + 1 >= MAX_FRAME_DEPTH) return;
    // Child frames one after another: the shared match count goes in snapshot order.
    for (const [ownerId, pos] of got.frames) {
      try {
        const childId = await contentFrameId(page, frameId, ownerId);
        const child = childId ? page.frame(childId) : undefined;
        if (!child || options.frameNote?.(child.url, child.frameId) !== undefined) continue;
        await read(child.frameId, [...key, masked.at(pos, false)], level + 1);
      } catch (e) {
        if (options.signal?.aborted) throw e;
        // A child frame that cannot be read (detached, navigating) is left out, as the
        // snapshot shows it as a note.
      }
    }
  };
  await read(page.mainFrameId, [], 0);
  const all = reads.flatMap((r) => r.found.map(([s, e]) => ({ r, s, e, key: [...r.key, s] })));
  all.sort((a, b) => compareKeys(a.key, b.key));
  const picked = all.slice(0, options.limit);
  const matches = await describeMatches(page, registry, picked, options);
  return { matches, total: all.length, ...(truncatedScan ? { truncatedScan } : {}) };
}

function compareKeys(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** The innermost section of `r` holding `[s, e)` (by text length), and the innermost heading's. */
function sectionsOf(r: FrameRead, s: number, e: number): { section: number; heading: number } {
  let section = -1, heading = -1;
  let sectionLen = Infinity, headingLen = Infinity;
  const sp = r.spans;
  for (let i = 0; i < sp.length; i += 5) {
    const a = sp[i + 1]!, b = sp[i + 2]!;
    if (a > s || b < e) continue;
    const len = b - a;
    if (len < sectionLen) [section, sectionLen] = [i, len];
    if (sp[i] === 0 && len < headingLen) [heading, headingLen] = [i, len];
  }
  return { section, heading };
}

async function describeMatches(
  page: Page,
  registry: RefRegistry,
  picked: Array<{ r: FrameRead; s: number; e: number }>,
  options: TextSearchOptions,
): Promise<TextMatch[]> {
  const where = picked.map(({ r, s, e }) => sectionsOf(r, s, e));
  // The sections' elements, one page call per frame.
  const infos = new Map<FrameRead, Map<number, SectionInfo | null>>();
  for (const r of new Set(picked.map((p) => p.r))) {
    const idx = new Set<number>();
    picked.forEach((p, i) => {
      if (p.r !== r) return;
      for (const at of [where[i]!.section, where[i]!.heading]) {
        if (at >= 0) idx.add(r.spans[at + 4]!);
      }
    });
    const list = [...idx];
    const got = list.length
      ? await callUtility(page, r.frameId, "textSectionInfo", [r.token, list], {
        signal: options.signal,
      })
      : [];
    infos.set(r, new Map(list.map((i, k) => [i, got[k] ?? null])));
  }
  const refOf = (r: FrameRead, at: number): { ref: string; shown: string } | undefined => {
    if (at < 0) return undefined;
    const info = infos.get(r)?.get(r.spans[at + 4]!);
    if (!info) return undefined;
    const target = {
      targetId: page.target.targetId,
      frameId: r.frameId,
      loaderId: r.loaderId,
      instance: r.instance,
      localId: info.localId,
    };
    const context = { kind: info.context[0], text: info.context[1] };
    return { ref: registry.refFor(target, info.role, info.name, { context }), shown: info.shown };
  };
  return picked.map(({ r, s, e }, i) => {
    const section = refOf(r, where[i]!.section);
    const heading = refOf(r, where[i]!.heading);
    const m: TextMatch = { excerpt: excerpt(r.text, s, e, options.contextChars) };
    if (options.regex) m.match = cut(r.text.slice(s, e), MAX_MATCH_SHOWN);
    if (heading?.shown) m.heading = cut(heading.shown, 120);
    if (section) m.sectionRef = section.ref;
    if (heading && heading.ref !== section?.ref) m.headingRef = heading.ref;
    if (!r.main) m.frame = r.url;
    return m;
  });
}

function cut(s: string, max: number): string {
  return s.length > max ? s.slice(0, max) + "…" : s;
}

/**
 * `[s, e)` with `context` chars either side, widened to whole words (by at most 15 chars a
 * side), `…` where cut; a match longer than 200 chars is shown cut in the middle.
 */
export function excerpt(text: string, s: number, e: number, context: number): string {
  const shownEnd = Math.min(e, s + MAX_MATCH_SHOWN);
  const widen = Math.min(15, context);
  let a = Math.max(0, s - context);
  if (a > 0 && text[a - 1] !== " ") {
    const sp = text.lastIndexOf(" ", a);
    a = sp >= 0 && a - sp <= widen ? sp + 1 : a;
  }
  const tail = e > shownEnd ? e : shownEnd;
  let b = Math.min(text.length, tail + context);
  if (b < text.length && text[b] !== " ") {
    const sp = text.indexOf(" ", b);
    b = sp >= 0 && sp - b <= widen ? sp : b;
  }
  const body = e > shownEnd ? text.slice(a, shownEnd) + "…" + text.slice(e, b) : text.slice(a, b);
  return (a > 0 ? "…" : "") + body.trim() + (b < text.length ? "…" : "");
}
