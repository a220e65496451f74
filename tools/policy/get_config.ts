/**
 * `get_config`: the server's effective configuration, as an agent (or the
 * person reviewing its run) needs to know it. Secrets are never shown.
 *
 * @module
 */
import { z } from "zod";
import { DEFAULT_GRANT_TTL_SECONDS, MAX_GRANT_TTL_SECONDS } from "../../policy/approvals.ts";
import { MAX_TIMEOUT_MS } from "../../browser/timeouts.ts";
import { MAX_FIELD_CHARS, MAX_RAW_CHARS } from "../../browser/output.ts";
import { DEFAULT_CONFIRM_TIMEOUT_MS } from "../../policy/confirm.ts";
import { defineTool } from "../define_tool.ts";
import { anyObject, resultOutput } from "../output_schemas.ts";
import { DEFAULT_SNAPSHOT_TOKENS } from "../../browser/snapshot/paging.ts";
import { type HumanGateState, NO_CHANNEL_HINT } from "../../policy/human_gate.ts";
import type { ToolContext } from "../context.ts";

/**
 * The human gate as configured, with the channels that could answer now (`channelsNow`), and
 * the warnings of a gate nobody can open.
 */
function humanGateNow(ctx: ToolContext): { gate: Record<string, unknown>; warnings: string[] } {
  const c = ctx.config;
  const gate: HumanGateState = c.humanGate ?? {
    on: c.capabilities.has("human"),
    why: c.capabilities.has("human")
      ? '"human" is in BROWX_CAPABILITIES: a person approves each new site'
      : '"human" is not in BROWX_CAPABILITIES',
    channels: [],
  };
  const now = ctx.humanChannels?.();
  const warnings: string[] = [];
  if (gate.on && now !== undefined && !now.length) {
    warnings.push(
      "the human gate is on and no human channel can answer now: every navigation to a new " +
        `site and every confirm hook is refused (blocked-by-policy); ${NO_CHANNEL_HINT}`,
    );
  } else if (gate.warning && now === undefined) warnings.push(gate.warning);
  const { warning: _, ...shown } = gate;
  return { gate: { ...shown, ...(now !== undefined ? { channelsNow: now } : {}) }, warnings };
}

/** The `get_config` tool. */
export const getConfigTool = defineTool({
  name: "get_config",
  title: "Server configuration",
  description:
    "The effective configuration: capabilities (and tools they leave out), the human gate, confirm hooks, navigation allowlist, workspace, toolsets, limits, version. Secrets are never shown.",
  capability: "read",
  toolset: "policy",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({
    version: z.string(),
    capabilities: z.array(z.string()),
    confirmRequired: z.array(z.string()),
    confirmTimeoutMs: z.number(),
    allowedOrigins: z.array(z.string()),
    configReadonly: z.boolean(),
    workspace: z.string(),
    toolsets: z.union([z.string(), z.array(z.string())]),
    headful: z.boolean(),
    browser: anyObject,
    limits: anyObject,
  }),
  inputSchema: z.object({}),
  handler(ctx) {
    const c = ctx.config;
    const human = humanGateNow(ctx);
    return Promise.resolve({
      structured: {
        version: c.version,
        capabilities: [...c.capabilities],
        // Tools of the enabled toolsets that tools/list leaves out, by the capability they need.
        ...(ctx.notListed ? { notListed: ctx.notListed() } : {}),
        humanGate: human.gate,
        ...(human.warnings.length ? { warnings: human.warnings } : {}),
        confirmRequired: [...c.confirmRequired],
        confirmTimeoutMs: c.confirmTimeoutMs ?? DEFAULT_CONFIRM_TIMEOUT_MS,
        allowedOrigins: (c.allowedOrigins ?? []).map((p) => p.source),
        blockedOrigins: (c.blockedOrigins ?? []).map((p) => p.source),
        configReadonly: c.configReadonly ?? false,
        workspace: c.workspace,
        toolsets: c.toolsets === "all" ? "all" : [...c.toolsets],
        headful: c.headful,
        browser: c.cdpEndpoint ? { attachedTo: c.cdpEndpoint } : { path: c.browserPath ?? "auto" },
        limits: {
          maxTimeoutMs: MAX_TIMEOUT_MS,
          defaultSnapshotTokens: DEFAULT_SNAPSHOT_TOKENS,
          maxFieldChars: MAX_FIELD_CHARS,
          maxRawChars: MAX_RAW_CHARS,
          grantTtlSeconds: { default: DEFAULT_GRANT_TTL_SECONDS, max: MAX_GRANT_TTL_SECONDS },
        },
      },
    });
  },
});
