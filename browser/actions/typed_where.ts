/**
 * Where `type`'s text went when the focus left the field it started in (the page moved it
 * after some characters: a blur in an `input` handler, an auto-advancing code field): how many
 * characters the field took, where the focus went, and whether the rest reached any field.
 *
 * @module
 */
import type { TypeLanded } from "../injected/page_types.ts";
import { ToolError } from "../tool_error.ts";

/** "1 character" / "3 characters". */
function chars(n: number): string {
  return `${n} character${n === 1 ? "" : "s"}`;
}

/**
 * Judges the typing of `text` by what the page saw (`typeEnd`): the `not-actionable` failure
 * when the focus left the field and some text characters (Enter and Tab aside) reached no
 * field; a warning when the focus moved and the rest went to other fields (unless the text
 * itself moved it with a Tab); else nothing. The failure's details: `typed` (the characters
 * the field took) and `focusMovedTo`.
 */
export function typedOutcome(
  text: string,
  landed: TypeLanded | null | undefined,
): { error: ToolError } | { warning: string } | undefined {
  if (!landed?.left) return undefined;
  const total = [...text].filter((c) => c !== "\n" && c !== "\r" && c !== "\t").length;
  const lost = total - landed.into - landed.elsewhereChars;
  const others = landed.elsewhere.map((e) => `${chars(e.chars)} to ${e.what}`).join(", ") +
    (landed.elsewhereChars > landed.elsewhere.reduce((n, e) => n + e.chars, 0) ? ", …" : "");
  if (lost > 0) {
    return {
      error: new ToolError(
        "not-actionable",
        `Typed ${landed.into} of ${chars(total)} into ${landed.field}, then the focus left it ` +
          `(now on ${landed.now}): ${chars(lost)} reached no field` +
          (others ? ` (${others})` : ""),
        "take a snapshot to see the field and what has the focus; fill the field by ref " +
          "(it sets the whole value), or click it and type the rest",
        { typed: landed.into, focusMovedTo: landed.now },
      ),
    };
  }
  if (!others || text.includes("\t")) return undefined;
  return {
    warning: `the page moved the focus while typing: ${chars(landed.into)} went to ` +
      `${landed.field}, then ${others}; the focus is now on ${landed.now}`,
  };
}
