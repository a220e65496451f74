/**
 * Matching the page without oracles on secrets, and checking where a secret
 * is filled. Every selector query of the tools goes through
 * {@link queryElement}; `wait_for` text through {@link pageHasText}. Both read
 * the page's text model (`browser/injected/text_lib.ts`): the text a snapshot
 * shows, sections `content-visibility: auto` skips included.
 *
 * Under masking (the call's results are masked: `browser/secret_scope.ts`),
 * a `text=` selector never matches an element whose text shows a secret
 * value: such elements are judged on the server, from their text, and
 * dropped. As text is upward-closed (a parent's text holds its children's),
 * the result is exactly "the innermost elements whose masked text contains
 * the words and shows no secret", whatever the value: a right guess and a
 * wrong one give the same answer. Nothing is sent to the page but the
 * selector.
 *
 * A CSS selector that compares an attribute with a value (`[value^="Zq7"]`)
 * is refused while that attribute holds a secret anywhere in the frame
 * (`selector_attrs.ts`): the refusal depends on the page, not on the guess.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { ToolError } from "../tool_error.ts";
import {
  callOnHandle,
  callUtility,
  callUtilityHandle,
  type RemoteHandle,
} from "../injected/mod.ts";
import {
  assertFillOrigin,
  currentMasker,
  fillsBoundSecret,
  maskedForAgent,
  secretFillValues,
} from "../secret_scope.ts";
import type { TextMatchInfo } from "../injected/text_types.ts";
import { chooseTextMatch } from "./text_choice.ts";
import { alikeIndexes, CSS_DESCRIBED } from "./alike_matches.ts";
import type { AlikeFacts } from "../injected/page_types.ts";
import type { SecretStore } from "../../policy/secrets.ts";
import { valueTestedAttributes } from "./selector_attrs.ts";

const TEXT_SELECTOR = /^text=/;

/** What {@link queryElement} found in a frame. */
export interface QueryMatch {
  handle: RemoteHandle | undefined;
  /** How many elements match. */
  matches: number;
  /** A `text=` choice note (`text_choice.ts`). */
  note?: string;
  /**
   * Asked with `alike`: what refs of the matches alike the chosen one record (same role and
   * name: `alike_matches.ts`), two or more, the chosen one among them.
   */
  alike?: AlikeFacts[];
}

/**
 * The element `selector` (CSS or `text=…`) designates in a frame, how many
 * match, and for a `text=` selector that matched several, a note saying
 * which one was chosen and why (`text_choice.ts`: an actionable element is
 * preferred, then snapshot order). A CSS selector designates its first match.
 * `text=` reads the text model of `browser/injected/text_lib.ts` (what the
 * snapshot shows). With `alike`, the matches alike the chosen one are described too
 * (`alike_matches.ts`; a CSS selector's first, one more call when several match). CDP:
 * `Runtime.evaluate` in the frame's utility world.
 *
 * @throws EvaluationError for an invalid CSS selector (callers map it with `selectorError`);
 *   AbortError (cdp/errors.ts) when `options.signal` (the call's) aborts.
 */
export async function queryElement(
  page: Page,
  frameId: string,
  selector: string,
  options: { signal?: AbortSignal | undefined; alike?: boolean | undefined } = {},
): Promise<QueryMatch> {
  const masker = currentMasker();
  const call = { signal: options.signal };
  if (!TEXT_SELECTOR.test(selector)) {
    if (masker) await refuseSecretAttributes(page, frameId, selector, masker);
    const [handle, matches] = await Promise.all([
      callUtilityHandle(page, frameId, "query", [selector], call),
      callUtility(page, frameId, "queryCount", [selector], call),
    ]);
    // Several: those alike the first (one round trip more, only then).
    const alike = handle && matches > 1 && options.alike
      ? await callUtility(page, frameId, "cssAlike", [selector, CSS_DESCRIBED], call)
      : [];
    return { handle, matches, ...(alike.length ? { alike } : {}) };
  }
  // The page changed between the two calls: ask again (a few times, then report no match).
  for (let attempt = 0; attempt < 3; attempt++) {
    const { found, kept } = await textMatches(page, frameId, selector, masker, call);
    if (!kept.length) return { handle: undefined, matches: 0 };
    const shown = kept.map((i) => {
      const { where, ...m } = found[i]!;
      return { ...m, name: shownName(m.name), ...(where ? { where: shownName(where) } : {}) };
    });
    const { index, note } = chooseTextMatch(selector, shown);
    const at = kept[index]!;
    const handle = await callUtilityHandle(page, frameId, "queryAt", [
      selector,
      at,
      masker ? found[at]!.text ?? "" : null,
    ], call);
    const same = handle && options.alike ? alikeIndexes(shown, index).map((i) => kept[i]!) : [];
    const alike = same.length
      ? (await callUtility(page, frameId, "matchFacts", [selector, same], call))
        .filter((f) => f !== null)
      : [];
    if (handle) {
      return {
        handle,
        matches: kept.length,
        ...(note ? { note } : {}),
        ...(alike.length > 1 ? { alike } : {}),
      };
    }
  }
  return { handle: undefined, matches: 0 };
}

/**
 * A `text=` selector's matches (the page's `queryMatches`) and the indexes of
 * those free of secrets: under masking, a match whose text shows a secret's
 * value is dropped (see the module doc); else all are kept.
 */
async function textMatches(
  page: Page,
  frameId: string,
  selector: string,
  masker: SecretStore | undefined,
  call: { signal?: AbortSignal | undefined } = {},
): Promise<{ found: TextMatchInfo[]; kept: number[] }> {
  const found = await callUtility(page, frameId, "queryMatches", [selector, !!masker], call);
  const kept = found.flatMap((m, i) => masker?.contains(m.text ?? "") ? [] : [i]);
  return { found, kept };
}

const NAME_SHOWN = 40;

/** A match's name as the agent may read it: cut clear of secrets, then masked. */
function shownName(name: string): string {
  const cut = cutClearOfSecrets(name, NAME_SHOWN);
  return maskedForAgent(cut.length < name.length ? cut + "…" : cut);
}

/** How many elements match `selector` in a frame (see {@link queryElement}). */
export async function queryElementCount(
  page: Page,
  frameId: string,
  selector: string,
): Promise<number> {
  const masker = currentMasker();
  if (TEXT_SELECTOR.test(selector)) {
    return (await textMatches(page, frameId, selector, masker)).kept.length;
  }
  if (masker) await refuseSecretAttributes(page, frameId, selector, masker);
  return await callUtility(page, frameId, "queryCount", [selector]);
}

/**
 * Refuses a CSS selector that compares an attribute holding a secret (in
 * any element of the frame) with a value. CDP: `Runtime.evaluate`
 * (`attrValues`), only when the selector has such a comparison.
 *
 * @throws ToolError `refused` naming the attribute and what to use instead.
 */
async function refuseSecretAttributes(
  page: Page,
  frameId: string,
  selector: string,
  masker: SecretStore,
): Promise<void> {
  const names = valueTestedAttributes(selector);
  if (names === undefined) {
    throw new ToolError(
      "refused",
      `Refused selector ${
        JSON.stringify(selector)
      }: while secrets are masked, a selector must read ` +
        "plainly (no unclosed comment or string, brackets paired, [name], [name=value] or " +
        "[name op value i] inside brackets), so that what it compares can be checked",
      "write the selector without comments or odd attribute conditions, or select by id, role, text= or a ref from snapshot",
    );
  }
  for (const name of names) {
    const { values, cut } = await callUtility(
      page,
      frameId,
      "attrValues",
      [[name]],
    );
    // Refusing on "too much to check" depends on the page only, not on the guess.
    if (cut || values.some((v) => masker.contains(v))) {
      throw new ToolError(
        "refused",
        `Refused selector ${JSON.stringify(selector)}: it compares attribute "${name}", ` +
          (cut
            ? "whose values on this page are too many or too long to check for secrets"
            : "which holds a secret's value on this page") +
          " (a match would confirm a guess)",
        "select the element by id, role, text= or a ref from snapshot, or test the attribute's presence ([name]) only",
      );
    }
  }
}

/**
 * For selectors the page resolves itself (`read_form` root, a submit
 * control): under masking, refuses one that compares an attribute holding a
 * secret with a value (see {@link queryElement}). Does nothing otherwise.
 *
 * @throws ToolError `refused`.
 */
export async function checkSelectorAttributes(
  page: Page,
  frameId: string,
  selector: string,
): Promise<void> {
  const masker = currentMasker();
  if (masker && !TEXT_SELECTOR.test(selector)) {
    await refuseSecretAttributes(page, frameId, selector, masker);
  }
}

const normText = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();

/**
 * Whether a frame's shown text (the text model; `options.frameId`, default the main frame's)
 * contains `text` (any case,
 * whitespace collapsed), and an excerpt of that text (`maxSeen` chars) for
 * `lastSeen`. Under masking both are computed on the masked text, on the
 * server: a secret's value never matches, and the excerpt never ends inside
 * a value. `options.signal` (the call's) abandons the page calls when it
 * aborts (`AbortError`).
 */
export async function pageHasText(
  page: Page,
  text: string,
  maxSeen: number,
  options: { signal?: AbortSignal | undefined; frameId?: string | undefined } = {},
): Promise<{ has: boolean; seen: () => Promise<string> }> {
  const masker = currentMasker();
  const { signal } = options;
  const frameId = options.frameId ?? page.mainFrameId;
  if (!masker) {
    const has = await callUtility(page, frameId, "hasText", [text], { signal });
    return {
      has,
      seen: () => callUtility(page, frameId, "textExcerpt", [maxSeen], { signal }),
    };
  }
  const raw = await callUtility(page, frameId, "rawText", [], { signal });
  const masked = masker.maskText(raw).replace(/\s+/g, " ").trim();
  return {
    has: masked.toLowerCase().includes(normText(text)),
    seen: () => Promise.resolve(masked.slice(0, maxSeen)),
  };
}

/**
 * When this call fills a secret bound to origins, refuses a target outside
 * them: an element by its frame's `window.origin`; no target, by the frame
 * that has focus (a focused cross-origin frame is refused: its origin cannot
 * be read from here); coords are refused (the frame under a point is not
 * checked). Then, when this call fills any secret, holds the field it goes into (see
 * {@link holdSecretField}; `value`: what goes into this target, for a call filling several).
 * CDP: `Runtime.callFunctionOn` / `Runtime.evaluate` (`frameOrigin`, `focusedOrigin`,
 * `holdSecret`, `holdFocusedSecret`).
 *
 * @throws ToolError `refused` naming the allowed origins, or when the field cannot be held.
 */
export async function checkFillTarget(
  page: Page,
  target: { kind: "element"; handle: RemoteHandle } | { kind: "coords" } | undefined,
  value?: string,
): Promise<void> {
  await checkBoundTarget(page, target);
  await holdSecretField(page, target, value);
}

/**
 * When this call fills a secret (`value`, when given, is one of what it fills with a
 * placeholder; absent: the call fills one), holds the field it goes into (`holdSecret`,
 * secret_lib.ts): for its life it shows only exactly what this fill puts in, so keys that
 * peel the value (End+Backspace) never show a part of it. No target: the focused element
 * of the main frame.
 *
 * @throws ToolError `refused` when the field cannot be held: no target while focus is in
 *   a frame, or coords.
 */
/** Pages where a field was held (only their `press` and `type` calls check for one). */
const heldPages = new WeakSet<Page>();

/** Whether a field of `page` was filled with a secret (see {@link holdSecretField}). */
export function hasHeldField(page: Page): boolean {
  return heldPages.has(page);
}

async function holdSecretField(
  page: Page,
  target: { kind: "element"; handle: RemoteHandle } | { kind: "coords" } | undefined,
  value: string | undefined,
): Promise<void> {
  const fills = secretFillValues();
  if (!fills.length || (value !== undefined && !fills.includes(value))) return;
  heldPages.add(page);
  const held = target?.kind === "element"
    ? await callOnHandle(target.handle, "holdSecret", [[...fills]])
    : target === undefined && await callUtility(page, page.mainFrameId, "holdFocusedSecret", [
      [...fills],
    ]);
  if (!held) {
    throw new ToolError(
      "refused",
      "Refused to fill a secret where browxai cannot keep its field masked " +
        (target ? "(at coords)" : "(focus is inside a frame)"),
      "pass the field's ref or selector",
    );
  }
}

/** {@link checkFillTarget}'s origin check for secrets bound to origins. */
async function checkBoundTarget(
  page: Page,
  target: { kind: "element"; handle: RemoteHandle } | { kind: "coords" } | undefined,
): Promise<void> {
  if (!fillsBoundSecret()) return;
  if (target?.kind === "element") {
    const origin = await callOnHandle(target.handle, "frameOrigin");
    assertFillOrigin(origin, "a field");
    return;
  }
  if (target?.kind === "coords") {
    throw new ToolError(
      "refused",
      "Refused to fill a secret bound to origins at coords: its frame cannot be checked",
      "pass the field's ref or selector",
    );
  }
  const origin = await callUtility(page, page.mainFrameId, "focusedOrigin");
  assertFillOrigin(
    origin ?? "null",
    origin === null ? "the focused field (inside a cross-origin frame)" : "the focused field",
  );
}

/**
 * When this call fills a secret bound to origins: before each key of
 * `type` (and before `fill` inserts), refuses when focus is no longer in a
 * frame of the allowed origins. A page may move focus while keys go in (a
 * keydown handler focusing a cross-origin frame): the origin checked before
 * the first key says nothing of the next. Does nothing otherwise. CDP:
 * `Runtime.evaluate` (`focusedOrigin`) in the main frame.
 *
 * @param done How much went in before this check (for the error's message).
 * @param field The field `fill` targets: it must still have focus (CDP:
 *   `Runtime.callFunctionOn`, `focusIsOn`); absent: the focused frame's origin.
 * @throws ToolError `refused` naming the allowed origins, with `typed` = done.
 */
export async function checkFocusStaysHome(
  page: Page,
  done: { typed: number; of: number },
  field?: RemoteHandle,
): Promise<void> {
  if (!fillsBoundSecret()) return;
  try {
    // A field: it must still have focus (its frame's origin was checked). Else the focused frame.
    if (field && !(await callOnHandle(field, "focusIsOn"))) {
      throw new ToolError("refused", "The field lost focus before the value went in.", "", {});
    }
    if (!field) await checkBoundTarget(page, undefined);
  } catch (e) {
    if (!(e instanceof ToolError)) throw e;
    throw new ToolError(
      "refused",
      `Stopped after ${done.typed} of ${done.of} characters: focus left the allowed origins. ` +
        e.message,
      "the page moved focus away from the field; fill it by ref or selector " +
        "(fill checks the field's frame) and do not type the secret into a page that moves focus",
      { ...e.details, typed: done.typed },
    );
  }
}

/**
 * `text` cut to `max` UTF-16 units; under masking, a cut that would fall
 * inside a secret's value moves to before it (a kept prefix would not be
 * masked, and would give the value away a few characters at a time). Only
 * whole values move it, so a partial guess in the text changes nothing.
 */
export function cutClearOfSecrets(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  for (const [start, stop] of currentMasker()?.spans(text) ?? []) {
    if (start < end && stop > end) end = start;
  }
  return text.slice(0, end);
}
