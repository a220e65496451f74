/**
 * The human gate: what the `human` capability switches on (every new site a tab goes to is
 * asked, seed 004; hooked actions ask too) and whether anybody can answer it. A gate nobody
 * can open refuses every navigation, so `BROWX_CAPABILITIES=all` leaves `human` out when no
 * human channel is configured at start; named explicitly it stays on, with a warning.
 *
 * @module
 */
import type { Capability } from "./capabilities.ts";

/** How to give a server a human channel (the README's "The human channel"). */
export const NO_CHANNEL_HINT =
  "no human channel to ask: use an MCP client that supports elicitation, or keep the web " +
  "console open (browxai --console, or the console page of --http) so a person answers there, " +
  "or run browxai with --headful (or BROWX_DEVTOOLS_CONFIRM=1 for a headless browser seen " +
  "through chrome://inspect) so a person answers in the DevTools console";

/** The human channels a configuration provides at start (elicitation is per client, later). */
export interface StartChannels {
  /** The web console is served (`--http`, or `--console` in stdio mode). */
  console: boolean;
  /** Questions show in the DevTools console (`--headful`, `BROWX_DEVTOOLS_CONFIRM=1`). */
  devtools: boolean;
}

/** The human gate as the configuration sets it (shown by `get_config`). */
export interface HumanGateState {
  /** The `human` capability is on: new sites and hooked actions wait for a person's yes. */
  on: boolean;
  /** Why it is on or off, in words. */
  why: string;
  /** The channels configured at start that can answer (`console`, `devtools`). */
  channels: string[];
  /** Said at start (stderr) and by `get_config`: the gate is on but nobody may answer it. */
  warning?: string;
}

/**
 * Decides the human gate: drops `human` from `all` when no channel is configured at start
 * (`wroteAll`: `BROWX_CAPABILITIES` was `all`), keeps an explicit `human` with a warning.
 *
 * @returns the capabilities to enable (a new set when changed) and the gate's state.
 */
export function decideHumanGate(
  capabilities: ReadonlySet<Capability>,
  options: { wroteAll: boolean; channels: StartChannels; noElicitation?: boolean },
): { capabilities: ReadonlySet<Capability>; gate: HumanGateState } {
  const channels = [
    ...(options.channels.console ? ["console"] : []),
    ...(options.channels.devtools ? ["devtools"] : []),
  ];
  if (!capabilities.has("human")) {
    return {
      capabilities,
      gate: { on: false, why: '"human" is not in BROWX_CAPABILITIES', channels },
    };
  }
  if (options.wroteAll && !channels.length) {
    const without = new Set(capabilities);
    without.delete("human");
    return {
      capabilities: without,
      gate: {
        on: false,
        why: 'BROWX_CAPABILITIES=all leaves out "human" (a person approves each new site): no ' +
          "human channel is configured (no web console, no --headful, no " +
          "BROWX_DEVTOOLS_CONFIRM), so nobody could approve and every navigation would be " +
          'refused; list "human" explicitly to have it (an MCP client with elicitation answers)',
        channels,
      },
    };
  }
  if (!channels.length) {
    return {
      capabilities,
      gate: {
        on: true,
        why: '"human" is in BROWX_CAPABILITIES: a person approves each new site',
        channels,
        warning: '"human" is on but no human channel is configured: every navigation to a ' +
          "new site (and every confirm hook) is refused " + (options.noElicitation
            ? "(BROWX_CONFIRM_ELICITATION=0: the MCP client is never asked); "
            : "unless the MCP client supports elicitation; ") +
          NO_CHANNEL_HINT,
      },
    };
  }
  return {
    capabilities,
    gate: {
      on: true,
      why: `"human" is on: a person approves each new site (through ${channels.join(" or ")})`,
      channels,
    },
  };
}
