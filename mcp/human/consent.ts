/**
 * The consent channel (seed 004): how `release` asks the person who has control whether the
 * agent may take it back. An agent that could clear its own lock could ignore the lock, so
 * every human channel that can ask now is asked at once (the first answer wins, the others
 * are withdrawn), except that an open web console is asked alone; when none can (a client without elicitation, no console), the release goes
 * ahead on the agent's own word, recorded as `legacy`.
 *
 * @module
 */
import {
  type Consent,
  type ConsentOutcome,
  DEFAULT_CONFIRM_TIMEOUT_MS,
} from "../../policy/confirm.ts";
import type { HumanChannel } from "./channel.ts";

/**
 * Creates the consent function of a client's tool context.
 *
 * @param channels The human channels that may ask (elicitation, the web console, …).
 * @param options.timeoutMs How long a person has to answer, ms (default 60 000); no answer is a no.
 * @param options.sole Channels that, when they can ask, are asked alone (the web console: the
 *   person holding control works there, and a client that answers elicitation by itself must not
 *   hand the agent control back beside them).
 * @returns A {@link Consent}: `{ granted, channel }`; `{ granted: true, channel: "legacy" }` when
 *   no channel can ask; rejects with the call signal's reason when the asking call is cancelled.
 */
export function createConsent(
  channels: readonly HumanChannel[],
  options: { timeoutMs?: number | undefined; sole?: readonly string[] } = {},
): Consent {
  return async (request, call) => {
    const available = channels.filter((c) => c.available(request));
    const sole = available.filter((c) => options.sole?.includes(c.name));
    const asked = sole.length ? sole : available;
    if (!asked.length) return { granted: true, channel: "legacy" };
    const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_CONFIRM_TIMEOUT_MS);
    // One answer ends every other question.
    const answered = new AbortController();
    const signal = AbortSignal.any([timeout, answered.signal, ...(call ? [call] : [])]);
    try {
      return await new Promise<ConsentOutcome>((resolve, reject) => {
        let pending = asked.length;
        for (const channel of asked) {
          channel.ask(request, signal).then(
            (yes) => resolve({ granted: yes !== false, channel: channel.name, answered: true }),
            () => {
              if (--pending > 0) return;
              if (call?.aborted) reject(call.reason);
              // Every channel failed or nobody answered in time: no consent.
              else resolve({ granted: false, channel: asked[0]!.name, answered: false });
            },
          );
        }
      });
    } finally {
      answered.abort();
    }
  };
}
