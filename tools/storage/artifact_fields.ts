/**
 * What the artifact tools (`artifact_save`, `artifact_get`, `artifact_list`) share: their
 * fields, a session's artifact folder (`.artifacts/<server instance>/<session>/` for stdio,
 * `.clients/<namespace>/artifacts/<session>/` for an HTTP client; `browser/sessions/areas.ts`)
 * and the mapping of a bad name or path to a ToolError.
 *
 * @module
 */
import { z } from "zod";
import { ArtifactStore } from "../../storage/artifacts.ts";
import type { ToolContext } from "../context.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { sessionField } from "../fields.ts";
import { SessionManager } from "../../browser/sessions/session_manager.ts";
import { guardToolError } from "../../browser/storage/workspace_files.ts";

/** The session field. */
export const session = sessionField;

/** The artifact name field. */
export const name = z.string().describe("Letters, digits, ._- (no leading dot)");

/** The payload encoding field. */
export const encoding = z.enum(["utf8", "base64"]).optional().describe("Default utf8");

/** The artifact folder of a session, in the client's area. */
export function artifactStore(ctx: ToolContext, sessionName: string): ArtifactStore {
  SessionManager.checkName(sessionName);
  return new ArtifactStore(ctx.config.workspace, ctx.sessions.areas.artifacts(sessionName));
}

/** Throws a bad artifact name (RangeError) as invalid-argument, else as the path guard maps it. */
export function nameError(e: unknown): never {
  if (e instanceof RangeError) {
    throw new ToolError("invalid-argument", e.message, "pick a plain file name like notes.txt");
  }
  throw guardToolError(e);
}
