/**
 * How a session answers native dialogs (alert, confirm, prompt, beforeunload): its policy for
 * unarmed dialogs, the one-shot answer `handle_dialog` arms for the next dialog, and the
 * record of each answered dialog. Dialogs never block: every one is answered as it opens.
 *
 * CDP: `Page.handleJavaScriptDialog` (answering a `Page.javascriptDialogOpening`).
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import type { Protocol } from "../../cdp/types.ts";

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
}

/** A dialog the session answered. */
export interface DialogRecord extends DialogEntry {
  seq: number;
  handledAs: "accepted" | "dismissed";
  /** Text answered to a prompt, when accepted. */
  text?: string;
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
  /**
   * When the armed answer lapses (epoch ms): unset until an acting call ends without using
   * it, then {@link ARMED_GRACE_MS} after that.
   */
  #lapsesAt: number | undefined;
  #seq = 0;

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
   * @param tab The target id of the tab the agent acts in (the session's active tab).
   */
  arm(answer: DialogAnswer, tab?: string): void {
    this.#armed = answer;
    this.#armedTab = tab;
    this.#lapsesAt = undefined;
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
    const armed = own && e.type !== "alert" && (!this.#armedTab || this.#armedTab === tab)
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
    session.send("Page.handleJavaScriptDialog", {
      accept,
      ...(text !== undefined ? { promptText: text } : {}),
    }).catch(() => {});
    return {
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
  }
}
