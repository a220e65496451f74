/**
 * Takeover and release (seed 004, issue 15): who drives a session's pages, the agent or a
 * person. The state lives on the session (`session.human`, `sessions/human_state.ts`); the
 * call pipeline refuses agent mutations while a person has control (`human-has-control`).
 *
 * @module
 */
import type { Consent } from "../../policy/confirm.ts";
import type { ServerConfig } from "../../policy/server_config.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import type { HumanPick } from "../sessions/human_state.ts";
import { ToolError } from "../tool_error.ts";
import { isAttended } from "./asks.ts";

/** The most picks a session keeps (oldest dropped first). */
export const MAX_PICKS = 20;

/** What `takeover` and `release` answer. */
export interface ControlResult {
  ok: true;
  /** Who has control after the call. */
  control: "agent" | "human";
  reason?: string;
  /** How the release was consented (`elicitation`, `console`, … or `legacy`: the agent's word). */
  consent_channel?: string;
  /** What to do next. */
  hint?: string;
}

/**
 * The agent hands control to a person. In an unattended session (headless, nobody watching
 * in the console) nothing changes (seed 004: blocking every mutation for a person who cannot
 * see the page would deadlock the run).
 *
 * @throws ToolError `unattended` (details `status: "unattended"`), as `ask_human` does.
 */
export function takeControl(
  session: BrowserSession,
  reason: string,
  config: Pick<ServerConfig, "headful">,
): ControlResult {
  if (session.human.humanHasControl) {
    return { ok: true, control: "human", reason: session.human.control.reason ?? reason };
  }
  if (!isAttended(session, config.headful)) {
    throw new ToolError(
      "unattended",
      `takeover: session "${session.id}" is unattended: its browser is headless and nobody ` +
        "watches it in the web console; control stays with you (nothing changed)",
      "carry on without a person, or have the operator open the web console (browxai " +
        "--console, or the console page of --http) and watch this session, then call takeover again",
      { status: "unattended" },
    );
  }
  session.human.setControl("human", reason);
  return {
    ok: true,
    control: "human",
    reason,
    hint: "your mutations answer human-has-control until the person hands back; reads still work",
  };
}

/**
 * The agent asks to take control back: the person is asked through the consent channel
 * (`consent`); without one the release goes ahead on the agent's own word (`legacy`).
 *
 * @throws ToolError `human-has-control` when the person said no or did not answer in time.
 */
export async function releaseControl(
  session: BrowserSession,
  consent: Consent | undefined,
): Promise<ControlResult> {
  if (!session.human.humanHasControl) return { ok: true, control: "agent" };
  const outcome = consent
    ? await consent({
      hook: "release",
      tool: "release",
      session: session.id,
      summary: `hand control of session "${session.id}" back to the agent`,
    })
    : { granted: true, channel: "legacy" };
  if (!outcome.granted) {
    throw new ToolError(
      "human-has-control",
      `The person keeps control of session "${session.id}": ` +
        (outcome.answered === false
          ? `nobody answered in time (asked through ${outcome.channel})`
          : `they did not agree to hand it back (asked through ${outcome.channel})`),
      "wait until they hand back (a later result says so in sinceLastCall.control); reads " +
        "still work",
      { session: session.id, control: "human", consent_channel: outcome.channel },
    );
  }
  session.human.setControl("agent");
  return { ok: true, control: "agent", consent_channel: outcome.channel };
}

/** Keeps a pick on the session (capped at {@link MAX_PICKS}) and says it changed. */
export function addPick(session: BrowserSession, pick: HumanPick): void {
  const picks = session.human.picks;
  picks.push(pick);
  if (picks.length > MAX_PICKS) picks.splice(0, picks.length - MAX_PICKS);
  session.human.changed("picks");
}
