/**
 * The US keyboard layout: every key a caller may name (letters, digits,
 * punctuation, editing and navigation keys, F1–F12, modifiers, the numpad)
 * with the values `Input.dispatchKeyEvent` needs, plus the aliases people and
 * agents actually type ("Ctrl", "Cmd", "Esc", "Return", "Up", …).
 *
 * Pure data, lookups and the combo parser ({@link parseKeyCombo}): no CDP
 * here; `cdp/input.ts` sends the events.
 *
 * @module
 */

/** `KeyboardEvent.location`: 0 standard, 1 left, 2 right, 3 numpad. */
export type KeyLocation = 0 | 1 | 2 | 3;

/** One physical key of the layout. */
export interface KeyDefinition {
  /** `KeyboardEvent.key` without Shift, e.g. `"a"`, `"1"`, `"Enter"`, `" "`. */
  key: string;
  /** `KeyboardEvent.code` (the physical key), e.g. `"KeyA"`, `"Digit1"`, `"ShiftLeft"`. */
  code: string;
  /** `keyCode` / CDP `windowsVirtualKeyCode`, e.g. 65 for A, 13 for Enter. */
  keyCode: number;
  /** Text the key types without Shift (`"a"`, `"\r"` for Enter); absent for non-printing keys. */
  text?: string;
  /** `key` (and typed text) with Shift held, when Shift changes it (`"A"`, `"!"`). */
  shiftKey?: string;
  /** `keyCode` with Shift held, when it differs (never on the US main block). */
  shiftKeyCode?: number;
  /** Where the key sits (left/right modifiers, numpad). */
  location: KeyLocation;
}

/** The four modifiers, by their `KeyboardEvent.key`. */
export type ModifierName = "Alt" | "Control" | "Meta" | "Shift";

/** CDP modifier bits (`Input.dispatchKeyEvent` / `dispatchMouseEvent` `modifiers`). */
export const MODIFIER_BITS: Readonly<Record<ModifierName, number>> = {
  Alt: 1,
  Control: 2,
  Meta: 4,
  Shift: 8,
};

/** True for `"Alt" | "Control" | "Meta" | "Shift"` (canonical names only). */
export function isModifierName(name: string): name is ModifierName {
  return Object.hasOwn(MODIFIER_BITS, name);
}

function printable(code: string, keyCode: number, key: string, shiftKey?: string): KeyDefinition {
  return { key, code, keyCode, text: key, ...(shiftKey ? { shiftKey } : {}), location: 0 };
}

function control(code: string, keyCode: number, key = code, location: KeyLocation = 0) {
  return { key, code, keyCode, location } satisfies KeyDefinition;
}

function numpad(code: string, keyCode: number, key: string): KeyDefinition {
  return { key, code, keyCode, text: key, location: 3 };
}

function buildLayout(): KeyDefinition[] {
  const keys: KeyDefinition[] = [];
  for (let i = 0; i < 26; i++) {
    const lower = String.fromCharCode(97 + i);
    const upper = lower.toUpperCase();
    keys.push(printable(`Key${upper}`, 65 + i, lower, upper));
  }
  const digitShift = ")!@#$%^&*(";
  for (let i = 0; i < 10; i++) keys.push(printable(`Digit${i}`, 48 + i, String(i), digitShift[i]));
  keys.push(
    printable("Backquote", 192, "`", "~"),
    printable("Minus", 189, "-", "_"),
    printable("Equal", 187, "=", "+"),
    printable("BracketLeft", 219, "[", "{"),
    printable("BracketRight", 221, "]", "}"),
    printable("Backslash", 220, "\\", "|"),
    printable("Semicolon", 186, ";", ":"),
    printable("Quote", 222, "'", '"'),
    printable("Comma", 188, ",", "<"),
    printable("Period", 190, ".", ">"),
    printable("Slash", 191, "/", "?"),
    printable("Space", 32, " "),
    // Enter types "\r": Blink's implicit form submission and textarea newlines need the keypress.
    { key: "Enter", code: "Enter", keyCode: 13, text: "\r", location: 0 },
    control("Tab", 9),
    control("Escape", 27),
    control("Backspace", 8),
    control("Delete", 46),
    control("Insert", 45),
    control("Home", 36),
    control("End", 35),
    control("PageUp", 33),
    control("PageDown", 34),
    control("ArrowLeft", 37),
    control("ArrowUp", 38),
    control("ArrowRight", 39),
    control("ArrowDown", 40),
    control("CapsLock", 20),
    control("NumLock", 144),
    control("ScrollLock", 145),
    control("Pause", 19),
    control("PrintScreen", 44),
    control("ContextMenu", 93),
  );
  for (let i = 1; i <= 12; i++) keys.push(control(`F${i}`, 111 + i));
  keys.push(
    control("ShiftLeft", 16, "Shift", 1),
    control("ShiftRight", 16, "Shift", 2),
    control("ControlLeft", 17, "Control", 1),
    control("ControlRight", 17, "Control", 2),
    control("AltLeft", 18, "Alt", 1),
    control("AltRight", 18, "Alt", 2),
    control("MetaLeft", 91, "Meta", 1),
    control("MetaRight", 92, "Meta", 2),
  );
  // NumLock on: the numpad types digits and operators.
  for (let i = 0; i < 10; i++) keys.push(numpad(`Numpad${i}`, 96 + i, String(i)));
  keys.push(
    numpad("NumpadMultiply", 106, "*"),
    numpad("NumpadAdd", 107, "+"),
    numpad("NumpadSubtract", 109, "-"),
    numpad("NumpadDecimal", 110, "."),
    numpad("NumpadDivide", 111, "/"),
    { key: "Enter", code: "NumpadEnter", keyCode: 13, text: "\r", location: 3 },
  );
  return keys;
}

/** Every key of the US layout, main block first, then modifiers, then the numpad. */
export const US_KEYBOARD_LAYOUT: readonly KeyDefinition[] = Object.freeze(buildLayout());

/** Alternative names → the canonical name they stand for (matched case-insensitively). */
export const KEY_ALIASES: Readonly<Record<string, string>> = {
  Ctrl: "Control",
  ControlOrMeta: "Control",
  Cmd: "Meta",
  Command: "Meta",
  Super: "Meta",
  Win: "Meta",
  Windows: "Meta",
  Option: "Alt",
  Opt: "Alt",
  Esc: "Escape",
  Return: "Enter",
  Up: "ArrowUp",
  Down: "ArrowDown",
  Left: "ArrowLeft",
  Right: "ArrowRight",
  Del: "Delete",
  Ins: "Insert",
  PgUp: "PageUp",
  PgDn: "PageDown",
  PageDn: "PageDown",
  Spacebar: "Space",
  Plus: "+",
  Menu: "ContextMenu",
  "\n": "Enter",
  "\r": "Enter",
  "\t": "Tab",
};

/** A name resolved against the layout. */
export interface ResolvedKey {
  /** The canonical name: the key (`"a"`, `"A"`, `"Enter"`, `"Shift"`) or code (`"KeyA"`) asked for. */
  name: string;
  definition: KeyDefinition;
  /** The name is the Shift variant of its key (`"A"`, `"!"`): it types `shiftKey`. */
  shifted: boolean;
}

/** Exact names: every `key`, `shiftKey` and `code`; the main block wins over the numpad. */
const EXACT = new Map<string, ResolvedKey>();
/** Lower-cased multi-character names (`"enter"`, `"keya"`, `"ctrl"`) → canonical name. */
const FOLDED = new Map<string, string>();

function register(name: string, definition: KeyDefinition, shifted: boolean) {
  if (!EXACT.has(name)) EXACT.set(name, { name, definition, shifted });
  if (name.length > 1 && !FOLDED.has(name.toLowerCase())) FOLDED.set(name.toLowerCase(), name);
}

for (const def of US_KEYBOARD_LAYOUT) {
  register(def.key, def, false);
  if (def.shiftKey) register(def.shiftKey, def, true);
}
for (const def of US_KEYBOARD_LAYOUT) register(def.code, def, false);
for (const [alias, target] of Object.entries(KEY_ALIASES)) {
  if (alias.length > 1) FOLDED.set(alias.toLowerCase(), target);
  else if (!EXACT.has(alias)) EXACT.set(alias, { ...EXACT.get(target)!, name: target });
}

/**
 * Resolves a key name: exact `key`/`shiftKey`/`code` names (`"a"`, `"A"`, `"$"`,
 * `"KeyA"`, `"Enter"`), then aliases and case-insensitive multi-character names
 * (`"ctrl"`, `"ESC"`, `"arrowleft"`). Single characters are case-sensitive.
 *
 * @returns `undefined` for a name that is not on the layout.
 */
export function lookupKey(name: string): ResolvedKey | undefined {
  const exact = EXACT.get(name);
  if (exact) return exact;
  if (name.length < 2) return undefined;
  const canonical = FOLDED.get(name.toLowerCase());
  return canonical === undefined ? undefined : EXACT.get(canonical);
}

/** Every name {@link lookupKey} accepts exactly (no aliases, no case folding). */
export function keyNames(): string[] {
  return [...EXACT.keys()];
}

/**
 * The closest multi-character key name to a misspelt one (`"Entr"` → `"Enter"`,
 * `"Ctl"` → `"Control"`), within two edits; `undefined` when nothing is close.
 */
export function suggestKey(name: string): string | undefined {
  const folded = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.min(3, Math.max(1, folded.length - 1));
  for (const [candidate, canonical] of FOLDED) {
    const d = editDistance(folded, candidate);
    if (d < bestDistance) [best, bestDistance] = [canonical, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
    }
    prev = row;
  }
  return prev[b.length]!;
}

/** What one key event carries, given the held modifiers. */
export interface KeyDescription {
  key: string;
  code: string;
  keyCode: number;
  /** Text to type (`""` when the key types nothing or Control/Alt/Meta is held). */
  text: string;
  /** Text the key would type without modifiers (CDP `unmodifiedText`). */
  unmodifiedText: string;
  location: KeyLocation;
}

/**
 * The event values of a key with `modifiers` (CDP bitmask) held. Shift picks
 * the shifted key and text ("a" with Shift → "A"); Control, Alt or Meta
 * suppress the text so the key acts as a shortcut rather than typing.
 */
export function describeKey(resolved: ResolvedKey, modifiers: number): KeyDescription {
  const def = resolved.definition;
  const shift = resolved.shifted || (modifiers & MODIFIER_BITS.Shift) !== 0;
  const key = shift && def.shiftKey ? def.shiftKey : def.key;
  const keyCode = shift && def.shiftKeyCode ? def.shiftKeyCode : def.keyCode;
  const unmodifiedText = def.text === undefined
    ? ""
    : shift && def.shiftKey
    ? def.shiftKey
    : def.text;
  const shortcut = MODIFIER_BITS.Control | MODIFIER_BITS.Alt | MODIFIER_BITS.Meta;
  const text = (modifiers & shortcut) !== 0 ? "" : unmodifiedText;
  return { key, code: def.code, keyCode, text, unmodifiedText, location: def.location };
}

/** A parsed combo: modifiers to hold (canonical names, in order) and the key to press. */
export interface KeyCombo {
  modifiers: ModifierName[];
  /** Canonical key name (`"a"`, `"A"`, `"Enter"`, `"+"`, `"KeyA"`). */
  key: string;
}

/**
 * Editor commands sent with the keydown of Linux/Windows editing shortcuts,
 * keyed by `"<modifier bitmask>:<code>"` (Control=2, Control+Shift=10).
 */
export const EDITING_COMMANDS: Readonly<Record<string, readonly string[]>> = {
  [`${MODIFIER_BITS.Control}:KeyA`]: ["selectAll"],
  [`${MODIFIER_BITS.Control}:KeyC`]: ["copy"],
  [`${MODIFIER_BITS.Control}:KeyX`]: ["cut"],
  [`${MODIFIER_BITS.Control}:KeyV`]: ["paste"],
  [`${MODIFIER_BITS.Control}:KeyZ`]: ["undo"],
  [`${MODIFIER_BITS.Control | MODIFIER_BITS.Shift}:KeyZ`]: ["redo"],
  [`${MODIFIER_BITS.Control}:KeyY`]: ["redo"],
};

const EXAMPLES = "use names like Enter, Tab, ArrowLeft, a, Control+a";

/**
 * The error for a name that is not on the layout.
 * Message: `Unknown key: "Entr": did you mean "Enter"? Use names like Enter, Tab, …`.
 */
export function unknownKey(name: string): RangeError {
  const hint = suggestKey(name);
  return new RangeError(
    hint === undefined
      ? `Unknown key: ${JSON.stringify(name)}: ${EXAMPLES}`
      : `Unknown key: ${JSON.stringify(name)}: did you mean "${hint}"? Or ${EXAMPLES}`,
  );
}

/**
 * {@link lookupKey} that throws.
 *
 * @throws RangeError from {@link unknownKey} for a name not on the layout.
 */
export function resolveKey(name: string): ResolvedKey {
  const resolved = lookupKey(name);
  if (!resolved) throw unknownKey(name);
  return resolved;
}

/**
 * Resolves a modifier name or alias (`"Ctrl"`, `"Cmd"`, `"ShiftLeft"`) to its
 * canonical name; `combo`, when given, is quoted in the error.
 *
 * @throws RangeError for an unknown name or a key that is not a modifier.
 */
export function resolveModifier(name: string, combo?: string): ModifierName {
  const { definition } = resolveKey(name);
  if (!isModifierName(definition.key)) {
    const where = combo === undefined
      ? ""
      : ` in ${JSON.stringify(combo)}: only the last key of a combo may be a non-modifier;`;
    throw new RangeError(
      `Not a modifier: ${JSON.stringify(name)}${where} modifiers are Shift, Control, Alt, Meta`,
    );
  }
  return definition.key;
}

/**
 * Parses `"Control+Shift+K"`, `"Enter"`, `"Meta+Enter"`, `"$"`, `"+"`,
 * `"Control++"` (Control and "+"). Names are resolved against the US layout
 * with aliases (`Ctrl`, `Cmd`, `Option`, `Esc`, `Return`, `Up`, …); multi-letter
 * names are case-insensitive, single characters are not (`"a"` ≠ `"A"`).
 *
 * @throws RangeError for an empty combo, an empty part (`"++"`, `"a++b"`),
 *   an unknown key name, or a non-modifier before the last key.
 */
export function parseKeyCombo(combo: string): KeyCombo {
  if (typeof combo !== "string" || (combo.trim() === "" && combo !== " ")) {
    throw new RangeError(`Invalid key combo ${JSON.stringify(combo)}: it is empty; ${EXAMPLES}`);
  }
  let parts: string[];
  if (combo === "+") parts = ["+"];
  else if (combo.length > 2 && combo.endsWith("++")) {
    parts = [...combo.slice(0, -2).split("+"), "+"];
  } else parts = combo.split("+");
  parts = parts.map((p) => (p === " " ? p : p.trim()));
  if (parts.some((p) => p === "")) {
    throw new RangeError(
      `Invalid key combo ${JSON.stringify(combo)}: empty key name between "+" signs; ` +
        `join keys with "+" (Control+a) and name the plus key "+" or "Plus"`,
    );
  }
  const last = parts.pop()!;
  const modifiers: ModifierName[] = [];
  for (const part of parts) {
    const m = resolveModifier(part, combo);
    if (!modifiers.includes(m)) modifiers.push(m);
  }
  return { modifiers, key: resolveKey(last).name };
}
