/**
 * The human-facing parts of one call in the pipeline: the confirm gate and the consent
 * channel, each wrapped once per call (the budget's clock paused while a person answers, the
 * asked session held, each answer kept for the audit line), and the element a call names.
 *
 * @module
 */
import type { AuditConfirm } from "../policy/audit.ts";
import type { Confirm, ConfirmRequest, ConfirmTarget, Consent } from "../policy/confirm.ts";
import type { ToolContext } from "../tools/context.ts";
import { ToolError } from "../browser/tool_error.ts";
import { activeOrigin } from "./audit_trail.ts";
import type { CallBudget } from "./call_budget.ts";

/**
 * The confirm gate of one call, wrapped once: the budget's clock stops while a human answers
 * (their time is not the page's), the asked session is held from the question to the end of
 * the call (what the human approves is what runs: no other call moves the tab meanwhile), and
 * each answer is recorded for the audit line.
 */
export function gatedConfirm(
  ctx: ToolContext,
  budget: CallBudget,
  confirms: AuditConfirm[],
  about: Pick<ConfirmRequest, "args" | "target">,
): Confirm {
  return (asked) =>
    budget.pausedWhile(async () => {
      // What the call is (its arguments, its element), for a channel that shows it.
      // A hook that names no origin acts on the session's active tab: its origin is the site
      // a person judges (and "approve for this site" covers).
      const origin = asked.origin ?? activeOrigin(ctx, asked.session);
      const request: ConfirmRequest = {
        ...asked,
        ...(origin ? { origin } : {}),
        ...(about.args !== undefined ? { args: about.args } : {}),
        ...(about.target ? { target: about.target } : {}),
      };
      try {
        const session = request.session !== undefined
          ? ctx.sessions.list().find((s) => s.id === request.session)
          : undefined;
        await session?.holdForCall();
        // The question is withdrawn when the call is cancelled (the clock is paused meanwhile,
        // so only the client's cancel can abort it).
        const outcome = await ctx.confirm(request, budget.signal);
        confirms.push({
          hook: request.hook,
          answer: outcome.decision,
          ...(outcome.by ? { by: outcome.by } : {}),
        });
        return outcome;
      } catch (e) {
        const by = e instanceof ToolError
          ? (e.details.policy as { by?: unknown } | undefined)?.by
          : undefined;
        confirms.push({
          hook: request.hook,
          answer: "refused",
          reason: e instanceof Error ? e.message : String(e),
          ...(typeof by === "string" ? { by } : {}),
        });
        throw e;
      }
    });
}

/** The element a call's arguments name (`ref`, `named`, `selector`), when they name one. */
export function namedTarget(parsed: unknown): ConfirmTarget | undefined {
  if (!parsed || typeof parsed !== "object") return undefined;
  const a = parsed as Record<string, unknown>;
  const pick = (k: string) => typeof a[k] === "string" ? { [k]: a[k] as string } : {};
  const target: ConfirmTarget = { ...pick("ref"), ...pick("named"), ...pick("selector") };
  return Object.keys(target).length ? target : undefined;
}

/**
 * The consent channel of one call, wrapped once like {@link gatedConfirm}: the budget's clock
 * stops while the person answers, and the channel that decided is kept for the audit line.
 */
export function gatedConsent(
  consent: Consent,
  budget: CallBudget,
  seen: { channel?: string },
): Consent {
  return (request) =>
    budget.pausedWhile(async () => {
      const outcome = await consent(request, budget.signal);
      seen.channel = outcome.channel;
      return outcome;
    });
}
