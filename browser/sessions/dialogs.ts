/**
 * How a session answers native dialogs (alert, confirm, prompt, beforeunload): its policy for
 * unarmed dialogs, the one-shot answer `handle_dialog` arms for the next dialog, and the
 * record of each answered dialog. Dialogs never block: every one is answered as it opens,
 * with one exception Chromium makes: a dialog that opens while another frame's dialog still
 * shows closes that one (dismissed) and cannot itself be answered over DevTools ("No dialog
 * is showing"). Such a record says `undelivered` and what the page saw (`open` while it
 * still blocks its frame).
 *
 * CDP: `Page.handleJavaScriptDialog` (answering a `Page.javascriptDialogOpening`),
 * `Page.javascriptDialogClosed` (what the page saw).
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import type { Protocol } from "../../cdp/types.ts";
import { originOf } from "../../policy/hosts.ts";

/** A dialog as a result tells of it (an action's `dialogs`, `sinceLastCall.dialogs`). */
export interface DialogEntry {
  kind: string;
  message: string;
  handledAs: string;
  /** Dismissed under the session's `raise` policy: the action failed on it (see `failure`). */
  raised?: boolean;
  /** Answered with what `handle_dialog` armed. */
  armed?: boolean;
  /** Raised by a frame inside the page (its URL), not by the page itself. */
  frame?: string;
  /** What an accepted prompt was answered (at most 100 characters shown). */
  text?: string;
  /**
   * The answer never reached the dialog: it opened while another frame's dialog showed, and
   * Chromium's DevTools loses such a dialog. `handledAs` is then what the page saw: `open`
   * while it still blocks its frame, `dismissed` once a later dialog or a reload closed it.
   */
  undelivered?: boolean;
}

/**
 * What a result says of a dialog whose answer did not arrive ({@link DialogEntry.undelivered}):
 * why, and, while it is still open, what it blocks and how to free it.
 */
export function undeliveredNote(d: DialogEntry): string {
  const what = `the ${d.kind} "${d.message.slice(0, 80)}"${
    d.frame ? ` of a frame (${d.frame})` : ""
  }`;
  const why =
    `${what} opened while another frame's dialog showed: Chromium's DevTools cannot answer a dialog that opens so, and it did not get the session's answer`;
  return d.handledAs === "open"
    ? `${why}; it is still open and blocks ${
      d.frame ? "that frame" : "the page"
    } until the page raises another dialog or is left (navigate to another URL: reloading the same one has crashed Chromium)`
    : `${why}; the page saw it ${d.handledAs}`;
}

/** A dialog the session answered. */
export interface DialogRecord extends DialogEntry {
  seq: number;
  /** `open`: see {@link DialogEntry.undelivered}. */
  handledAs: "accepted" | "dismissed" | "open";
  tab: string;
}

/**
 * How a dialog is answered when nobody armed an answer: `default` accepts
 * alerts and `beforeunload`, dismisses confirm and prompt; `accept`,
 * `dismiss`; `accept-prompt-with` accepts everything, answering prompts with
 * the session's prompt text; `raise` dismisses and makes the acting call
 * fail (`ok: false`, `failure.source: "app"`).
 */
export type DialogPolicy = "default" | "accept" | "dismiss" | "accept-prompt-with" | "raise";

/** Every dialog policy, for schemas. */
export const DIALOG_POLICIES = [
  "default",
  "accept",
  "dismiss",
  "accept-prompt-with",
  "raise",
] as const;

/** An answer armed for the next dialog: accept or dismiss, and the text a prompt receives. */
export interface DialogAnswer {
  accept: boolean;
  text?: string;
}

/**
 * How long an armed answer the next acting call did not use stays good, ms: an action's own
 * dialog may come a moment after its result (a confirm raised by a timer or after a fetch).
 */
export const ARMED_GRACE_MS = 10_000;

/** A session's dialog answering (BrowserSession.dialogs). */
export class SessionDialogs {
  /** How unarmed dialogs are answered. */
  policy: DialogPolicy = "default";
  /** What `accept-prompt-with` answers to prompts. */
  promptText = "";
  /** One-shot answer for the next dialog (`handle_dialog` arms it). */
  #armed: DialogAnswer | undefined;
  /** The tab (target id) that was active when it was armed: only its own dialogs take it. */
  #armedTab: string | undefined;
  /** The origin the armed tab showed when armed: only its dialogs take the answer. */
  #armedOrigin: string | undefined;
  /**
   * When the armed answer lapses (epoch ms): unset until an acting call ends without using
   * it, then {@link ARMED_GRACE_MS} after that.
   */
  #lapsesAt: number | undefined;
  #seq = 0;
  /** The dialog last opened in each frame (frame id) and not closed yet. */
  #open = new Map<string, DialogRecord>();
  /** How each dialog closed, as `Page.javascriptDialogClosed` said, once it did. */
  #closed = new WeakMap<DialogRecord, { result: boolean; userInput: string }>();
  /** Tabs (target ids) whose current document had a dialog go undelivered ({@link lostIn}). */
  #lostTabs = new Set<string>();
  /** Told when a record changed after it was returned (an answer that did not arrive). */
  onChange: ((record: DialogRecord) => void) | undefined;

  /** The armed answer not used yet and not lapsed, if any. */
  get armed(): DialogAnswer | undefined {
    if (this.#armed && this.#lapsesAt !== undefined && Date.now() >= this.#lapsesAt) {
      this.#armed = undefined;
      this.#lapsesAt = undefined;
    }
    return this.#armed;
  }

  /**
   * Arms the answer to the next dialog: one raised from now until the next acting call ends,
   * or within {@link ARMED_GRACE_MS} after it (the action's late dialog); then it lapses.
   * Only a confirm, prompt or beforeunload of the page itself in `tab` takes it: never an
   * alert (it has one answer), a frame inside the page (a cross-origin ad's "Authorize
   * payment?" or "Security check" prompt fishing for an armed text) or another tab.
   *
   * An answer with text only while that tab shows a page of the origin it showed when armed: a
   * click that leads to another site, or the agent's own navigate there, carries no PIN along.
   *
   * @param tab The target id of the tab the agent acts in (the session's active tab).
   * @param url The URL that tab shows now (its origin binds the answer).
   * @returns The answer this one replaced, if one was armed and unused.
   */
  arm(answer: DialogAnswer, tab?: string, url?: string): DialogAnswer | undefined {
    const replaced = this.armed;
    this.#armed = answer;
    this.#armedTab = tab;
    // Text (a PIN, a name) stays with the site it was meant for; a bare accept or dismiss only
    // answers the asking page itself, so it may follow a navigation (a confirm on load). A blank
    // tab has no site to bind to.
    const origin = url === undefined ? undefined : originOf(url);
    this.#armedOrigin = answer.text !== undefined && origin !== "null" ? origin : undefined;
    this.#lapsesAt = undefined;
    return replaced;
  }

  /**
   * Marks the start (true) and end (false) of an acting call. At the end, an armed answer the
   * call did not use starts its grace period.
   *
   * @returns At the end: true when an armed answer was left unused (the result says so).
   */
  actionWindow(open: boolean): boolean {
    if (open || !this.armed || this.#lapsesAt !== undefined) return false;
    this.#lapsesAt = Date.now() + ARMED_GRACE_MS;
    return true;
  }

  /**
   * Answers a dialog that opened on `session` (a session of the tab `tab`, a target id): with
   * the armed answer while it holds, else by the policy. The answer is sent without
   * waiting (a failure, such as the dialog gone, is ignored).
   *
   * @returns The record of the answer, for the session's listeners.
   */
  answer(
    tab: string,
    e: Protocol.Page.JavascriptDialogOpeningEvent,
    session: CdpSession,
  ): DialogRecord {
    // The page's own dialog (its main frame: a page target's id is its main frame's), in the
    // tab it was armed for, and one with a choice to make.
    const own = e.frameId === undefined || e.frameId === tab;
    const armed = own && e.type !== "alert" && (!this.#armedTab || this.#armedTab === tab) &&
        (this.#armedOrigin === undefined || (originOf(e.url) ?? e.url) === this.#armedOrigin)
      ? this.armed
      : undefined;
    if (armed) {
      this.#armed = undefined;
      this.#lapsesAt = undefined;
    }
    let accept: boolean;
    if (armed) accept = armed.accept;
    else if (this.policy === "accept" || this.policy === "accept-prompt-with") {
      accept = true;
    } else if (this.policy === "dismiss" || this.policy === "raise") accept = false;
    else accept = e.type === "alert" || e.type === "beforeunload";
    const raised = !armed && this.policy === "raise";
    const policyText = !armed && this.policy === "accept-prompt-with" ? this.promptText : undefined;
    const text = accept && e.type === "prompt"
      ? armed?.text ?? policyText ?? e.defaultPrompt ?? ""
      : undefined;
    const record: DialogRecord = {
      seq: ++this.#seq,
      kind: e.type,
      message: e.message,
      handledAs: accept ? "accepted" : "dismissed",
      ...(text !== undefined ? { text } : {}),
      ...(raised ? { raised: true } : {}),
      ...(armed ? { armed: true as const } : {}),
      ...(own ? {} : { frame: e.url.slice(0, 200) }),
      tab,
    };
    const frame = e.frameId ?? tab;
    this.#open.set(frame, record);
    session.send("Page.handleJavaScriptDialog", {
      accept,
      ...(text !== undefined ? { promptText: text } : {}),
    }).catch((err) => {
      if (!/no dialog is showing/i.test(String((err as Error)?.message ?? err))) return;
      const closed = this.#closed.get(record);
      // Closed before the answer came, as answered: the page saw what was meant.
      if (closed && closed.result === accept && (text === undefined || closed.userInput === text)) {
        return;
      }
      record.undelivered = true;
      this.#lostTabs.add(tab);
      record.handledAs = !closed ? "open" : closed.result ? "accepted" : "dismissed";
      this.onChange?.(record);
    });
    return record;
  }

  /**
   * A dialog closed (`Page.javascriptDialogClosed`): an undelivered one's record now says
   * what the page saw.
   *
   * @param frameId The frame the dialog belonged to (Chromium sends it); without it, nothing.
   */
  closed(e: { frameId?: string; result: boolean; userInput: string }): void {
    const record = e.frameId === undefined ? undefined : this.#open.get(e.frameId);
    if (!record) return;
    this.#open.delete(e.frameId!);
    this.#closed.set(record, { result: e.result, userInput: e.userInput });
    if (record.undelivered) {
      record.handledAs = e.result ? "accepted" : "dismissed";
      this.onChange?.(record);
    }
  }

  /**
   * A frame committed a new document (`Page.frameNavigated`): a dialog of its old one is gone
   * (dismissed), should Chromium not have said it closed.
   */
  frameNavigated(frameId: string): void {
    // A tab's main frame has the tab's id: its new document starts clean.
    this.#lostTabs.delete(frameId);
    if (this.#open.has(frameId)) this.closed({ frameId, result: false, userInput: "" });
  }

  /**
   * True when a dialog of tab `tab` (target id) went undelivered in its current document
   * (DevTools lost the dialog's callback), even if Chromium closed it since: its closing comes
   * first when the page reloads, and the state that crashes stays. Reloading such a tab,
   * navigating it to its own URL, closing it or disposing its browser context crashed
   * Chromium 156's browser process (a failed `CHECK(pending_dialog_.is_null())` in DevTools'
   * page handler, measured): see `stuck_dialogs.ts`. Cleared by the tab's next document.
   */
  lostIn(tab: string): boolean {
    return this.#lostTabs.has(tab);
  }

  /** Forgets a closed tab's open dialogs (and that one was lost). */
  dropTab(tab: string): void {
    this.#lostTabs.delete(tab);
    for (const [frame, r] of this.#open) if (r.tab === tab) this.#open.delete(frame);
  }

  /**
   * The note for a frame (frame id) whose script an undelivered dialog stops, or undefined.
   * Reading such a frame would wait until the call's time ran out.
   */
  blockedNote(frameId: string): string | undefined {
    const r = this.#open.get(frameId);
    if (!r?.undelivered || r.handledAs !== "open") return undefined;
    return `(blocked by its ${r.kind} "${
      r.message.slice(0, 80)
    }", which Chromium cannot answer: not read until another dialog closes it or the page is left)`;
  }
}
