/**
 * Human channels: the ways a confirm hook can ask a person for a yes. MCP
 * elicitation (when the client declares it) is here; the DevTools console
 * binding and the web console implement the same {@link HumanChannel}.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/index"
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { ConfirmRequest, HumanAnswer } from "../../policy/confirm.ts";

export type { HumanAnswer };

/** One way to ask a human. */
export interface HumanChannel {
  /** Short name recorded as who answered (`elicitation`, `devtools`, `console`). */
  readonly name: string;
  /** True when this channel can ask about `request` now (a client that declared elicitation…). */
  available(request: ConfirmRequest): boolean;
  /**
   * Asks; resolves true for yes, false for no or a dismissal, `"site"` for yes on the whole
   * site (only a channel that offers it: the web console). Rejects when `signal` aborts —
   * the answer came too late, the asking call was cancelled, or another channel answered
   * first (the question is then withdrawn: nothing of it may stay on show) — or the channel
   * broke.
   */
  ask(request: ConfirmRequest, signal: AbortSignal): Promise<HumanAnswer>;
}

/** The question as a person reads it. */
export function questionText(request: ConfirmRequest): string {
  const where = request.origin ? ` on ${request.origin}` : "";
  const session = request.session ? ` (session "${request.session}")` : "";
  return `browxai asks for "${request.hook}": ${request.tool}${where}${session}: ${request.summary}. Allow it?`;
}

/**
 * MCP elicitation (`elicitation/create`, form mode): available when the
 * connected client declared the `elicitation` capability. Accepting with
 * `approve: true` is a yes; declining, cancelling or `approve: false` is a no.
 */
export function elicitationChannel(server: Server): HumanChannel {
  return {
    name: "elicitation",
    available: () => !!server.getClientCapabilities()?.elicitation,
    async ask(request, signal) {
      const r = await server.elicitInput({
        message: questionText(request),
        requestedSchema: {
          type: "object",
          properties: {
            approve: {
              type: "boolean",
              title: "Allow",
              description: `Allow ${request.tool} (${request.hook})`,
            },
          },
          required: ["approve"],
        },
      }, { signal });
      return r.action === "accept" && (r.content as { approve?: unknown } | undefined)?.approve ===
          true;
    },
  };
}

/**
 * `channel` asking with registered secrets' values masked in the whole request (`mask`: the
 * secret store's): a page may put a filled secret in what the question quotes (its form's
 * action, its URL), and the question goes to the client (hosts log it, some show it to the
 * model), the web console and the page's DevTools console. Without `mask`, `channel` itself.
 */
export function maskedChannel(
  channel: HumanChannel,
  mask: (<T>(value: T) => T) | undefined,
): HumanChannel {
  if (!mask) return channel;
  return {
    name: channel.name,
    available: (request) => channel.available(request),
    ask: (request, signal) => channel.ask(mask(request), signal),
  };
}
