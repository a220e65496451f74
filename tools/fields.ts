/**
 * Schema fields many tools share, each defined (and described) once: every
 * tool's schema is paid for in tokens on every turn of the agent, so a field
 * that recurs in dozens of tools gets the shortest exact description, and
 * the same one everywhere.
 *
 * @module
 */
import { z } from "zod";
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS } from "../browser/timeouts.ts";

export { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS };

/**
 * The session a call runs in (omitted: `"default"`). Its description only restates its name,
 * so tools/list leaves it out: in every tool it would cost ~5 tokens each turn (open_session
 * says what a session is).
 */
export const sessionField = z.string().optional().describe("Session");

/** A time budget in ms, 1..{@link MAX_TIMEOUT_MS}, default {@link DEFAULT_TIMEOUT_MS}. */
export const timeoutField = z.number().int().refine(
  (v) => v >= 1 && v <= MAX_TIMEOUT_MS,
  `must be 1..${MAX_TIMEOUT_MS} ms`,
).optional().describe(`Default ${DEFAULT_TIMEOUT_MS}`);

/** How much of the page an ActionResult carries (default `delta`). */
export const snapshotField = z.enum(["delta", "full", "none"]).optional().describe(
  "Default delta",
);

/** An element by its snapshot ref (`eN`, a named ref, or a picked `pN`). */
export const refField = z.string().optional().describe("Snapshot ref, e.g. e12");

/** An element by a name given with `name_ref` (an alias of its ref). */
export const namedField = z.string().optional().describe("name_ref alias");

/**
 * A `text=` selector without words (`text=`, `text=   `, `text=""`): every element's text
 * contains the empty string, so it would act on the first element of the page.
 */
const EMPTY_TEXT_SELECTOR = /^text=\s*(?:"\s*")?\s*$/s;

/** Why an empty `text=` selector is refused, and what to pass instead. */
export const EMPTY_TEXT_SELECTOR_MESSAGE =
  'text= needs the words to find: text=Save (contains, any case) or text="Save" (exactly); ' +
  "for an element without text, use its ref from snapshot or a CSS selector";

/** The longest selector taken, characters. */
const MAX_SELECTOR_CHARS = 10_000;

/**
 * The longest query, text to wait for or pattern taken, characters: a 50 MB `find` query kept
 * the server busy for a minute, for every client.
 */
export const MAX_QUERY_CHARS = 8_192;

/** The longest value `fill`, `fill_form` and `set_editor` take, characters (1 Mi). */
export const MAX_VALUE_CHARS = 1_048_576;

/**
 * A string of at most `max` characters; a longer one is refused as `invalid-argument` before
 * the tool runs, with the limit and its length (`what`: "a query"). A refinement, not
 * `maxLength`: it costs no schema tokens in tools/list.
 */
export function cappedString(what: string, max: number): z.ZodString {
  return z.string().check(z.refine((s: string) => s.length <= max, {
    // Nothing else is worked out on a string that long.
    abort: true,
    error: (issue) =>
      `${what} of at most ${max} characters (this one has ${String(issue.input).length})`,
  }));
}

/**
 * An element by CSS selector, or `text=…` (refused as `invalid-argument` when it names no
 * words: it would match everything).
 */
export const selectorField = cappedString("a selector", MAX_SELECTOR_CHARS).refine(
  (s) => !EMPTY_TEXT_SELECTOR.test(s),
  EMPTY_TEXT_SELECTOR_MESSAGE,
).optional().describe("CSS or text=…");

/** The largest viewport browxai sets, CSS px (8K): a bigger one starves the renderer. */
export const MAX_VIEWPORT = { width: 7680, height: 4320 } as const;

/** Schema fields every acting tool takes. */
export const actingFields = {
  session: sessionField,
  timeoutMs: timeoutField,
  snapshot: snapshotField,
};

/** Schema fields shared by every tool that takes a target. */
export const targetFields = {
  ref: refField,
  named: namedField,
  selector: selectorField,
  coords: z.object({ x: z.number(), y: z.number() }).optional().describe(
    "Viewport point, CSS px",
  ),
};

/** The `submits` field of tools that may send a form (click, press, select, …). */
export const submitsField = {
  submits: z.boolean().optional().describe(
    "Sends a form (else stopped)",
  ),
};

/**
 * The `submits` field of a tool that never sends a form itself (`fill_form`): it only lets a
 * send the call causes through (a form that submits on change); the policy stops undeclared
 * sends. Sending is a click on the form's submit control, declared with `submits: true`.
 */
export const allowsSendField = {
  submits: z.boolean().optional().describe(
    "Only allows a form send (else stopped); to send, click submit with submits: true",
  ),
};

/** The acting-tool field that declares a download. */
export const downloadField = {
  download: z.boolean().optional().describe("Save the one file it downloads (asks)"),
};
