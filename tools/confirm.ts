/**
 * The confirm gate: decides a {@link ConfirmRequest} against the configured
 * hooks. A hooked action goes ahead only on a human's yes; without a way to
 * ask one it is refused at once, never left hanging.
 *
 * @module
 */
import type { ConfirmOutcome, ConfirmRequest, ServerConfig } from "./context.ts";
import { ToolError } from "./errors.ts";

/** The refusal of a hooked action: what was held, and the ways through (the operator's). */
export function blockedByPolicy(request: ConfirmRequest, why: string): ToolError {
  return new ToolError(
    "blocked-by-policy",
    `policy: ${request.hook} blocked: "${request.tool}" needs a human's yes (${request.summary}); ${why}`,
    "this is a policy gate, not a page failure: a human can approve it when asked, or the operator " +
      `can drop "${request.hook}" from BROWX_CONFIRM_REQUIRED, or enable self-approval so ` +
      `approve_actions({ scopes: ["${request.hook}"] }) pre-approves it`,
    { policy: { hook: request.hook, decision: "refused" } },
  );
}

/** Creates the `confirm` function of a client's tool context. */
export function createConfirm(
  config: Pick<ServerConfig, "confirmRequired">,
): (request: ConfirmRequest) => Promise<ConfirmOutcome> {
  return (request) => {
    if (!config.confirmRequired.has(request.hook)) {
      return Promise.resolve({ decision: "not-required" });
    }
    return Promise.reject(blockedByPolicy(request, "no human channel is connected to ask"));
  };
}
