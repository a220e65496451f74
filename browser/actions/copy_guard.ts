/**
 * Keeps a secret from leaving through the clipboard: a bound secret is checked against the
 * origin of every fill, but Ctrl+C on its own origin and Ctrl+V on another would carry it
 * past that check (the red team's sec2). `press` refuses a copy or cut shortcut while the
 * focused field, or the selection, holds a registered secret in any frame of the tab.
 *
 * @module
 */
import { lookupKey } from "../../cdp/keyboard_layout.ts";
import { parseKeyCombo } from "../../cdp/input.ts";
import type { Page } from "../../cdp/page.ts";
import type { SecretStore } from "../../policy/secrets.ts";
import { callUtility } from "../injected/mod.ts";
import { ToolError } from "../tool_error.ts";
import { hasHeldField } from "./secret_query.ts";

/** A combo's key code and modifiers; undefined when it does not parse. */
function keysOf(combo: string): { code: string | undefined; mods: Set<string> } | undefined {
  try {
    const parsed = parseKeyCombo(combo);
    return { code: lookupKey(parsed.key)?.definition.code, mods: new Set(parsed.modifiers) };
  } catch {
    return undefined;
  }
}

/**
 * True when pressing `combo` copies or cuts the selection: Control or Meta with C or X,
 * Control+Insert, Shift+Delete. Pure; false for a combo that does not parse.
 */
export function copiesSelection(combo: string): boolean {
  const keys = keysOf(combo);
  if (!keys) return false;
  const { code, mods } = keys;
  const command = mods.has("Control") || mods.has("Meta");
  return (command && (code === "KeyC" || code === "KeyX")) ||
    (mods.has("Control") && code === "Insert") || (mods.has("Shift") && code === "Delete");
}

/**
 * True when pressing `combo` pastes from the clipboard: Control or Meta with V (Shift too:
 * paste as plain text), Shift+Insert. Pure; false for a combo that does not parse.
 */
export function pastesClipboard(combo: string): boolean {
  const keys = keysOf(combo);
  if (!keys) return false;
  const { code, mods } = keys;
  return ((mods.has("Control") || mods.has("Meta")) && code === "KeyV") ||
    (mods.has("Shift") && code === "Insert");
}

/**
 * Refuses a copy or cut while the focused field's value, or the selection (its text and the
 * text nodes it starts and ends in), holds a value of `secrets`, or is in a field a secret was
 * filled into (`holdSecret`: what is left of it may be part of the value), in any frame of `page`.
 * The page is handed no value: it lists what it would copy, the server looks. CDP:
 * `Runtime.evaluate` per frame (`copySource`).
 *
 * @throws ToolError `blocked-by-policy` (`policy.rule` `secret-copy`) when it does, or when a
 *   frame could not be checked.
 */
export async function refuseSecretCopy(
  page: Page,
  options: { secrets: SecretStore; key: string; signal?: AbortSignal | undefined },
): Promise<void> {
  const { secrets, key, signal } = options;
  for (const frame of page.frames()) {
    let shown: { texts: string[]; held: boolean };
    try {
      shown = await callUtility(page, frame.frameId, "copySource", [], { signal });
    } catch (e) {
      if (signal?.aborted) throw e;
      throw refusal(key, `a frame (${frame.url || frame.frameId}) could not be checked`);
    }
    if (shown.held || shown.texts.some((s) => secrets.contains(s))) {
      throw refusal(key, "the focused field or the selection holds a secret");
    }
  }
}

/**
 * True when pressing `combo` undoes or redoes an edit: Control or Meta with Z (Shift too:
 * redo), Control or Meta with Y, Alt+Backspace (with Shift: redo). Pure; false for a combo
 * that does not parse.
 */
export function undoesEdit(combo: string): boolean {
  const keys = keysOf(combo);
  if (!keys) return false;
  const { code, mods } = keys;
  return ((mods.has("Control") || mods.has("Meta")) && (code === "KeyZ" || code === "KeyY")) ||
    (mods.has("Alt") && code === "Backspace");
}

/**
 * Keys that leave a field's value as it is (they move the caret or the focus, scroll, or
 * submit an `<input>`), by code; with or without modifiers (Shift+Arrow selects).
 */
const KEEPS_VALUE = new Set([
  "Tab",
  "Enter",
  "NumpadEnter",
  "Escape",
  "ArrowLeft",
  "ArrowRight",
  "ArrowUp",
  "ArrowDown",
  "Home",
  "End",
  "PageUp",
  "PageDown",
  "ShiftLeft",
  "ShiftRight",
  "ControlLeft",
  "ControlRight",
  "AltLeft",
  "AltRight",
  "MetaLeft",
  "MetaRight",
]);

/**
 * Refuses keys that may edit a field a secret was filled into (`holdSecret`, secret_lib.ts)
 * while it has focus, in any frame: Backspace, Delete, characters (over a selection), cut,
 * paste; Enter too outside an `<input>` (it replaces a selection in a textarea); undo and redo
 * wherever focus is, while a frame has such a field ({@link undoesEdit}). Edits
 * would leave a part of the value that a page may show (a live "searching for …" line);
 * select all is let through.
 * `key` absent: any typing (`type`). Only pages with a held field are checked (CDP:
 * `Runtime.evaluate` per frame, `focusHeld`). With `secrets` (registered, masking), a focused
 * field not held whose value holds one of them — the browser restored it on a history return
 * into a new document (red team s15 #5) — is held now (`focusedValue`, `holdFocusedSecret`:
 * the page hands the server the value, the server looks; no secret goes to the page).
 *
 * @throws ToolError `blocked-by-policy` (`policy.rule` `secret-edit`).
 */
export async function refuseHeldEdit(
  page: Page,
  options: { key?: string; signal?: AbortSignal | undefined; secrets?: SecretStore | undefined },
): Promise<void> {
  const { key, signal } = options;
  const secrets = options.secrets?.masks ? options.secrets : undefined;
  const keys = key === undefined ? undefined : keysOf(key);
  const code = keys?.code;
  // Select all (Control or Meta+A) edits nothing; a copy of it is refused as a copy.
  if (code === "KeyA" && (keys!.mods.has("Control") || keys!.mods.has("Meta"))) return;
  if (!hasHeldField(page) || (key !== undefined && code === undefined)) return;
  if (key !== undefined && undoesEdit(key)) return await refuseUndo(page, key, signal);
  for (const frame of page.frames()) {
    let held: "input" | "other" | null;
    try {
      held = await callUtility(page, frame.frameId, "focusHeld", [], { signal });
      if (!held && secrets) held = await holdRestored(page, frame.frameId, secrets, signal);
    } catch (e) {
      if (signal?.aborted) throw e;
      continue; // a frame gone meanwhile has no focus to type into
    }
    if (!held) continue;
    const enter = code === "Enter" || code === "NumpadEnter";
    if (code && KEEPS_VALUE.has(code) && !(enter && held !== "input")) return;
    throw editRefusal(
      `${
        key === undefined ? "type" : `press ${key}`
      } in a field a secret was filled into: an edit would leave part of the value, which the page may show`,
    );
  }
}

/**
 * Holds the focused field of frame `frameId` when its value holds one of `secrets` (a value
 * the browser put back, not a fill of this document); its kind as `focusHeld` says, or null.
 * CDP: `Runtime.evaluate` (`focusedValue`, then `holdFocusedSecret`, `focusHeld`).
 */
async function holdRestored(
  page: Page,
  frameId: string,
  secrets: SecretStore,
  signal: AbortSignal | undefined,
): Promise<"input" | "other" | null> {
  const value = await callUtility(page, frameId, "focusedValue", [], { signal });
  if (!value || !secrets.contains(value)) return null;
  // What it shows now is what it may show whole (masked); anything else left is a secret's.
  await callUtility(page, frameId, "holdFocusedSecret", [[value]], { signal });
  return await callUtility(page, frameId, "focusHeld", [], { signal });
}

/**
 * In a tab where a secret was filled (`hasHeldField`), holds every text field of every frame
 * whose value holds one of `secrets` and is not held: the browser puts a filled value back into
 * a new document on a history return (form state), where nothing was held (red team s15 #5),
 * and a selection made with the mouse then dragged out would peel it. Run before each action.
 * The page hands the server the values; no secret goes to the page. CDP: `Runtime.evaluate`
 * per frame (`fieldValues`, then `holdFields` where one holds a secret); a frame gone
 * meanwhile is skipped.
 */
export async function holdRestoredFields(
  page: Page,
  secrets: SecretStore | undefined,
  signal?: AbortSignal,
): Promise<void> {
  if (!secrets?.masks || !hasHeldField(page)) return;
  await Promise.all(
    page.frames().map(async ({ frameId }) => {
      try {
        const values = await callUtility(page, frameId, "fieldValues", [], { signal });
        const found = values.flatMap((v, i) => v && secrets.contains(v) ? [i] : []);
        if (found.length) await callUtility(page, frameId, "holdFields", [found], { signal });
      } catch (e) {
        if (signal?.aborted) throw e;
      }
    }),
  );
}

/**
 * Refuses an undo or redo while any frame of `page` has a field a secret was filled into,
 * wherever focus is: Chromium keeps one undo stack per frame, so an undo pressed in another
 * field takes the held field's typing back one step at a time (red team s14 #3). CDP:
 * `Runtime.evaluate` per frame (`anyHeld`); a frame gone meanwhile has no stack left.
 *
 * @throws ToolError `blocked-by-policy` (`policy.rule` `secret-edit`).
 */
async function refuseUndo(page: Page, key: string, signal: AbortSignal | undefined) {
  for (const frame of page.frames()) {
    let held: boolean;
    try {
      held = await callUtility(page, frame.frameId, "anyHeld", [], { signal });
    } catch (e) {
      if (signal?.aborted) throw e;
      continue;
    }
    if (!held) continue;
    throw editRefusal(
      `press ${key}: a field in this frame was filled with a secret, and an undo or redo ` +
        "anywhere in the frame may take its typing back a step (part of the value, which the page may show)",
    );
  }
}

function editRefusal(what: string): ToolError {
  return new ToolError(
    "blocked-by-policy",
    `policy: refused to ${what}`,
    "fill the field again (fill({ value: '{{secret:NAME}}' }) or a plain value) instead of editing it",
    { policy: { rule: "secret-edit", decision: "refused" } },
  );
}

function refusal(key: string, why: string): ToolError {
  return new ToolError(
    "blocked-by-policy",
    `policy: refused to press ${key}: ${why}, and the clipboard would carry it where the ` +
      "secret's origin check does not reach",
    "fill the secret where it is needed with fill({ value: '{{secret:NAME}}' }) instead of copying it",
    { policy: { rule: "secret-copy", decision: "refused" } },
  );
}
