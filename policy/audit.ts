/**
 * The audit log: one JSON outcome line per tool call (and a start line,
 * below), appended to `<workspace>/audit/YYYY-MM-DD.jsonl` (UTC date of the
 * call). Building a line (redaction, the decision) is pure; {@link AuditLog}
 * does the I/O. Arguments are redacted by `audit_redact.ts`.
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
import { cap } from "./audit_redact.ts";

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
  /** The arguments as sent, with filled values redacted (see `redactArgs`, audit_redact.ts). */
  args: unknown;
  /** A string of `args` was cut to its head and tail (`…[cut N chars]…`, audit_redact.ts cap). */
  argsCut?: true;
  /**
   * What the call acted on, as resolved (not as asked): the element's role and accessible name
   * (cut), the ref or selector match count, and its frame's origin.
   */
  target?: AuditTarget;
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

/** The element a call acted on, for {@link AuditEntry.target}. */
export interface AuditTarget {
  /** ARIA role (`button`, `link`, …; `""` for a generic element). */
  role: string;
  /** Accessible name, at most 200 chars. */
  name: string;
  /** The ref it was addressed by, when it was. */
  ref?: string;
  /** How many elements the selector matched (the first was acted on). */
  matches?: number;
  /** The origin of the frame holding it. */
  frameOrigin?: string;
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
  /** As in {@link AuditEntry.argsCut}. */
  argsCut?: true;
  /** Origin about to be acted on, when known. */
  origin?: string;
  truncated?: true;
  originalBytes?: number;
}

/** Any line of the audit log. */
export type AuditLine = AuditEntry | AuditStart;

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
