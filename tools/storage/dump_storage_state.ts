/**
 * `dump_storage_state`: storage layer 1, a session's cookies and localStorage as one
 * Playwright-shaped blob (seed 000 "Storage-state: three layers"). The CDP work, and how origins
 * are found, is in `storage/storage_state.ts`. A file is a workspace path through the path guard;
 * it keeps the real values (secrets are masked in results only).
 *
 * @module
 */
import { dumpSession } from "../../browser/storage/session_state.ts";
import { dumpPolicy } from "../../browser/storage/storage_gate.ts";
import { z } from "zod";
import type { ToolContext } from "../context.ts";
import { defineTool } from "../define_tool.ts";
import { objectList, resultOutput } from "../output_schemas.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { sessionField } from "../fields.ts";
import {
  agentTarget,
  checkGuarded,
  writeGuardedJson,
} from "../../browser/storage/workspace_files.ts";

/**
 * Refuses a file write by a call whose tool needs only `read`: writing a file needs the
 * `action` capability (as `auth_save` and `artifact_save` do). Checked before anything runs.
 *
 * @throws ToolError capability-required (`requiredCapability: "action"`).
 */
function requireWriteCapability(ctx: ToolContext, tool: string): void {
  if (ctx.config.capabilities.has("action")) return;
  throw new ToolError(
    "capability-required",
    `Refused "${tool}": writing a file ("path") needs capability "action", which is not enabled`,
    `omit "path" to get the state in the result, or the operator can add "action" to BROWX_CAPABILITIES (now: ${
      [...ctx.config.capabilities].join(",") || "none"
    })`,
    { requiredCapability: "action" },
  );
}

/** What a dump says of the origins it left out. */
const SKIPPED_NOTE = "skipped: origins the policy stops (allowlist, blocklist, sites not " +
  "approved); their cookies and localStorage are not in the state";

/** The `dump_storage_state` tool. */
export const dumpStorageStateTool = defineTool({
  name: "dump_storage_state",
  title: "Dump storage state",
  description:
    "Get cookies and per-origin localStorage; with path, also write it there (needs action).",
  capability: "read",
  toolset: "storage",
  // Not read-only: with `path` it writes (and may replace) a file.
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({
    cookies: z.union([objectList, z.number()]),
    origins: z.union([objectList, z.number()]),
    path: z.string(),
    note: z.string(),
    skipped: z.array(z.string()),
  }),
  inputSchema: z.object({
    path: z.string().optional().describe("Workspace JSON file to write (needs action)"),
    session: sessionField,
  }),
  async handler(ctx, args) {
    if (args.path !== undefined) {
      requireWriteCapability(ctx, "dump_storage_state");
      await checkGuarded(agentTarget(ctx, true), args.path);
    }
    const s = await ctx.sessions.get(args.session ?? "default");
    // Origins the policy stops (off the allowlist, blocked, not approved) are left out, named.
    const { skipped, ...state } = await dumpSession(s, dumpPolicy(ctx, s));
    const left = skipped.length ? { skipped, note: SKIPPED_NOTE } : {};
    if (args.path === undefined) return { structured: { ...state, ...left } };
    const abs = await writeGuardedJson(agentTarget(ctx, true), args.path, state);
    return {
      structured: {
        path: abs,
        cookies: state.cookies.length,
        origins: state.origins.length,
        ...left,
        // An HTTP client's files live in its own area, which goes with its MCP session.
        ...(ctx.sessions.areas.namespace !== undefined
          ? { note: "kept in this client's area until its MCP session ends" }
          : {}),
      },
    };
  },
});
