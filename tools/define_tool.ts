/**
 * The shape of a browxai tool and the identity helper that types it.
 *
 * @module
 */
import type { z } from "zod";
import type { Capability } from "../policy/capabilities.ts";
import type { ToolContext } from "./context.ts";
import type { Toolset } from "../policy/toolsets.ts";

import type { ToolImage, ToolOutput } from "../browser/output.ts";

export type { ToolImage, ToolOutput, Toolset };

/**
 * MCP tool annotations (hints to clients). tools/list states all four; one left out here
 * takes MCP's default (`listedAnnotations` in mcp/server.ts): not read-only, destructive,
 * not idempotent, open world — a read-only tool is neither destructive nor repeat-sensitive.
 * Open world: the tool reads or acts on web pages (whose content and requests come from
 * outside); a tool over the server's own state (config, approvals, artifacts, sessions,
 * logs already captured, the browser's storage) is not.
 */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * The longest string any argument may be (1 Mi characters, a fill's value cap), unless the
 * tool says `largeArgs`: a client's 80 MB URL had held every other client's calls ~24 s while
 * it was worked on.
 */
export const MAX_ARG_STRING_CHARS = 1_048_576;

/** One tool. */
export interface ToolDefinition<S extends z.ZodObject = z.ZodObject> {
  /** snake_case name (seed names; no `browser_` prefix). */
  name: string;
  title: string;
  /** Short and exact: it costs the agent tokens on every turn. */
  description: string;
  capability: Capability;
  toolset: Toolset;
  annotations: ToolAnnotations;
  /** Changes policy (grants approvals): hidden and refused with `BROWX_CONFIG_READONLY=1`. */
  changesPolicy?: boolean;
  /**
   * Runs other tools' calls (`batch`, `flake_check`) through `ctx.dispatch`, each under its own
   * budget: the call itself has no budget of its own (only the client's cancel ends it), so
   * finished steps are never thrown away by an outer clock, and a human's time on an inner
   * confirm is not counted.
   */
  runsInnerCalls?: boolean;
  /**
   * Carries data (a file's bytes, a storage state, a response body): its strings may exceed
   * {@link MAX_ARG_STRING_CHARS}, up to the transport's message cap.
   */
  largeArgs?: boolean;
  /** Every field carries `.describe()`. */
  inputSchema: S;
  /**
   * The shape of the tool's `structuredContent` (MCP `outputSchema`), on success and on an
   * `isError` result alike: every top-level key typed, extra keys allowed. Tools that return
   * an ActionResult use `ACTION_RESULT_OUTPUT` or `actionOutput`, the others `resultOutput`
   * (tools/output_schemas.ts). Listed for the client (which validates results against it),
   * not counted in what the model sees.
   */
  outputSchema: z.ZodObject;
  handler(ctx: ToolContext, args: z.infer<S>): Promise<ToolOutput>;
}

/** Identity helper for type inference of a tool definition. */
export function defineTool<S extends z.ZodObject>(tool: ToolDefinition<S>): ToolDefinition<S> {
  return tool;
}
