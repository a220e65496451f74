/**
 * The confirm gate: decides a {@link ConfirmRequest} against the configured
 * hooks. A hooked action goes ahead on a live pre-approval, an earlier "approve
 * for this site", or a human's yes; without any it is refused — nobody answering
 * in time is a no, and with no channel at all the refusal is immediate. Every
 * available human channel (elicitation, the DevTools console, the web console)
 * is asked at once: the first answer wins and the others are withdrawn.
 *
 * @module
 */
import { type ApprovalStore, siteScope } from "../policy/approvals.ts";
import {
  type ConfirmOutcome,
  type ConfirmRequest,
  DEFAULT_CONFIRM_TIMEOUT_MS,
  type HumanAnswer,
} from "../policy/confirm.ts";
import { type ConfirmHook, isConfirmHook } from "../policy/hooks.ts";
import type { ServerConfig } from "../policy/server_config.ts";
import { ToolError } from "../browser/tool_error.ts";
import type { HumanChannel } from "./human/channel.ts";

import { NO_CHANNEL_HINT } from "../policy/human_gate.ts";

export { NO_CHANNEL_HINT };

/**
 * The refusal of a hooked action: what was held, and the ways through (the
 * operator's). `noChannel`: nobody could be asked at all — the hint says how
 * to connect a human channel, since no approval can exist yet. `selfApproval`: the
 * `self-approval` capability is on, so the agent's own `approve_actions` is a way through
 * (named first; never after a human's no, `by`, nor for `publish`, which it cannot approve).
 */
export function blockedByPolicy(
  request: ConfirmRequest,
  why: string,
  noChannel = false,
  by?: string,
  selfApproval = false,
): ToolError {
  const approve = selfApproval && by === undefined && request.hook !== "publish" &&
      isConfirmHook(request.hook)
    ? `self-approval is on: call approve_actions({ scopes: ["${request.hook}"] }), then retry; `
    : "";
  return new ToolError(
    "blocked-by-policy",
    `policy: ${request.hook} blocked: "${request.tool}" needs a human's yes (${request.summary}); ${why}`,
    noChannel
      ? `this is a policy gate, not a page failure; ${approve}${NO_CHANNEL_HINT}; or the operator ` +
        (
          request.hook === "site_visit"
            ? "drops `human` from BROWX_CAPABILITIES (each new site is asked; the allowlist " +
              "limits where tabs may go, it does not approve)"
            : request.hook === "page_permission"
            ? "revokes the grant"
            : `drops "${request.hook}" from BROWX_CONFIRM_REQUIRED`
        )
      : request.hook === "site_visit"
      ? "this is a policy gate, not a page failure: a human approves each new site when asked " +
        "(stay on the sites approved so far, or ask the human to approve this one)"
      : request.hook === "page_permission"
      ? "a human decides each page's use of a granted permission when the page asks"
      : approve || by !== undefined
      ? `this is a policy gate, not a page failure: ${approve}${approve ? "or " : ""}a human ` +
        `can approve it when asked, or the operator can drop "${request.hook}" from ` +
        "BROWX_CONFIRM_REQUIRED"
      : "this is a policy gate, not a page failure: a human can approve it when asked, or the " +
        `operator can drop "${request.hook}" from BROWX_CONFIRM_REQUIRED, or enable ` +
        `self-approval so approve_actions({ scopes: ["${request.hook}"] }) pre-approves it`,
    { policy: { hook: request.hook, decision: "refused", ...(by ? { by } : {}) } },
  );
}

/** What the gate consults besides the configuration. */
export interface ConfirmDeps {
  /** The client's pre-approvals and "approve for this site" answers. */
  approvals: ApprovalStore;
  /** The human channels; every available one is asked at once, the first answer wins. */
  channels: readonly HumanChannel[];
}

/** The first answer, and through which channel it came. */
interface Answered {
  channel: HumanChannel;
  answer: HumanAnswer;
}

/**
 * Asks every channel in `channels` at once and resolves with the first answer; the others
 * are withdrawn as soon as it comes (`withdraw` aborts their signal). A channel that fails
 * while another still asks decides nothing.
 *
 * @returns The first answer; rejects with the list of each channel's failure (`name: reason`)
 *   when every channel failed or `signal` aborted them all.
 */
export async function firstAnswer(
  request: ConfirmRequest,
  channels: readonly HumanChannel[],
  signal: AbortSignal,
): Promise<Answered> {
  const withdraw = new AbortController();
  const asked = AbortSignal.any([signal, withdraw.signal]);
  const failures: Array<{ channel: string; reason: string }> = [];
  try {
    return await new Promise<Answered>((resolve, reject) => {
      let pending = channels.length;
      for (const channel of channels) {
        // A channel that throws at once fails like one that rejects later.
        Promise.resolve().then(() => channel.ask(request, asked)).then(
          (answer) => resolve({ channel, answer }),
          (e) => {
            const reason = e instanceof Error ? e.message : String(e);
            failures.push({ channel: channel.name, reason });
            if (--pending === 0) reject(new AllChannelsFailed(failures));
          },
        );
      }
    });
  } finally {
    withdraw.abort(new Error("the question was answered through another channel"));
  }
}

/**
 * Every channel asked failed (or was aborted): each one's reason. The message reads
 * "asking through devtools failed: the tab closed; asking through … failed: …".
 */
export class AllChannelsFailed extends Error {
  readonly failures: ReadonlyArray<{ channel: string; reason: string }>;
  constructor(failures: ReadonlyArray<{ channel: string; reason: string }>) {
    super(failures.map((f) => `asking through ${f.channel} failed: ${f.reason}`).join("; "));
    this.name = "AllChannelsFailed";
    this.failures = failures;
  }
}

/**
 * Creates the `confirm` function of a client's tool context.
 *
 * Order: a hook not configured passes; a live pre-approval (`approve_actions`) passes; an
 * earlier "approve for this site" of the same hook, session and site passes; else every
 * available channel is asked at once ({@link firstAnswer}) within the confirm timeout. A
 * `"site"` answer is remembered for the session (when {@link siteScope} allows it).
 *
 * @returns `(request, callSignal?) => outcome`; rejects with ToolError `blocked-by-policy`,
 *   or with the call signal's reason when the asking call is cancelled while asked.
 */
export function createConfirm(
  config: Pick<ServerConfig, "confirmRequired"> & {
    confirmTimeoutMs?: number | undefined;
    /** Enabled capabilities: with `self-approval`, refusals name approve_actions. */
    capabilities?: ReadonlySet<string> | undefined;
  },
  deps: ConfirmDeps,
): (request: ConfirmRequest, call?: AbortSignal) => Promise<ConfirmOutcome> {
  const self = config.capabilities?.has("self-approval") === true;
  return async (request, call) => {
    const hook = request.hook;
    // Per-site approvals and page permission prompts are always a person's call.
    const alwaysAsk = hook === "site_visit" || hook === "page_permission" || hook === "release";
    if (!alwaysAsk && !config.confirmRequired.has(hook)) {
      return { decision: "not-required" };
    }
    if (!alwaysAsk && deps.approvals.consume(hook, request.session)) {
      return { decision: "pre-approved", by: "grant" };
    }
    const scope = siteScope(request);
    if (
      scope.allowed && !alwaysAsk &&
      deps.approvals.coversSite(hook as ConfirmHook, request.session!, scope.site)
    ) {
      return { decision: "pre-approved", by: "site" };
    }
    const channels = deps.channels.filter((c) => c.available(request));
    if (!channels.length) {
      throw blockedByPolicy(request, "no human channel is connected to ask", true, undefined, self);
    }
    const names = channels.map((c) => c.name).join(" and ");
    const timeoutMs = config.confirmTimeoutMs ?? DEFAULT_CONFIRM_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    // The asking call cancelled: the question is withdrawn, nobody answers it any more.
    const signal = call ? AbortSignal.any([timeout, call]) : timeout;
    let first: Answered;
    try {
      first = await firstAnswer(request, channels, signal);
    } catch (e) {
      if (call?.aborted) throw call.reason;
      if (timeout.aborted) {
        throw blockedByPolicy(
          request,
          `nobody answered through ${names} within ${Math.round(timeoutMs / 1000)} s`,
          false,
          undefined,
          self,
        );
      }
      throw blockedByPolicy(request, (e as Error).message, false, undefined, self);
    }
    const by = first.channel.name;
    if (first.answer === false) {
      throw blockedByPolicy(request, `the human said no (through ${by})`, false, by);
    }
    if (first.answer === "site" && scope.allowed && !alwaysAsk) {
      deps.approvals.approveSite(hook as ConfirmHook, request.session!, scope.site);
      return { decision: "approved", by, scope: "site" };
    }
    return { decision: "approved", by };
  };
}
