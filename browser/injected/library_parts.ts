/**
 * Which parts of the page-side library go to a world, and when: the core (what a snapshot
 * walk needs) with the first call, each on-demand group with the first call of one of its
 * methods (`mod.ts` sends them). A document that is only read gets the core; a click adds the
 * acting group; a fill with Enter the forms group (which needs the acting group).
 *
 * Each part is a self-contained function `(api) => void` that adds methods
 * to the api object; its source text is what gets sent, so it must not use
 * anything from its module scope (Deno strips the types; the body is plain JS).
 *
 * Measured (scratch, TodoMVC, renderer main thread): the cost of a part is per function and
 * token, not per byte (a minified library, half the bytes, cost the same to parse and run),
 * so what is saved is what is not sent at all.
 *
 * @module
 */
import { installActionLib } from "./action_lib.ts";
import { installScrollIntoLib } from "./scroll_into_lib.ts";
import { installDomSafeLib } from "./dom_safe_lib.ts";
import { installElementFactsLib } from "./element_facts_lib.ts";
import type { PageApi } from "./page_api.ts";
import { installHitLib } from "./hit_lib.ts";
import { installTypingLib } from "./typing_lib.ts";
import { installCoverLib } from "./cover_lib.ts";
import { installFormEditLib } from "./form_edit_lib.ts";
import { installFormLib } from "./form_lib.ts";
import { installFormPublishLib } from "./form_publish_lib.ts";
import { installFormSubmitLib } from "./form_submit_lib.ts";
import { installFindWordsLib } from "./find_words_lib.ts";
import { installFindPlaceLib } from "./find_place_lib.ts";
import { installFindLib } from "./find_lib.ts";
import { installFindScoreLib } from "./find_score_lib.ts";
import { installFindMentionLib } from "./find_mention_lib.ts";
import { installFindHintLib } from "./find_hint_lib.ts";
import { installMutationLib } from "./mutation_lib.ts";
import { installFirstLib } from "./first_listeners.ts";
import { installSanitizeLib } from "./sanitize_lib.ts";
import { installSecretLib } from "./secret_lib.ts";
import { installSnapshotLib } from "./snapshot_lib.ts";
import { installReadLib } from "./read_lib.ts";
import { installControlLib } from "./control_lib.ts";
import { installInspectLib } from "./inspect_lib.ts";
import { installHoverRevealLib } from "./hover_reveal_lib.ts";
import { installCoverKindLib } from "./cover_kind_lib.ts";
import { installRefindLib } from "./refind_lib.ts";

type Part = (api: PageApi) => void;

/** The core: what a snapshot walk (and a text read, a secret check) needs. */
const PARTS: Part[] = [
  installDomSafeLib,
  installFirstLib,
  installMutationLib,
  installSnapshotLib,
  installSecretLib,
  installReadLib,
];

/** A group of parts installed on the first call of one of its methods in a world. */
export interface LazyParts {
  /** The api's flag (a hidden member) once the group is installed. */
  readonly flag: string;
  /** Whether a method belongs to the group (by its name). */
  has(method: string): boolean;
  /**
   * The expression that adds the group's parts to an installed api, once, after the groups
   * it needs (each once too).
   */
  readonly source: string;
  /** The flags of this group and of the groups it needs: all installed once `source` ran. */
  readonly flags: readonly string[];
  /** The expression that adds this group's own parts once, the groups it needs being there. */
  readonly own: string;
  /** The group this one needs installed first (which may need another). */
  readonly needs?: LazyParts | undefined;
}

/** The mark (`UtilityWorld.marks`) of a world a group (by its flag) was sent to. */
export function groupMark(flag: string): string {
  return `browxai:${flag}`;
}

/**
 * The groups to send to add `lazy` to a world whose marks are `marks`, in install order:
 * each group it needs that the marks do not show there, then itself.
 */
function toSend(lazy: LazyParts, marks?: ReadonlySet<string>): LazyParts[] {
  const out: LazyParts[] = [];
  for (let g: LazyParts | undefined = lazy; g; g = g.needs) {
    if (g === lazy || !marks?.has(groupMark(g.flag))) out.unshift(g);
  }
  return out;
}

/** The expression installing `groups` in order (each once). */
function sourceOf(groups: LazyParts[]): string {
  return groups.length === 1 ? groups[0]!.own : `(${groups.map((g) => g.own).join(",\n")})`;
}

/** The names a part's source installs: every `api.name = …` (the parts' only way to add one). */
export function installedNames(source: string): string[] {
  const names = [...source.matchAll(/\bapi\.([A-Za-z_$][\w$]*)\s*=(?!=)/g)].map((m) => m[1]!);
  return [...new Set(names)].sort();
}

/** A group of `parts` marked with `flag`, installed after `needs`. */
function group(flag: string, parts: Part[], needs?: LazyParts): LazyParts {
  // Sent alone only where the marks say `needs` went: loud if they were wrong.
  const check = needs
    ? `if (!api.${needs.flag}) throw new Error("browxai: ${needs.flag} missing before ${flag}");`
    : "";
  const own = `(() => {
  const api = globalThis.__browxai;
  if (api.${flag}) return api;
  ${check}
  ${parts.map((p) => `(${p.toString()})(api);`).join("\n")}
  Object.defineProperty(api, "${flag}", { value: true, enumerable: false });
  return api;
})()`;
  const names = new Set(installedNames(own));
  const g: LazyParts = {
    flag,
    has: (m) => names.has(m),
    source: "",
    flags: [...(needs?.flags ?? []), flag],
    own,
    needs,
  };
  return { ...g, source: sourceOf(toSend(g)) };
}

/**
 * Acting on elements (actionability, values, selectors, text waits) and hit tests: every
 * action's first call in a document, not a read (about a fifth of the library).
 */
const ACT = group("__act", [
  installActionLib,
  installScrollIntoLib,
  installElementFactsLib,
  installHitLib,
  installTypingLib,
]);

/**
 * The form kit, `form_describe` and the publish and submit watches: what a fill or click that
 * sends a form calls (the publish check, where forms send, whether it went).
 */
const FORMS = group("__forms", [installFormLib, installFormPublishLib, installFormSubmitLib], ACT);

/** Controls shown on an ancestor's hover (`hover_reveal_lib.ts`). */
const HOVER = group("__hover", [installHoverRevealLib], ACT);

/**
 * The on-demand groups, by the names of their methods: acting; the secret cover of
 * screenshots; the forms' reading and watching; the form tools' writing (fill_form,
 * set_editor: sanitizing, setting fields by name, editors); the inspecting and control tools
 * (choose_option, dom_read, styles_read, styles_write); `find` (and `plan`, `find_feedback`).
 * Sent per document, the form parts (half the library's bytes) slowed every first snapshot.
 */
export const LAZY: readonly LazyParts[] = [
  ACT,
  group("__cover", [installCoverLib]),
  FORMS,
  group("__formEdit", [installSanitizeLib, installFormEditLib], FORMS),
  group("__inspect", [installControlLib, installInspectLib], ACT),
  // A click on a control shown on its row's hover (rare: sent then), and find (below).
  HOVER,
  group("__coverKind", [installCoverKindLib], ACT),
  // A ref whose element the page re-created (rare: sent then).
  group("__refind", [installRefindLib]),
  group(
    "__find",
    [
      installFindWordsLib,
      installFindPlaceLib,
      installFindMentionLib,
      installFindScoreLib,
      installFindLib,
      installFindHintLib,
    ],
    // find says which hidden controls show on their row's hover (hoverHostOf).
    HOVER,
  ),
];

/** The on-demand group a method belongs to, if any. */
export function lazyOf(method: string): LazyParts | undefined {
  return LAZY.find((g) => g.has(method));
}

/**
 * Statements to put before a direct call of `__browxai[method]` on a handle
 * (`Runtime.callFunctionOn`): a method of an on-demand group in a world that
 * has only the core parts adds them first; other methods need nothing.
 */
export function preludeFor(method: string): string {
  const g = lazyOf(method);
  return g ? `if (!globalThis.__browxai.${g.flag}) ${g.source};` : "";
}

/** The install expression: evaluates to the api object, installing it once per world. */
export const INSTALL_SOURCE = `globalThis.__browxai || (() => {
  const api = {};
  ${PARTS.map((p) => `(${p.toString()})(api);`).join("\n")}
  Object.defineProperty(globalThis, "__browxai", { value: api, enumerable: false });
  return api;
})()`;

const INSTALL_AND_CALL = new Map<string, string>();

/**
 * The function (a `Runtime.callFunctionOn` declaration, `(method, args)`) that installs the
 * library (`core`: the core parts and `lazy`'s group; else `lazy`'s group only, without the
 * groups it needs when `marks` say they are there) and then
 * calls `__browxai[method](...args)`; `method` null calls nothing and answers true.
 *
 * Its text is the same for every call of a group, the call's arguments going beside it:
 * V8 keeps compiled scripts per renderer by their text, so the next document of the same
 * process (a navigation on the same site) reuses this one's compiled library, its install
 * and its first walk (measured: about half the renderer time of a first read; a text that
 * held the call's arguments was compiled anew every time).
 */
export function installAndCall(
  core: boolean,
  lazy: LazyParts | undefined,
  marks?: ReadonlySet<string>,
): string {
  const groups = lazy ? toSend(lazy, core ? undefined : marks) : [];
  const key = `${core}:${groups.map((g) => g.flag)}`;
  let text = INSTALL_AND_CALL.get(key);
  if (text === undefined) {
    const install = [core ? INSTALL_SOURCE : "", groups.length ? sourceOf(groups) : ""]
      .filter(Boolean);
    // Without the core, a group cannot go alone: the caller sends the whole library.
    const guard = core ? "" : `if (!globalThis.__browxai) return "__browxai_missing__";`;
    text = `function(method, args) {
  ${guard}
  ${install.join(";\n")};
  return method === null ? true : globalThis.__browxai[method](...args);
}`;
    INSTALL_AND_CALL.set(key, text);
  }
  return text;
}

/**
 * The function (a `Runtime.callFunctionOn` declaration on an element, `(method, ...args)`)
 * that calls `__browxai[method](this, ...args)`; with `lazy`, adding its group first when the
 * world lacks it (without the groups it needs when `marks` say they are there), or (`probe`)
 * answering `"__browxai_missing__"` then. Its text is the same
 * for every method of a group (compiled once per renderer).
 */
export function callOnElement(
  lazy: LazyParts | undefined,
  probe = false,
  marks?: ReadonlySet<string>,
): string {
  const groups = lazy && !probe ? toSend(lazy, marks) : [];
  const key = `on:${probe ? `probe ${lazy?.flag}` : groups.map((g) => g.flag)}`;
  let text = INSTALL_AND_CALL.get(key);
  if (text === undefined) {
    const missing = lazy &&
      `if (!globalThis.__browxai.${lazy.flag}) ${
        probe ? `return "__browxai_missing__"` : sourceOf(groups)
      };`;
    text = `function(method, ...a) {
  ${missing ?? ""}
  return globalThis.__browxai[method](this, ...a);
}`;
    INSTALL_AND_CALL.set(key, text);
  }
  return text;
}
