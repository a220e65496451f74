/**
 * A ref as an agent passes it: `e12`, a picked `p3`, or copied with its mark from a snapshot
 * line (`ref=e12`, `[ref=e12]`).
 *
 * @module
 */

const REF_FORMS = /^\s*(?:\[?ref=)?([ep]\d+)\]?\s*$/;

/**
 * Parses what an agent passed as a ref: `e12` (or a picked `p3`), also `ref=e12` and
 * `[ref=e12]` (copied from a snapshot line). Returns the bare ref, or undefined when it
 * is not a ref.
 */
export function parseRef(input: string): string | undefined {
  return REF_FORMS.exec(input)?.[1];
}
