/**
 * The shape of a browxai tool and the identity helper that types it.
 *
 * @module
 */
import type { z } from "zod";
import type { Capability } from "../policy/capabilities.ts";
import type { ToolContext } from "./context.ts";

/** MCP tool annotations (hints to clients). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** An image returned as MCP image content. */
export interface ToolImage {
  /** Base64 bytes. */
  data: string;
  mimeType: string;
}

/** What a handler returns: structured data, and optionally text and images. */
export interface ToolOutput {
  /** The structured result (also serialized into the text content). */
  structured: Record<string, unknown>;
  /**
   * Keys of `structured` whose string values are long multi-line text (a
   * snapshot tree): rendered raw after the JSON instead of escaped inside it.
   */
  rawTextKeys?: string[];
  /**
   * Dotted paths left out of the text (not of structuredContent) because
   * they say nothing an agent needs: an unchanged navigation's URLs, zero
   * counts. Keeps the text lean; the structured result keeps the full shape.
   */
  textOmit?: string[];
  /** Images to return as image content. */
  images?: ToolImage[];
  /** Marks the result as a failure the agent should read (e.g. `ok: false`). */
  isError?: boolean;
}

/** Toolsets group tools; `BROWX_TOOLSETS` picks which are listed. */
export type Toolset =
  | "core"
  | "sessions"
  | "debug"
  | "forms"
  | "files"
  | "policy"
  | "power"
  | "storage"
  | "emulation";

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
  /** Every field carries `.describe()`. */
  inputSchema: S;
  handler(ctx: ToolContext, args: z.infer<S>): Promise<ToolOutput>;
}

/** Identity helper for type inference of a tool definition. */
export function defineTool<S extends z.ZodObject>(tool: ToolDefinition<S>): ToolDefinition<S> {
  return tool;
}
