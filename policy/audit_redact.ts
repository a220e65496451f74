/**
 * Redaction of a call's arguments for the audit log: values the agent puts into pages or
 * storage are never written (strings to their length and placeholders), other strings are
 * capped at {@link MAX_AUDIT_STRING} characters, and arguments that failed validation keep
 * only a few known keys. Pure: `audit.ts` builds its lines with these.
 *
 * @module
 */
import { createHash } from "node:crypto";

/**
 * Argument keys whose values are what the agent puts into pages or storage
 * (`fill.value`, `fill_form.fields[].value`, `type.text`,
 * `handle_dialog.text`, `open_session.promptText`, `set_editor.html`,
 * `cookies_set.value`, `localstorage_set.value`, `idb_put.value`,
 * `inject_storage_state`'s cookie and item values, `artifact_save.content`,
 * …), at any depth: never written to the audit log, whatever their type.
 * `eval_js.expression` is kept (capped), and so are the bodies `route` and
 * `caches_put` serve ({@link CODE_KEYS_OF}): which code ran is what an audit
 * of code execution is for; so are values written to a page's storage while
 * bound secrets can be filled ({@link STORED_CODE_OF}).
 */
export const REDACTED_KEYS: readonly string[] = [
  "value",
  "text",
  "html",
  "promptText",
  "content",
  "body",
  "contentBase64",
  // A route's canned response (`route.response.json`, its headers: tokens, cookies).
  "json",
  "headers",
];

/**
 * Argument keys that hold another tool's arguments, whose shape this call's schema does not
 * say (`batch`/`flake_check` `calls[].args`, `plan.verbArgs`, `execute.descriptor`): redacted as
 * arguments off their schema are ({@link redactInvalidArgs}). Each inner call writes its own
 * line, redacted by its own tool's schema.
 */
export const OPAQUE_KEYS: readonly string[] = ["args", "verbArgs", "descriptor"];

/** Under a {@link REDACTED_KEYS} key: strings keep only placeholders; anything else non-empty goes. */
function redactValue(v: unknown, depth: number): unknown {
  if (typeof v === "string") return redactFilled(v);
  if (v === null || v === undefined || v === "") return v;
  if (Array.isArray(v)) {
    // Element by element, so `{{secret:NAME}}` placeholders in a list of options stay readable.
    return depth >= MAX_REDACT_DEPTH
      ? `[nested deeper than ${MAX_REDACT_DEPTH} levels]`
      : v.map((e) => redactValue(e, depth + 1));
  }
  if (typeof v === "object") return `[redacted object of ${Object.keys(v).length} keys]`;
  return `[redacted ${typeof v}]`;
}

/** Longest string an audit line keeps, chars. */
export const MAX_AUDIT_STRING = 1000;

const PLACEHOLDER = /\{\{secret:[^{}]*\}\}/g;

/**
 * A filled value as the audit records it: `[redacted N chars]`, keeping
 * `{{secret:NAME}}` placeholders in place (they name a secret, they are not one).
 */
export function redactFilled(value: string): string {
  let out = "";
  let last = 0;
  const literal = (s: string) => s ? `[redacted ${s.length} chars]` : "";
  for (const m of value.matchAll(PLACEHOLDER)) {
    out += literal(value.slice(last, m.index)) + m[0];
    last = m.index + m[0].length;
  }
  return out + literal(value.slice(last));
}

/** Chars of a capped string's end that {@link cap} keeps: where a selector list names its target. */
const CAP_TAIL = 300;

/** The mark {@link cap} puts where it cut: `…[cut N chars]…`. */
export const CUT_MARK = /…\[cut \d+ chars\]…/;

/**
 * `s` as the audit keeps it: whole up to {@link MAX_AUDIT_STRING} chars; longer, its head and
 * its last {@link CAP_TAIL} chars around a `…[cut N chars]…` mark (the end of a 9 KB selector
 * list, `…, #del`, is what it acts on), never between the halves of a surrogate pair.
 */
export function cap(s: string): string {
  if (s.length <= MAX_AUDIT_STRING) return s;
  let head = MAX_AUDIT_STRING - CAP_TAIL;
  let tail = s.length - CAP_TAIL;
  if (isHigh(s.charCodeAt(head - 1))) head--;
  if (isHigh(s.charCodeAt(tail - 1))) tail--;
  return `${s.slice(0, head)}…[cut ${tail - head} chars]…${s.slice(tail)}`;
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Keys of arguments that name where a call acts (and `eval_js`'s code), never what it puts
 * there: the only values kept when a call's arguments do not match its schema ({@link redactInvalidArgs}).
 */
export const KEPT_KEYS_OF_INVALID: readonly string[] = [
  "session",
  "ref",
  "selector",
  "url",
  "tool",
  // Kept (capped) in valid calls too: which code was asked to run is what an audit is for.
  "expression",
];

/** Keys of arguments off their schema whose numbers and booleans are kept (never strings). */
const KEPT_SCALARS_OF_INVALID: readonly string[] = ["timeoutMs", "maxTokens", "offset"];

/**
 * A copy of arguments that failed their tool's schema, fit for the audit: nothing can be
 * told from their shape (`fill_form { fields: { password: "…" } }` puts a password under a
 * key no list names), so every value is redacted as a filled one (strings to their length,
 * `{{secret:NAME}}` placeholders kept) except strings under {@link KEPT_KEYS_OF_INVALID} and
 * numbers under a few count keys (`timeoutMs`, …); keys stay.
 */
export function redactInvalidArgs(args: unknown, depth = 0): unknown {
  if (!args || typeof args !== "object") return redactValue(args, depth);
  if (depth >= MAX_REDACT_DEPTH) return `[nested deeper than ${MAX_REDACT_DEPTH} levels]`;
  if (Array.isArray(args)) return args.map((v) => redactInvalidArgs(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    const kept = (KEPT_KEYS_OF_INVALID.includes(k) && typeof v === "string") ||
      (KEPT_SCALARS_OF_INVALID.includes(k) && (typeof v === "number" || typeof v === "boolean"));
    out[cap(k)] = kept ? (typeof v === "string" ? cap(v) : v) : redactInvalidArgs(v, depth + 1);
  }
  return out;
}

/**
 * Per tool, top-level argument keys that also hold what the agent puts into the page, though
 * elsewhere the same key names a target (`fill_form`'s `label`): `select.label` and
 * `choose_option.option` choose an option by its text, as `select.value` by its value.
 */
export const REDACTED_KEYS_OF: Readonly<Record<string, readonly string[]>> = {
  select: ["label"],
  choose_option: ["option"],
};

/**
 * Per tool, the top-level argument holding a response that pages may run as the site's code
 * (`route.response`, `caches_put.response`: a document, a script a service worker serves), and
 * its keys holding that code: logged as code is ({@link codeView}), not redacted as a value,
 * so the audit shows what was served. Its other keys (`headers`: tokens, cookies) stay redacted.
 */
export const CODE_KEYS_OF: Readonly<Record<string, { arg: string; keys: readonly string[] }>> = {
  route: { arg: "response", keys: ["body", "json"] },
  caches_put: { arg: "response", keys: ["body", "contentBase64"] },
};

/** Most chars of code an audit line keeps ({@link codeView}). */
export const MAX_AUDIT_CODE = 1024;

/**
 * Code (or a served body) as the audit records it: `{ sha256, chars, head }`, `head` its first
 * {@link MAX_AUDIT_CODE} chars and `cut: true` when it is longer; a non-string value (a route's
 * `json`) as its JSON text. The hash names the whole text, so a reader can match it to a file.
 */
export function codeView(code: unknown): Record<string, unknown> {
  const text = typeof code === "string" ? code : JSON.stringify(code) ?? String(code);
  const sha256 = createHash("sha256").update(text).digest("hex");
  if (text.length <= MAX_AUDIT_CODE) return { sha256, chars: text.length, head: text };
  let keep = MAX_AUDIT_CODE;
  const last = text.charCodeAt(keep - 1);
  if (last >= 0xd800 && last <= 0xdbff) keep--;
  return { sha256, chars: text.length, head: text.slice(0, keep), cut: true };
}

/**
 * Per tool, the top-level argument holding values written into a page's storage
 * (`localstorage_set.value`, a state's cookie and item values), which many pages run (`eval`
 * of a stored script, stored HTML): while bound secrets can be filled they are logged as code
 * ({@link codeView}), not redacted (`storedCode` of {@link redactToolArgs}). A state given as
 * a workspace path stays a path.
 */
export const STORED_CODE_OF: Readonly<Record<string, string>> = {
  localstorage_set: "value",
  sessionstorage_set: "value",
  idb_put: "value",
  cookies_set: "value",
  inject_storage_state: "state",
  open_session: "storageState",
};

/** A storage state with each `value` logged as code, other fill keys redacted, strings capped. */
function storedView(v: unknown, depth: number): unknown {
  if (typeof v === "string") return cap(v);
  if (!v || typeof v !== "object") return v;
  if (depth >= MAX_REDACT_DEPTH) return `[nested deeper than ${MAX_REDACT_DEPTH} levels]`;
  if (Array.isArray(v)) return v.map((e) => storedView(e, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, iv] of Object.entries(v)) {
    out[cap(k)] = k === "value" && iv !== undefined
      ? codeView(iv)
      : REDACTED_KEYS.includes(k)
      ? redactValue(iv, depth + 1)
      : storedView(iv, depth + 1);
  }
  return out;
}

/**
 * {@link redactArgs} for `tool`'s arguments, its {@link REDACTED_KEYS_OF} redacted too and its
 * {@link CODE_KEYS_OF} logged as code; with `storedCode` (bound secrets can be filled) also its
 * {@link STORED_CODE_OF} values.
 */
export function redactToolArgs(
  tool: string,
  args: unknown,
  options: { storedCode?: boolean } = {},
): unknown {
  const own = REDACTED_KEYS_OF[tool];
  const code = CODE_KEYS_OF[tool];
  const stored = options.storedCode ? STORED_CODE_OF[tool] : undefined;
  if ((!own && !code && !stored) || !args || typeof args !== "object" || Array.isArray(args)) {
    return redactArgs(args);
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    if (own?.includes(k)) out[cap(k)] = redactValue(v, 1);
    else if (stored === k && v !== undefined) {
      out[cap(k)] = k === "value" ? codeView(v) : storedView(v, 1);
    } else if (code?.arg === k && v && typeof v === "object" && !Array.isArray(v)) {
      const inner: Record<string, unknown> = {};
      for (const [ik, iv] of Object.entries(v)) {
        inner[cap(ik)] = code.keys.includes(ik) && iv !== undefined
          ? codeView(iv)
          : redactArgs(iv, ik, 2);
      }
      out[cap(k)] = inner;
    } else out[cap(k)] = redactArgs(v, k, 1);
  }
  return out;
}

/** Deepest nesting {@link redactArgs} walks; a client's JSON may nest far deeper. */
const MAX_REDACT_DEPTH = 32;

/**
 * A copy of a call's arguments fit for the audit: values under
 * {@link REDACTED_KEYS} redacted (strings to their length and placeholders,
 * numbers and booleans to their type, objects whole, arrays element by element), other strings capped at
 * {@link MAX_AUDIT_STRING} chars, nesting below 32 levels replaced by a
 * marker. Any JSON-like value is accepted (bad arguments are audited too).
 * Mask secrets before calling it: a cap must not cut a secret in half.
 */
export function redactArgs(args: unknown, key?: string, depth = 0): unknown {
  if (key !== undefined && REDACTED_KEYS.includes(key)) return redactValue(args, depth);
  if (key !== undefined && OPAQUE_KEYS.includes(key)) return redactInvalidArgs(args, depth);
  if (typeof args === "string") return cap(args);
  if (!args || typeof args !== "object") return args;
  if (depth >= MAX_REDACT_DEPTH) return `[nested deeper than ${MAX_REDACT_DEPTH} levels]`;
  if (Array.isArray(args)) return args.map((v) => redactArgs(v, key, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) out[cap(k)] = redactArgs(v, k, depth + 1);
  return out;
}
