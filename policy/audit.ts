/**
 * The audit log: one JSON outcome line per tool call (and a start line,
 * below), appended to `<workspace>/audit/YYYY-MM-DD.jsonl` (UTC date of the
 * call). Building a line (redaction, the decision) is pure; {@link AuditLog}
 * does the I/O.
 *
 * A call whose handler runs gets two lines: a start line
 * ({@link AuditStart}, `phase: "start"`) just before the handler acts, and
 * its outcome line ({@link AuditEntry}) when it ends, both with the call's
 * `callId`. A start line without an outcome line is a call that was in
 * flight when the server died (kill -9, OOM). A call refused before acting
 * has only its outcome line.
 *
 * Size: a line is at most {@link MAX_AUDIT_LINE_BYTES} (16 KiB); a longer one
 * is cut (mostly its arguments; other strings keep up to 1000 chars) and
 * marked `truncated: true` with `originalBytes` (see `policy/audit_fit.ts`).
 * Redaction and masking happen before the cut.
 *
 * Durability: each line is written with one `write` on a file opened in
 * append mode, so lines from concurrent calls (and processes) never mix,
 * and a crash mid-write can only tear the last line. A torn last line is
 * isolated on its own line by the next writer and skipped by
 * {@link parseAuditLog}; earlier lines stay readable.
 *
 * @module
 */
import { join } from "node:path";
import { fitAuditLine, MAX_AUDIT_LINE_BYTES } from "./audit_fit.ts";

export { MAX_AUDIT_LINE_BYTES };

/** What the gates decided about a call. */
export type AuditDecision = "allowed" | "refused" | "asked";

/** One confirm-hook outcome within a call. */
export interface AuditConfirm {
  /** The confirm hook (`submit`, `publish`, …). */
  hook: string;
  /** `not-required`: hook not configured; `approved`: a human said yes; `pre-approved`: a grant covered it. */
  answer: "not-required" | "approved" | "pre-approved" | "refused";
  /** Who answered (`elicitation`, `devtools`, `console`, `grant`), when known. */
  by?: string;
  /** Why it was refused (the refusal's message). */
  reason?: string;
}

/** The outcome line of a call. */
export interface AuditEntry {
  /** When the call started, ISO 8601 UTC. */
  time: string;
  /** The call's id (also on its start line, and in an `internal` error's hint). */
  callId?: string;
  /** The MCP client: its Streamable HTTP session id, or `stdio`. */
  client: string;
  /** The client's own name (MCP `clientInfo.name`), when it gave one. */
  clientName?: string;
  /** The browxai session the call named (or `default`), for tools that take one. */
  session?: string;
  tool: string;
  /** The arguments as sent, with filled values redacted (see {@link redactArgs}). */
  args: unknown;
  decision: AuditDecision;
  /** Why the call was refused. */
  reason?: string;
  /** The capability whose absence refused the call. */
  requiredCapability?: string;
  /** Each confirm hook the call went through, in order. */
  confirms?: AuditConfirm[];
  /** Origin acted on (`https://host:port`), when known. */
  origin?: string;
  /**
   * How a consent the call needed was given (`release`, seed 004): the human channel that
   * asked the person (`elicitation`, `console`, …), or `legacy` when no channel could ask and
   * the call went ahead on the agent's own word.
   */
  consent_channel?: string;
  /** Wall time of the call, ms. */
  durationMs: number;
  /** False when the result was an error, or a result that says `ok: false` (wait_for timed out). */
  ok: boolean;
  /** The error code (`invalid-argument`, `capability-required`, …) when not ok. */
  error?: string;
  /** The line was cut to fit {@link MAX_AUDIT_LINE_BYTES}. */
  truncated?: true;
  /** With `truncated`: the uncut line's size, UTF-8 bytes. */
  originalBytes?: number;
}

/**
 * The start line of a call: written (and awaited) just before its handler
 * acts, so a call cut short by a crash still leaves its trace.
 */
export interface AuditStart {
  phase: "start";
  /** When the call started, ISO 8601 UTC (the same as its outcome line's). */
  time: string;
  /** The call's id, repeated on its outcome line. */
  callId: string;
  client: string;
  clientName?: string;
  session?: string;
  tool: string;
  /** As in {@link AuditEntry.args}. */
  args: unknown;
  /** Origin about to be acted on, when known. */
  origin?: string;
  truncated?: true;
  originalBytes?: number;
}

/** Any line of the audit log. */
export type AuditLine = AuditEntry | AuditStart;

/**
 * Argument keys whose values are what the agent puts into pages or storage
 * (`fill.value`, `fill_form.fields[].value`, `type.text`,
 * `handle_dialog.text`, `open_session.promptText`, `set_editor.html`,
 * `cookies_set.value`, `localstorage_set.value`, `idb_put.value`,
 * `inject_storage_state`'s cookie and item values, `caches_put.response.body`
 * and `.contentBase64`, `artifact_save.content`, …), at any depth: never
 * written to the audit log, whatever their type. `eval_js.expression` is
 * kept (capped): which code ran is what an audit of code execution is for.
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

function cap(s: string): string {
  return s.length > MAX_AUDIT_STRING
    ? `${s.slice(0, MAX_AUDIT_STRING)}…[${s.length - MAX_AUDIT_STRING} more chars]`
    : s;
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

/** {@link redactArgs} for `tool`'s arguments, its {@link REDACTED_KEYS_OF} redacted too. */
export function redactToolArgs(tool: string, args: unknown): unknown {
  const own = REDACTED_KEYS_OF[tool];
  if (!own || !args || typeof args !== "object" || Array.isArray(args)) return redactArgs(args);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    out[cap(k)] = own.includes(k) ? redactValue(v, 1) : redactArgs(v, k, 1);
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

/** What is known about a finished call, to decide its audit decision. */
export interface CallFacts {
  /** The handler started: capability, validation and argument gates let it through. */
  ran: boolean;
  /** The result's error code, when it failed. */
  errorCode?: string | undefined;
  /** The result's error message, when it failed. */
  errorMessage?: string | undefined;
  /** The result's `requiredCapability`, when it has one. */
  requiredCapability?: string | undefined;
  confirms: readonly AuditConfirm[];
}

/** Error codes that mean a policy said no (wherever in the call it happened). */
const POLICY_CODES = new Set(["capability-required", "blocked-by-policy"]);

/**
 * Decides an audit line's `decision`:
 * - `refused`: a confirm hook was refused, a policy error ended the call, or
 *   the call failed before its handler ran (capability, bad arguments,
 *   unknown secret); `reason` is the refusal's message.
 * - `asked`: a human approved at least one confirm hook.
 * - `allowed`: otherwise (a failure while acting is `allowed` with `ok: false`).
 */
export function decideAudit(
  facts: CallFacts,
): Pick<AuditEntry, "decision" | "reason" | "requiredCapability"> {
  const refusedConfirm = facts.confirms.find((c) => c.answer === "refused");
  const withCapability = facts.requiredCapability
    ? { requiredCapability: facts.requiredCapability }
    : {};
  if (refusedConfirm) {
    return {
      decision: "refused",
      reason: refusedConfirm.reason ?? `confirm hook "${refusedConfirm.hook}" refused`,
    };
  }
  if (facts.errorCode && (POLICY_CODES.has(facts.errorCode) || !facts.ran)) {
    return {
      decision: "refused",
      reason: cap(facts.errorMessage ?? facts.errorCode),
      ...withCapability,
    };
  }
  if (facts.confirms.some((c) => c.answer === "approved")) return { decision: "asked" };
  return { decision: "allowed" };
}

/** The audit file of a day: `YYYY-MM-DD.jsonl`, by the UTC date of `time`. */
export function auditFileName(time: Date): string {
  return `${time.toISOString().slice(0, 10)}.jsonl`;
}

/**
 * A line as written: JSON (newlines inside strings are escaped) and `\n`, at
 * most {@link MAX_AUDIT_LINE_BYTES} bytes (cut and marked `truncated` when
 * longer).
 */
export function formatAuditLine(line: AuditLine): string {
  return fitAuditLine(line as unknown as Record<string, unknown>, MAX_AUDIT_LINE_BYTES);
}

/** The readable lines of an audit file. */
export interface ParsedAuditLog {
  /** Outcome lines, one per call. */
  entries: AuditEntry[];
  /** Start lines (`phase: "start"`), one per call whose handler ran. */
  starts: AuditStart[];
  /** 1-based numbers of lines that are not a JSON object (a torn write). */
  bad: number[];
}

/** Reads an audit file's text; unreadable lines are skipped and listed, never fatal. */
export function parseAuditLog(text: string): ParsedAuditLog {
  const entries: AuditEntry[] = [];
  const starts: AuditStart[] = [];
  const bad: number[] = [];
  text.split("\n").forEach((line, i) => {
    if (line === "") return;
    try {
      const v = JSON.parse(line);
      if (!v || typeof v !== "object" || Array.isArray(v)) bad.push(i + 1);
      else if (v.phase === "start") starts.push(v as AuditStart);
      else entries.push(v as AuditEntry);
    } catch {
      bad.push(i + 1);
    }
  });
  return { entries, starts, bad };
}

/** Options of {@link AuditLog}. */
export interface AuditLogOptions {
  /**
   * Called with the first write failure only (later ones are dropped
   * silently, so a full disk does not flood the log). Default: one line on
   * stderr.
   */
  onError?: (error: unknown) => void;
}

const encoder = new TextEncoder();

/**
 * An append-only audit log in `dir` (created on first write, mode 0700;
 * files 0600). {@link AuditLog.append} never rejects: an audit failure must
 * never fail the call it records.
 */
export class AuditLog {
  /** The folder holding the day files. */
  readonly dir: string;
  #onError: (error: unknown) => void;
  #failed = false;
  /** Lines waiting to be written, in call order. */
  #queue: Array<{ file: string; line: string; done: () => void }> = [];
  #draining = false;
  /** Files whose end this instance has checked for a torn line. */
  #checked = new Set<string>();

  constructor(dir: string, options: AuditLogOptions = {}) {
    this.dir = dir;
    this.#onError = options.onError ??
      ((e) =>
        console.error(
          `browxai: cannot write the audit log in ${dir} (further failures are not reported):`,
          e instanceof Error ? e.message : e,
        ));
  }

  /**
   * Appends one line to the file of the entry's day. Lines of one instance
   * are written in call order. Resolves when written (or when writing
   * failed: the failure goes to `onError` once).
   */
  append(entry: AuditLine): Promise<void> {
    const line = formatAuditLine(entry);
    const file = join(this.dir, auditFileName(new Date(entry.time)));
    return new Promise<void>((resolve) => {
      this.#queue.push({ file, line, done: resolve });
      if (!this.#draining) this.#drain();
    });
  }

  /**
   * Writes what is queued, in order, one write per file per round: lines that
   * arrive while a round is written go together in the next one. Many calls
   * at once (20 sessions) then cost a few file writes instead of one open,
   * write and close each, one after another.
   */
  async #drain(): Promise<void> {
    this.#draining = true;
    while (this.#queue.length) {
      const round = this.#queue.splice(0);
      const byFile = new Map<string, string[]>();
      for (const q of round) {
        const lines = byFile.get(q.file);
        if (lines) lines.push(q.line);
        else byFile.set(q.file, [q.line]);
      }
      for (const [file, lines] of byFile) {
        try {
          await this.#write(file, lines.join(""));
        } catch (e) {
          if (!this.#failed) {
            this.#failed = true;
            this.#onError(e);
          }
        }
      }
      for (const q of round) q.done();
    }
    this.#draining = false;
  }

  async #write(path: string, lines: string): Promise<void> {
    if (this.#checked.has(path)) {
      // A file seen before: one append (open, write and close in one file-system call).
      // Under load each call waits its turn on a busy machine, and every call's result
      // waits on its audit lines: one call per round, not mkdir, open, write and close.
      try {
        await Deno.writeFile(path, encoder.encode(lines), { append: true, mode: 0o600 });
        return;
      } catch (e) {
        // Gone meanwhile (the folder or the file removed): made again below.
        if (!(e instanceof Deno.errors.NotFound)) throw e;
        this.#checked.delete(path);
      }
    }
    await Deno.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = await Deno.open(path, { read: true, append: true, create: true, mode: 0o600 });
    try {
      let text = lines;
      if (!this.#checked.has(path)) {
        this.#checked.add(path);
        // A process that died mid-write left a line without its "\n": start a
        // fresh line so ours is not glued to the torn one.
        if (await endsTorn(file)) text = "\n" + text;
      }
      const data = encoder.encode(text);
      let written = await file.write(data);
      // Regular files take the whole buffer in one write; only a full disk
      // or a signal gives a short write, and then finishing the line beats
      // leaving it torn.
      while (written < data.length) written += await file.write(data.subarray(written));
    } finally {
      file.close();
    }
  }
}

async function endsTorn(file: Deno.FsFile): Promise<boolean> {
  const { size } = await file.stat();
  if (size === 0) return false;
  await file.seek(-1, Deno.SeekMode.End);
  const last = new Uint8Array(1);
  await file.read(last);
  return last[0] !== 0x0a;
}
