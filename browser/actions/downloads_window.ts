/**
 * Downloads during one acting call (seed 004 `download: true`, seed 000
 * ActionResult `downloads`): the declaration, its confirm hook, and the gate
 * that saves what the call paid for and cancels the rest.
 *
 * `download: true` pays for exactly one file and ends with the call. With
 * the session's capture on (`downloads_capture`), every download that
 * begins during the call is saved without it. A download the call did not
 * pay for is cancelled; when nothing was saved the call answers
 * `download-blocked`.
 *
 * @module
 */
import type { CallContext } from "../call_context.ts";
import { ToolError } from "../tool_error.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import type { SessionEventArgs } from "../sessions/browser_session_types.ts";
import {
  type BeganDownload,
  type BlockedDownload,
  type DownloadEntry,
  downloadEntry,
  type DownloadGate,
  type DownloadRecord,
} from "../sessions/download_types.ts";
import { downloadsOf } from "../sessions/downloads.ts";
import { originOf } from "../../policy/hosts.ts";
import type { ConfirmOutcome } from "../../policy/confirm.ts";
import { within } from "../poll.ts";

/** How long a navigation that became a download may take to announce it, ms. */
const ANNOUNCE_GRACE_MS = 1000;
/**
 * How long a call that declared a download waits for one that has not begun, ms: a script's
 * blob download can come well after the page looked settled on a loaded machine (missed at 500).
 */
const DECLARED_GRACE_MS = 2000;

/** Statuses whose document response cancels its navigation (no content to show or save). */
const NO_CONTENT = new Set([204, 205]);

/** What the window reports to the ActionResult. */
export interface DownloadOutcome {
  downloads: DownloadEntry[];
  blocked: BlockedDownload[];
  warnings: string[];
  /** `download-blocked` when a download began and nothing was saved. */
  error?: ToolError;
}

/**
 * Asks the `file_download` confirm hook before a call that declared
 * `download: true`; `on`: the element and page it acts on, in words (`file_confirm.ts`).
 *
 * @throws ToolError blocked-by-policy (from `ctx.confirm`).
 */
export async function confirmDownload(
  ctx: CallContext,
  session: BrowserSession,
  options: { tool: string; url?: string | undefined; on?: string | undefined },
): Promise<ConfirmOutcome> {
  const url = options.url ?? session.activePage?.url;
  return await ctx.confirm({
    hook: "file_download",
    tool: options.tool,
    session: session.id,
    summary: `"${options.tool}"${
      options.on ? ` on ${options.on}` : ""
    } may save one downloaded file to ${ctx.sessions.areas.downloads}/${session.id}/ in the workspace`,
    origin: url ? originOf(url) ?? "null" : undefined,
  });
}

/** One acting call's downloads; install with {@link DownloadWindow.open}. */
export class DownloadWindow implements DownloadGate {
  #session: BrowserSession;
  #action: string;
  #declared: boolean;
  #remaining: number;
  #saved: Array<{ record: DownloadRecord; done: Promise<void> }> = [];
  #blocked: BlockedDownload[] = [];
  /** Documents that got a response and were then aborted: the mark of a download. */
  #answered = new Set<string>();
  #suspected = 0;
  #wake: (() => void) | undefined;
  #unlisten: (() => void) | undefined;
  #closed = false;

  private constructor(session: BrowserSession, action: string, declared: boolean) {
    this.#session = session;
    this.#action = action;
    this.#declared = declared;
    this.#remaining = declared ? 1 : 0;
  }

  /**
   * Opens the window before the action: a declared call (or capture) lets
   * Chromium write downloads until {@link finish}.
   * CDP: `Browser.setDownloadBehavior` (through the session's downloads).
   */
  static async open(
    session: BrowserSession,
    options: { action: string; declared: boolean },
  ): Promise<DownloadWindow> {
    const w = new DownloadWindow(session, options.action, options.declared);
    const downloads = downloadsOf(session);
    w.#unlisten = session.listen({ event: (...args) => w.#onEvent(...args) });
    await downloads?.openGate(w, options.declared || downloads.capture);
    return w;
  }

  #onEvent(...[, method, params]: SessionEventArgs) {
    if (method === "Network.responseReceived" && params.type === "Document") {
      // 204/205 (a server's, or the navigation guard's refusal) cancel the navigation: no
      // content, never a download — waiting for one would only delay the answer.
      if (NO_CONTENT.has(params.response.status)) return;
      this.#answered.add(params.requestId);
    } else if (
      method === "Network.loadingFailed" && params.type === "Document" && params.canceled
    ) {
      if (this.#answered.delete(params.requestId)) this.#suspected++;
    }
  }

  /** DownloadGate: save while the call has a file left to pay for, or capture is on. */
  admit(_download: BeganDownload): boolean {
    this.#wake?.();
    if (this.#closed) return false;
    if (downloadsOf(this.#session)?.capture) return true;
    if (this.#remaining <= 0) return false;
    this.#remaining--;
    return true;
  }

  /** DownloadGate: an admitted download. */
  saved(record: DownloadRecord, done: Promise<void>): void {
    this.#saved.push({ record, done });
  }

  /** DownloadGate: a cancelled download. */
  blocked(download: BlockedDownload): void {
    this.#blocked.push(download);
  }

  /**
   * Closes the window after the page settled: waits briefly for a download
   * a navigation announced, then for the saved files to complete (up to
   * `deadline`, epoch ms), and reports them.
   *
   * @throws the signal's reason as soon as `signal` (the call's) aborts.
   */
  async finish(deadline: number, signal?: AbortSignal): Promise<DownloadOutcome> {
    // The download's own event follows the aborted document by a few ms; one
    // a script starts (a blob) has no document, and may come after the page
    // looked settled: a call that declared one gives it a moment more.
    const now = Date.now();
    const announceUntil = Math.min(deadline, now + ANNOUNCE_GRACE_MS);
    const declaredUntil = Math.min(deadline, now + DECLARED_GRACE_MS);
    const seen = () => this.#saved.length + this.#blocked.length;
    const waiting = () =>
      (this.#suspected > seen() && Date.now() < announceUntil) ||
      (this.#declared && seen() === 0 && Date.now() < declaredUntil);
    while (waiting()) {
      // Woken at once when a download begins; else re-checked every 25 ms.
      try {
        await within(new Promise<void>((resolve) => this.#wake = resolve), 25, signal);
      } finally {
        this.#wake = undefined;
      }
    }
    await this.dispose();
    await within(Promise.all(this.#saved.map((s) => s.done)), deadline - Date.now(), signal);
    return this.#outcome();
  }

  /** Removes the gate (idempotent); downloads already admitted keep going. */
  async dispose(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#unlisten?.();
    await downloadsOf(this.#session)?.closeGate(this).catch(() => {});
  }

  #outcome(): DownloadOutcome {
    const warnings: string[] = [];
    const downloads: DownloadEntry[] = [];
    for (const { record: r } of this.#saved) {
      if (r.state === "failed") {
        warnings.push(
          `the download of "${r.filename}" failed${
            r.failure ? ` (${r.failure})` : ""
          }; nothing was saved`,
        );
        continue;
      }
      downloads.push(downloadEntry(r));
      if (r.state === "in-progress") {
        warnings.push(
          `"${r.filename}" was still downloading when the call returned; downloads_list shows it once complete`,
        );
      }
    }
    const out: DownloadOutcome = { downloads, blocked: this.#blocked, warnings };
    if (!this.#blocked.length) return out;
    const names = this.#blocked.map((b) => `"${b.filename}" (${b.urlOrigin})`).join(", ");
    if (this.#saved.length) {
      warnings.push(
        `cancelled ${names}: download: true pays for one file; repeat the call for another`,
      );
      return out;
    }
    const moved = this.#action === "navigate" ? "; the tab did not move" : "";
    out.error = this.#declared
      ? new ToolError(
        "download-blocked",
        `Download blocked: "${this.#action}" started a download of ${names} that could not be saved${moved}`,
        "repeat the call with download: true",
      )
      : new ToolError(
        "download-blocked",
        `Download blocked: "${this.#action}" started a download of ${names}, and the call did not declare download: true; nothing was saved${moved}`,
        "repeat the call with download: true (it asks permission to write one file to the workspace)",
      );
    return out;
  }
}
