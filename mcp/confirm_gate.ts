/**
 * The confirm gate: decides a {@link ConfirmRequest} against the configured
 * hooks. A hooked action goes ahead on a live pre-approval or a human's yes;
 * without either it is refused — a channel that does not answer in time is
 * a no, and with no channel at all the refusal is immediate.
 *
 * @module
 */
import type { ApprovalStore } from "../policy/approvals.ts";
import {
  type ConfirmOutcome,
  type ConfirmRequest,
  DEFAULT_CONFIRM_TIMEOUT_MS,
} from "../policy/confirm.ts";
import type { ServerConfig } from "../policy/server_config.ts";
import { ToolError } from "../browser/tool_error.ts";
import type { HumanChannel } from "./human/channel.ts";

/** How to give a server a human channel (the README's "The human channel"). */
export const NO_CHANNEL_HINT =
  "no human channel to ask: use an MCP client that supports elicitation, or run browxai with " +
  "--headful (or BROWX_DEVTOOLS_CONFIRM=1 for a headless browser seen through chrome://inspect) " +
  "so a person answers in the DevTools console";

/**
 * The refusal of a hooked action: what was held, and the ways through (the
 * operator's). `noChannel`: nobody could be asked at all — the hint says how
 * to connect a human channel, since no approval can exist yet.
 */
export function blockedByPolicy(
  request: ConfirmRequest,
  why: string,
  noChannel = false,
): ToolError {
  return new ToolError(
    "blocked-by-policy",
    `policy: ${request.hook} blocked: "${request.tool}" needs a human's yes (${request.summary}); ${why}`,
    noChannel
      ? `this is a policy gate, not a page failure; ${NO_CHANNEL_HINT}; or the operator ` + (
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
      : "this is a policy gate, not a page failure: a human can approve it when asked, or the " +
        `operator can drop "${request.hook}" from BROWX_CONFIRM_REQUIRED, or enable ` +
        `self-approval so approve_actions({ scopes: ["${request.hook}"] }) pre-approves it`,
    { policy: { hook: request.hook, decision: "refused" } },
  );
}

/** What the gate consults besides the configuration. */
export interface ConfirmDeps {
  /** The client's pre-approvals. */
  approvals: ApprovalStore;
  /** Channels in order of preference; the first available one is asked. */
  channels: readonly HumanChannel[];
}

/**
 * Creates the `confirm` function of a client's tool context.
 *
 * @returns `(request, callSignal?) => outcome`; rejects with ToolError `blocked-by-policy`,
 *   or with the call signal's reason when the asking call is cancelled while asked.
 */
export function createConfirm(
  config: Pick<ServerConfig, "confirmRequired"> & { confirmTimeoutMs?: number | undefined },
  deps: ConfirmDeps,
): (request: ConfirmRequest, call?: AbortSignal) => Promise<ConfirmOutcome> {
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
    const channel = deps.channels.find((c) => c.available(request));
    if (!channel) throw blockedByPolicy(request, "no human channel is connected to ask", true);
    const timeoutMs = config.confirmTimeoutMs ?? DEFAULT_CONFIRM_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    // The asking call cancelled: the question is withdrawn, nobody answers it any more.
    const signal = call ? AbortSignal.any([timeout, call]) : timeout;
    let yes: boolean;
    try {
      yes = await channel.ask(request, signal);
    } catch (e) {
      if (call?.aborted) throw call.reason;
      if (timeout.aborted) {
        throw blockedByPolicy(
          request,
          `nobody answered through ${channel.name} within ${Math.round(timeoutMs / 1000)} s`,
        );
      }
      throw blockedByPolicy(
        request,
        `asking through ${channel.name} failed: ${(e as Error).message}`,
      );
    }
    if (!yes) throw blockedByPolicy(request, `the human said no (through ${channel.name})`);
    return { decision: "approved", by: channel.name };
  };
}
