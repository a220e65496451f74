/**
 * Named refs: names an agent gives to elements it holds a ref to (`name_ref`), usable wherever
 * a ref is (`named` on every tool that takes a target). A name is an alias of an `eN`, not a
 * second id system: it resolves to its ref, and fails exactly as that ref fails when the
 * element is gone (`ref-gone`, the same reason and detail). One registry per session.
 *
 * @module
 */
import { ToolError } from "../tool_error.ts";
import type { RefEntry } from "./ref_types.ts";
import type { RefRegistry } from "./refs.ts";
import { parseRef } from "./ref_syntax.ts";

/** What a name may look like: a letter, then letters, digits, `_`, `-` or `.`; 64 at most. */
const NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
/** A name shaped like a ref (`e12`, `p3`): `named: "e12"` and `ref: "e12"` would differ. */
const REF_SHAPED = /^[ep][0-9]+$/i;
/** Names per session at most (an agent naming in a loop gets a clear error, not a leak). */
export const MAX_NAMED_REFS = 500;
/** A label as `list_named_refs` shows it, chars at most (500 names stay a readable list). */
const MAX_LABEL_CHARS = 80;

/** A name as an error quotes it: a long one cut (the agent sent it; it need not read it back). */
function quoted(name: string): string {
  return JSON.stringify(name.length > 70 ? `${name.slice(0, 64)}…` : name);
}

/** One named ref as `list_named_refs` shows it. */
export interface NamedRef {
  name: string;
  ref: string;
  /** The element's role and accessible name when it was named (the name cut at 80 chars). */
  role: string;
  label: string;
  /** The registry still holds the ref (its document is the one it was seen in). */
  known: boolean;
}

/** The names of one session, over that session's ref registry. */
export class NamedRefs {
  #refs: RefRegistry;
  #byName = new Map<string, { ref: string; role: string; label: string }>();

  constructor(refs: RefRegistry) {
    this.#refs = refs;
  }

  /** How many names there are. */
  get size(): number {
    return this.#byName.size;
  }

  /**
   * Names `ref` (`e12`, also `[ref=e12]`); a name in use moves to the new ref.
   *
   * @returns the ref, its element's role and name (`label`, cut at the list's length) as it
   *   was shown, and the ref the name held before, if any.
   * @throws ToolError invalid-argument (a bad name or ref, too many names); ref-gone when the
   *   registry no longer knows `ref` (its document was replaced) or never showed it to the agent.
   */
  set(
    name: string,
    refInput: string,
  ): { ref: string; role: string; label: string; replaced?: string } {
    if (!NAME.test(name)) {
      throw new ToolError(
        "invalid-argument",
        `Invalid name ${quoted(name)}: a letter, then letters, digits, "_", "-" or "."; 64 at most`,
        'e.g. name_ref({ name: "save_button", ref: "e12" })',
      );
    }
    if (REF_SHAPED.test(name)) {
      throw new ToolError(
        "invalid-argument",
        `Invalid name ${
          quoted(name)
        }: it reads as a ref (named: "${name}" and ref: "${name}" would be two elements)`,
        'pick a name that says what the element is, e.g. "save_button"',
      );
    }
    const ref = parseRef(refInput);
    if (!ref) {
      throw new ToolError(
        "invalid-argument",
        `Invalid ref ${JSON.stringify(refInput)}: expected e<number>, e.g. e12`,
        "take a snapshot (or find) and pass a ref from it",
      );
    }
    const entry = this.#refs.get(ref);
    if (!entry) {
      throw new ToolError(
        this.#refs.wasIssued(ref) ? "ref-gone" : "invalid-argument",
        this.#refs.wasIssued(ref)
          ? `Ref "${ref}" is gone (its document was replaced); nothing was named`
          : `Unknown ref "${ref}": no snapshot gave it`,
        "take a new snapshot and name a ref from it",
        { ref },
      );
    }
    if (!entry.shown) {
      throw new ToolError(
        "ref-gone",
        `Ref "${ref}" was never shown to you; nothing was named`,
        "take a snapshot (or find) and name a ref it shows",
        { ref, reason: "unshown" },
      );
    }
    const before = this.#byName.get(name)?.ref;
    if (before === undefined && this.#byName.size >= MAX_NAMED_REFS) {
      throw new ToolError(
        "invalid-argument",
        `Too many named refs (${MAX_NAMED_REFS}) in this session`,
        "reuse a name (naming it again moves it), or close the session",
      );
    }
    const label = entry.name.length > MAX_LABEL_CHARS
      ? `${entry.name.slice(0, MAX_LABEL_CHARS - 1)}…`
      : entry.name;
    this.#byName.set(name, { ref, role: entry.role, label });
    return {
      ref,
      role: entry.role,
      label,
      ...(before !== undefined && before !== ref ? { replaced: before } : {}),
    };
  }

  /**
   * The ref a name stands for.
   *
   * @throws ToolError invalid-argument when no such name was given in this session.
   */
  resolve(name: string): string {
    const hit = this.#byName.get(name);
    if (!hit) {
      const known = [...this.#byName.keys()].slice(0, 10);
      throw new ToolError(
        "invalid-argument",
        `No named ref ${quoted(name)} in this session${
          known.length ? ` (names: ${known.join(", ")})` : ""
        }`,
        "name an element first with name_ref({ name, ref }), or pass its ref",
      );
    }
    return hit.ref;
  }

  /** Every name, in the order given. */
  /**
   * Every name, in the order given. `current` says whether a ref's document is still the one
   * its frame shows (the registry forgets a replaced document's refs only at the next capture).
   */
  list(current: (entry: RefEntry) => boolean = () => true): NamedRef[] {
    return [...this.#byName].map(([name, { ref, role, label }]) => {
      const entry = this.#refs.get(ref);
      return { name, ref, role, label, known: entry !== undefined && current(entry) };
    });
  }
}
