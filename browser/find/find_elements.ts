/**
 * `find`: the live page's elements ranked against a natural-language query, without a model.
 * The query is parsed here (`query.ts`); each frame scores its own elements
 * (`browser/injected/find_lib.ts`, every frame in snapshot order, open shadow roots in place);
 * this side merges the frames, applies the ordinal ("second …", "last …") and what
 * `find_feedback` taught the session (`memory.ts`), registers refs for the candidates in the
 * session's ref registry (the snapshot's `eN` namespace: `click({ ref })` takes them), and asks
 * each frame for a selector hint verified unique now (`find_hint_lib.ts`).
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { AbortError } from "../../cdp/errors.ts";
import { callUtility } from "../injected/mod.ts";
import type { FindItem, FindQuery } from "../injected/page_types.ts";
import type { RefRegistry } from "../snapshot/refs.ts";
import { checkRef } from "../snapshot/resolve.ts";
import { ToolError } from "../tool_error.ts";
import { BLANK_TAB_WARNING, isBlankTab } from "../blank_tab.ts";
import type { FindMemory, Recalled } from "./memory.ts";
import { CHILD_FRAME_MS } from "../snapshot/capture.ts";
import { isEmptyQuery, parseQuery } from "./query.ts";
import { frameOrder } from "./frame_order.ts";
import { scrollBoxHint } from "../snapshot/scroll_hint.ts";

/** What `find` is asked. */
export interface FindArgs {
  query: string;
  /** Only elements of this role (`button`, `textbox`, …). */
  role?: string | undefined;
  /** Search only this element's subtree (a ref). */
  contextRef?: string | undefined;
  /** Most candidates to return (default 5). */
  limit?: number | undefined;
}

/** One ranked element. */
export interface FindCandidate {
  ref: string;
  role: string;
  /** Its accessible name (cut at 80 characters). */
  name: string;
  /** 0..1. */
  score: number;
  /** A selector our `selector` field accepts that designates the element now (unique); absent when none. */
  selectorHint?: string;
  /** `testid`, `id`, `role-name`, `text`, `class`, `path`, or `none`. */
  selectorTier: string;
  /** How long the hint is likely to hold: `high`, `medium`, `low`. */
  stability: string;
  /** It can be acted on: shown, enabled, not covered, or shown on hover ({@link onHover}). */
  actionable: boolean;
  inViewport: boolean;
  /**
   * Hidden until this ancestor (described, `div.row`) is hovered, by the page's `:hover` style
   * rules: a click or another action hovers it first.
   */
  onHover?: string;
  /** Why it ranks here, short. */
  why: string;
  /** How to act on it when a plain click is not it (a text edited in place: double-click it). */
  how?: string;
  /**
   * The query's words naming an item that neither it nor anything around it mentions ("milk
   * frother" for another product's Remove button): it is likely not the item asked for.
   */
  unmentioned?: string;
}

/** `find`'s answer. */
export interface FindAnswer {
  candidates: FindCandidate[];
  /** Nothing visible matches, the top two are close, an ordinal past the matches. */
  warnings?: string[];
}

/** Options of {@link findElements}. */
export interface FindOptions {
  /** The session's ref registry (candidates get refs there). */
  refs: RefRegistry;
  /** The session's feedback. */
  memory: FindMemory;
  /** The call's signal. */
  signal?: AbortSignal | undefined;
  /** Frames the navigation policy keeps out of snapshots (by URL): not searched. */
  skipFrame?: ((url: string, frameId: string) => boolean) | undefined;
}

/** Default and largest `limit`. */
export const FIND_LIMIT = { default: 5, max: 20 };
/** Top two scores closer than this are "close" (a warning). */
const CLOSE = 0.05;
/**
 * A candidate about another item (`FindItem.missing`) counts this much: below any that the
 * item's words name, still shown (a typo of a name the page does not hold is found by neither).
 */
const UNMENTIONED = 0.5;

interface FrameScan {
  frameId: string;
  loaderId: string;
  instance: string;
  items: FindItem[];
  /** An ordinal query's count of the frame's close matches (`FindScan.closeCount`). */
  closeCount?: number | undefined;
}

interface Ranked {
  item: FindItem;
  frame: number;
  score: number;
  /** 1 when feedback chose it for this query: it goes before any unchosen one. */
  chosen: number;
  notes: string[];
}

/**
 * Ranks the active tab's elements against `args.query`.
 *
 * CDP: `Runtime.evaluate` in each frame's utility world (`findScan`, `findHints`, and
 * `findCounts` for a hint in a child frame), `DOM.describeNode` per iframe (its frame id).
 *
 * @throws ToolError `invalid-argument` (an empty query, a bad limit); RefGoneError when
 *   `contextRef` does not name a live element; EvaluationError / ProtocolError when the main
 *   frame cannot be read.
 */
export async function findElements(
  page: Page,
  args: FindArgs,
  options: FindOptions,
): Promise<FindAnswer> {
  const query = args.query.trim();
  const parsed = parseQuery(query, args.role);
  if (!query || (isEmptyQuery(parsed) && parsed.ordinal === undefined)) {
    throw new ToolError(
      "invalid-argument",
      `Empty query${query ? ` "${query}": only filler words` : ""}`,
      'describe the element: "the Save button in the editor toolbar", "email field"',
    );
  }
  const limit = args.limit ?? FIND_LIMIT.default;
  if (!Number.isInteger(limit) || limit < 1 || limit > FIND_LIMIT.max) {
    throw new ToolError(
      "invalid-argument",
      `limit must be 1..${FIND_LIMIT.max}, got ${limit}`,
      `pass a limit from 1 to ${FIND_LIMIT.max} (default ${FIND_LIMIT.default})`,
    );
  }
  const recalled = options.memory.recall(query);
  const frameQuery: FindQuery = {
    words: parsed.words,
    exact: parsed.exact,
    roles: parsed.roles,
    hard: args.role !== undefined,
    context: parsed.context,
    near: parsed.near,
    whole: parsed.whole,
    rootId: null,
    remember: recalled.map((r) => r.features),
    max: Math.max(limit * 3, 15),
    // An ordinal counts in page order among every close match: its ends come too.
    ...(parsed.ordinal !== undefined ? { ends: Math.abs(parsed.ordinal) } : {}),
  };
  let frames: Array<{ frameId: string; rootId: number | null; frame?: string }>;
  if (args.contextRef !== undefined) {
    const entry = await checkRef(page, options.refs, args.contextRef);
    frames = [{ frameId: entry.frameId, rootId: entry.localId }];
  } else {
    frames = (await frameOrder(page, options)).map((f) => ({ ...f, rootId: null }));
  }
  const scans = await Promise.all(frames.map(async ({ frameId, rootId, frame }, i) => {
    const loaderId = page.frame(frameId)?.loaderId ?? "";
    // A child frame gets CHILD_FRAME_MS: one whose script is busy is searched without.
    const timeout = i === 0 ? undefined : AbortSignal.timeout(CHILD_FRAME_MS);
    const signal = timeout && options.signal
      ? AbortSignal.any([options.signal, timeout])
      : timeout ?? options.signal;
    try {
      // Where its <iframe> is called something, every element of the frame sits there.
      const query = { ...frameQuery, rootId, ...(frame ? { frame } : {}) };
      const scan = await callUtility(page, frameId, "findScan", [query], { signal });
      return {
        frameId,
        loaderId,
        instance: scan.instance,
        items: scan.items,
        closeCount: scan.closeCount,
      };
    } catch (e) {
      // A child frame going away (or not answering) is not the search's fault.
      if (i === 0 || options.signal?.aborted || (e instanceof AbortError && !timeout?.aborted)) {
        throw e;
      }
      return undefined;
    }
  }));
  const ranked = rank(scans, recalled);
  const warnings: string[] = [];
  const tie = mainFirst(ranked);
  const closeCount = scans.reduce((n, s) => n + (s?.closeCount ?? 0), 0);
  const ordinal = applyOrdinal(ranked, parsed.ordinal, warnings, closeCount);
  const chosen = ranked.slice(0, limit);
  const candidates = await describe(page, chosen, scans, options);
  if (!candidates.length) {
    warnings.push(isBlankTab(page) ? BLANK_TAB_WARNING : `nothing on the page matches "${query}"`);
    // A virtual list's unseen rows are in no element: the box to scroll is the next step.
    const hint = isBlankTab(page)
      ? undefined
      : await scrollBoxHint(page, options.refs, options.signal);
    if (hint) warnings.push(hint);
  } else if (!candidates.some((c) => c.actionable || c.inViewport)) {
    warnings.push("no visible match: the candidates are hidden or cannot be acted on");
  }
  if (candidates[0]?.unmentioned) {
    warnings.push(
      `no element mentions "${
        candidates[0].unmentioned
      }": the candidates are about something else; check the page has it`,
    );
  }
  const [a, b] = candidates;
  const tied = tie && !ordinal && chosen[1] === tie.frameOne && candidates[1];
  if (a && tied) {
    const where = frames[tie.frameOne.frame]?.frame;
    warnings.push(
      `${a.ref} and ${tied.ref} match alike: ${a.ref} in the main page goes first, ${tied.ref} is in a frame${
        where ? ` ("${cut(where, 40)}")` : ""
      }`,
    );
  } else if (
    a && b && !ordinal && !chosen[0]?.chosen && !a.unmentioned && a.score - b.score < CLOSE
  ) {
    // (Between two that are not about the item, which goes first does not matter.)
    warnings.push(
      `top two are close (${a.score}, ${b.score}): say where it is ("in the …") or check why`,
    );
  }
  return { candidates, ...(warnings.length ? { warnings } : {}) };
}

/** Merges the frames' items, feedback applied, best first (ties: document order). */
function rank(scans: Array<FrameScan | undefined>, recalled: Recalled[]): Ranked[] {
  const all: Ranked[] = [];
  scans.forEach((scan, frame) => {
    for (const item of scan?.items ?? []) {
      const notes: string[] = [];
      let score = item.score, chosen = 0;
      const memory = item.remembered >= 0 ? recalled[item.remembered] : undefined;
      if (memory?.correct) {
        score = Math.min(1, Math.max(score, 0.9) + 0.1 * memory.similarity);
        chosen = 1;
        notes.push(`you chose it for "${cut(memory.query, 40)}"`);
      } else if (memory) {
        score *= 0.4;
        notes.push(`you said wrong for "${cut(memory.query, 40)}"`);
      }
      // Said by the candidate's `unmentioned` (not again in its why: tokens).
      if (item.missing && !chosen) score *= UNMENTIONED;
      all.push({ item, frame, score, chosen, notes });
    }
  });
  // Ties (a query by role or context alone) keep page order.
  all.sort((x, y) =>
    y.chosen - x.chosen || y.score - x.score || x.frame - y.frame || x.item.order - y.item.order
  );
  return all;
}

/**
 * A tie between a child frame's best and the main page's (their scores the same as shown, to
 * the hundredth): the main page's goes first, as a person reads the page it is on. Returns the
 * two when they tied, the frame's one now second; undefined otherwise (also when feedback chose
 * the first).
 */
function mainFirst(ranked: Ranked[]): { frameOne: Ranked } | undefined {
  const top = ranked[0];
  if (!top || top.chosen) return undefined;
  const shown = (r: Ranked) => Math.round(r.score * 100);
  if (top.frame === 0) {
    const next = ranked[1];
    return next && next.frame !== 0 && shown(next) === shown(top) ? { frameOne: next } : undefined;
  }
  const main = ranked.find((r) => r.frame === 0 && !r.chosen && shown(r) === shown(top));
  if (!main) return undefined;
  ranked.splice(ranked.indexOf(main), 1);
  ranked.unshift(main);
  // The frame's one right after it (other equals of its frame keep their order).
  ranked.splice(ranked.indexOf(top), 1);
  ranked.splice(1, 0, top);
  return { frameOne: top };
}

/**
 * "second Delete in the Orders table": among the matches as good as the best (within 15%), in
 * page order, the n-th (from the end when negative) goes first. Returns whether one was picked.
 */
function applyOrdinal(
  ranked: Ranked[],
  ordinal: number | undefined,
  warnings: string[],
  closeCount = 0,
): boolean {
  if (ordinal === undefined || !ranked.length) return false;
  const top = ranked[0]!.score;
  const group = ranked.filter((r) => r.score >= top * 0.85)
    .sort((x, y) => x.frame - y.frame || x.item.order - y.item.order);
  const at = ordinal > 0 ? ordinal - 1 : group.length + ordinal;
  const pick = group[at];
  if (!pick) {
    warnings.push(
      `only ${group.length} close match${group.length === 1 ? "" : "es"}: no ${nth(ordinal)}`,
    );
    return false;
  }
  ranked.splice(ranked.indexOf(pick), 1);
  pick.score = Math.max(pick.score, top);
  // The frames' own counts of close matches, when they hold more than were returned.
  pick.notes.unshift(`${nth(ordinal)} of ${Math.max(group.length, closeCount)}`);
  ranked.unshift(pick);
  return true;
}

function nth(n: number): string {
  if (n === -1) return "last";
  if (n < 0) return `${nth(-n)} from last`;
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${n}${s}`;
}

function cut(s: string, max: number): string {
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

/**
 * Why an item ranks: what matched, where, its state, and the notes (ordinal, feedback). `twin`:
 * another candidate has its role and name, so where it sits (its row, its toolbar) is said.
 */
function whyOf(r: Ranked, twin: boolean, onHover: boolean): string {
  const { item } = r;
  const [name, role, ctx] = item.parts;
  const bits = [...r.notes];
  const [kind, text] = item.context;
  // A match by its row's text or its own shown text (`item "Walk dog"`) already says where.
  if (twin && kind && text && ctx < 0 && !item.via.includes('"')) {
    bits.push(`${kind} "${cut(text, 30)}"`);
  }
  if (name >= 0) bits.push(name >= 0.95 ? `${item.via} matches` : `${item.via} ~${name}`);
  if (role === 1) bits.push("role");
  else if (role >= 0) bits.push(role > 0 ? "role near" : "other role");
  if (ctx >= 0) {
    bits.push(ctx > 0.3 && item.where ? `in ${cut(item.where, 40)}` : "context ~" + ctx);
  }
  if (item.hidden) bits.push(onHover ? "shown on hover" : "hidden");
  if (item.disabled) bits.push("disabled");
  return bits.join("; ");
}

/** How to edit a text edited in place (`FindItem.editsInPlace`). */
function howToEdit(ref: string, kind: "field" | "row"): string {
  const dbl =
    `double-click it, click({ ref: "${ref}", clickCount: 2 }), then fill the field that opens`;
  return kind === "field" ? `edited in place: ${dbl}` : `no edit control in its row: ${dbl}`;
}

/** Registers refs, fetches hints (checked across frames), and builds the candidates. */
async function describe(
  page: Page,
  chosen: Ranked[],
  scans: Array<FrameScan | undefined>,
  options: FindOptions,
): Promise<FindCandidate[]> {
  const targetId = page.target.targetId;
  const byFrame = new Map<number, Ranked[]>();
  for (const r of chosen) byFrame.set(r.frame, [...byFrame.get(r.frame) ?? [], r]);
  const hints = new Map<Ranked, Awaited<ReturnType<typeof frameHints>>[number]>();
  const refs = new Map<Ranked, string>();
  for (const [frame, list] of byFrame) {
    const scan = scans[frame]!;
    if (page.frame(scan.frameId)?.loaderId !== scan.loaderId) continue; // navigated meanwhile
    options.refs.dropStale(targetId, scan.frameId, scan.loaderId, scan.instance);
    for (const r of list) {
      const target = {
        targetId,
        frameId: scan.frameId,
        loaderId: scan.loaderId,
        instance: scan.instance,
        localId: r.item.id,
      };
      const context = { kind: r.item.context[0], text: r.item.context[1] };
      refs.set(r, options.refs.refFor(target, r.item.role, r.item.name, { context }));
    }
    const got = await frameHints(page, scan, list, frame, scans, options);
    list.forEach((r, i) => hints.set(r, got[i] ?? null));
  }
  const out: FindCandidate[] = [];
  for (const r of chosen) {
    const ref = refs.get(r);
    if (!ref) continue;
    const h = hints.get(r);
    out.push({
      ref,
      role: r.item.role,
      name: cut(r.item.name, 80),
      score: Math.round(r.score * 100) / 100,
      ...(h?.hint ? { selectorHint: h.hint } : {}),
      selectorTier: h?.hint ? h.tier : "none",
      stability: h?.hint ? h.stability : "low",
      actionable: h?.actionable ?? false,
      inViewport: h?.inViewport ?? false,
      ...(h?.onHover ? { onHover: h.onHover } : {}),
      why: whyOf(
        r,
        chosen.some((o) => o !== r && o.item.role === r.item.role && o.item.name === r.item.name),
        h?.onHover !== undefined,
      ),
      ...(r.item.editsInPlace ? { how: howToEdit(ref, r.item.editsInPlace) } : {}),
      ...(r.item.missing && !r.chosen ? { unmentioned: r.item.missing.join(" ") } : {}),
    });
  }
  return out;
}

/**
 * The hints of one frame's candidates. A hint of a child frame's element is dropped when a frame
 * searched before it (the main frame, earlier frames) matches it too: the selector would land
 * there.
 */
async function frameHints(
  page: Page,
  scan: FrameScan,
  list: Ranked[],
  frame: number,
  scans: Array<FrameScan | undefined>,
  options: FindOptions,
) {
  const signal = options.signal;
  const hints = await callUtility(page, scan.frameId, "findHints", [
    list.map((r) => r.item.id),
    scan.instance,
  ], { signal });
  if (frame === 0) return hints;
  const selectors = hints.map((h) => h?.hint ?? "");
  for (const earlier of scans.slice(0, frame)) {
    if (!earlier) continue;
    const counts = await callUtility(page, earlier.frameId, "findCounts", [selectors], { signal })
      .catch(() => selectors.map(() => 0));
    counts.forEach((n, i) => {
      const h = hints[i];
      if (h && h.hint && n !== 0) hints[i] = { ...h, hint: "", tier: "none", stability: "low" };
    });
  }
  return hints;
}
