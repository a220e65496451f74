/**
 * The confirm request and its outcome: what a gated action asks a human (or a pre-approval)
 * for, and how it was decided. Types only, shared by the browser model that asks and the
 * MCP face that answers.
 *
 * @module
 */
import type { ConfirmHook } from "./hooks.ts";

/** How long a human has to answer when `BROWX_CONFIRM_TIMEOUT_MS` is not set, ms. */
export const DEFAULT_CONFIRM_TIMEOUT_MS = 60_000;

/** A request for a human's yes, guarded by a confirm hook. */
export interface ConfirmRequest {
  /**
   * The hook guarding the action; `site_visit` is the per-site approval
   * (asked whenever the `human` capability is on, never pre-approved);
   * `page_permission` is a page using a permission an agent granted
   * (geolocation, camera, microphone, clipboard: always asked, never pre-approved);
   * `release` is the agent asking a person to hand control back (seed 004's consent channel:
   * always asked, never pre-approved).
   */
  hook: ConfirmHook | "site_visit" | "page_permission" | "release";
  /** The tool asking. */
  tool: string;
  /** The session acted on. */
  session?: string | undefined;
  /** One line a human reads: what is about to happen, where. */
  summary: string;
  /** The origin acted on, when there is one. */
  origin?: string | undefined;
  /**
   * The asking call's arguments as the audit records them (secrets masked, filled values
   * redacted), for a channel that shows them (the web console); set by the call pipeline.
   */
  args?: unknown;
  /** The element the asking call names, when it names one (the console outlines it). */
  target?: ConfirmTarget | undefined;
}

/** The element a confirmed call acts on, as the call named it. */
export interface ConfirmTarget {
  ref?: string | undefined;
  /** A `name_ref` alias. */
  named?: string | undefined;
  selector?: string | undefined;
}

/**
 * A human's answer: `true` yes (this once), `false` no (or dismissed), `"site"` yes, and the
 * same hook on the same site passes in this session without asking again (see `siteScope`
 * in `approvals.ts`).
 */
export type HumanAnswer = boolean | "site";

/** How a confirm request was decided (refusals throw). */
export interface ConfirmOutcome {
  /** `not-required`: the hook is not configured; `approved`: a human said yes; `pre-approved`: a live grant covered it. */
  decision: "not-required" | "approved" | "pre-approved";
  /**
   * Who answered (`elicitation`, `devtools`, `console`), or what covered it (`grant`: a
   * pre-approval; `site`: an earlier "approve for this site"), when someone or something did.
   */
  by?: string;
  /** `site`: the human approved this hook for the whole site (this session). */
  scope?: "once" | "site";
}

/**
 * Asks for a confirm hook's permission. Resolves when the action may go ahead. `signal`: the
 * asking call's signal — when it aborts (the client cancelled), the question is withdrawn and
 * the promise rejects with its reason.
 *
 * @throws ToolError `blocked-by-policy` when refused, unanswered in time, or when no human
 *   channel can be asked (it never hangs).
 */
export type Confirm = (request: ConfirmRequest, signal?: AbortSignal) => Promise<ConfirmOutcome>;

/**
 * How a consent was decided: `granted` by the person (or on the agent's own word), through
 * `channel` — the human channel that asked (`elicitation`, `console`, …), or `legacy` when no
 * channel could ask (then `granted` is true: seed 004 records it as the agent's assertion).
 */
export interface ConsentOutcome {
  granted: boolean;
  channel: string;
  /** False when nobody answered (every channel failed or the time ran out): not a no. */
  answered?: boolean;
}

/**
 * Asks a person for their consent (seed 004's consent channel: `release`), through every
 * human channel that can ask now, the first answer winning. Resolves `{ granted: false }` on a
 * no, a dismissal or no answer in time; `{ granted: true, channel: "legacy" }` when no channel
 * can ask. Rejects with `signal`'s reason when the asking call is cancelled.
 */
export type Consent = (request: ConfirmRequest, signal?: AbortSignal) => Promise<ConsentOutcome>;
