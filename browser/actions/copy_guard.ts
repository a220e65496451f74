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

function refusal(key: string, why: string): ToolError {
  return new ToolError(
    "blocked-by-policy",
    `policy: refused to press ${key}: ${why}, and the clipboard would carry it where the ` +
      "secret's origin check does not reach",
    "fill the secret where it is needed with fill({ value: '{{secret:NAME}}' }) instead of copying it",
    { policy: { rule: "secret-copy", decision: "refused" } },
  );
}
