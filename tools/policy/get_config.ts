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

/** The `get_config` tool. */
export const getConfigTool = defineTool({
  name: "get_config",
  title: "Server configuration",
  description:
    "The effective configuration: capabilities, confirm hooks, navigation allowlist, workspace, toolsets, limits, version. Secrets are never shown.",
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
    return Promise.resolve({
      structured: {
        version: c.version,
        capabilities: [...c.capabilities],
        confirmRequired: [...c.confirmRequired],
        confirmTimeoutMs: c.confirmTimeoutMs ?? DEFAULT_CONFIRM_TIMEOUT_MS,
        allowedOrigins: (c.allowedOrigins ?? []).map((p) => p.source),
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
