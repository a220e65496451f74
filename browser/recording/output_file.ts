/**
 * Files the recording tools write for the agent (`screenshot({ path })`, `pdf_save`,
 * `har_save`, `trace_stop`): through the path guard (`storage/safe_fs.ts`: no `..`, nothing
 * outside the client's area or in a reserved one, no link at any component, atomic owner-only
 * writes), in the calling client's area, as `dump_storage_state({ path })` writes its file.
 * Writing needs the `action` capability, as every tool that writes a file for the agent does.
 *
 * @module
 */
import { relative } from "node:path";
import { safeWriteFile } from "../../storage/safe_fs.ts";
import type { CallContext } from "../call_context.ts";
import { agentTarget, checkGuarded, guardToolError } from "../storage/workspace_files.ts";
import { ToolError } from "../tool_error.ts";

/** A file written for the agent. */
export interface WrittenFile {
  /** Relative to the client's area (the workspace over stdio), `/`-separated. */
  path: string;
  /** The file's real absolute path. */
  absolutePath: string;
  /** Its size, bytes. */
  bytes: number;
}

/**
 * Refuses a file write by a caller without the `action` capability (a `read`-only server
 * may look but not write): checked before any work.
 *
 * @throws ToolError capability-required (`requiredCapability: "action"`), with a hint.
 */
export function requireFileWrite(ctx: CallContext, tool: string, without: string): void {
  if (ctx.config.capabilities.has("action")) return;
  throw new ToolError(
    "capability-required",
    `Refused "${tool}": writing a file ("path") needs capability "action", which is not enabled`,
    `${without}, or the operator can add "action" to BROWX_CAPABILITIES (now: ${
      [...ctx.config.capabilities].join(",") || "none"
    })`,
    { requiredCapability: "action" },
  );
}

/**
 * Refuses a path by its text before the work whose result goes there (see `safeCheckPath`).
 *
 * @throws ToolError refused (outside the workspace, `..`, reserved) / invalid-argument.
 */
export async function checkOutputPath(ctx: CallContext, path: string): Promise<void> {
  await checkGuarded(agentTarget(ctx, true), path);
}

/**
 * Writes `bytes` to `path` (relative to the client's area, or absolute inside it) through the
 * path guard; missing folders are made (0700), the file is 0600, a link at its name is
 * replaced, never followed.
 *
 * @throws ToolError refused / invalid-argument (see `guardToolError`).
 */
export async function writeOutputFile(
  ctx: CallContext,
  path: string,
  bytes: Uint8Array,
): Promise<WrittenFile> {
  const target = agentTarget(ctx, true);
  try {
    const written = await safeWriteFile(target, path, bytes);
    const area = await Deno.realPath(`${ctx.config.workspace}/${target.area ?? ""}`);
    return {
      path: relative(area, written.path).split("\\").join("/"),
      absolutePath: written.path,
      bytes: written.size,
    };
  } catch (e) {
    throw guardToolError(e);
  }
}

/**
 * A default file name: `<stem>-<UTC yyyymmdd-hhmmss>.<ext>`, the stem made of the letters and
 * digits of `title` (at most 60), or `fallback` when it has none.
 */
export function defaultFileName(
  title: string,
  ext: string,
  options: { fallback: string; now?: Date },
): string {
  const stem =
    title.normalize("NFKD").replace(/\p{M}/gu, "").replace(/[^\p{L}\p{N}]+/gu, "-").replace(
      /^-+|-+$/g,
      "",
    )
      .slice(0, 60).replace(/-+$/, "").toLowerCase() || options.fallback;
  const stamp = (options.now ?? new Date()).toISOString().replace(/[-:]/g, "").replace("T", "-")
    .slice(0, 15);
  return `${stem}-${stamp}.${ext}`;
}
