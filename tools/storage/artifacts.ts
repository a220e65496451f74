/**
 * `artifact_save`, `artifact_get`, `artifact_list`: a session's named text or
 * binary payloads, kept in the client's artifact folder until the session closes
 * (seed 000 "Per-session artifacts"): `.artifacts/<server instance>/<session>/` for stdio,
 * `.clients/<namespace>/artifacts/<session>/` for an HTTP client (`browser/sessions/areas.ts`).
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { z } from "zod";
import {
  ARTIFACT_MAX_BYTES,
  ARTIFACT_MAX_ENTRIES,
  ArtifactStore,
  checkArtifactName,
} from "../../storage/artifacts.ts";
import type { ToolContext } from "../context.ts";
import { defineTool } from "../define_tool.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { sessionField } from "../fields.ts";
import { SessionManager } from "../../browser/sessions/session_manager.ts";
import { guardToolError } from "../../browser/storage/workspace_files.ts";
import { trimPartialChar } from "../../storage/utf8.ts";

const session = sessionField;
const name = z.string().describe("Letters, digits, ._- (no leading dot)");
const encoding = z.enum(["utf8", "base64"]).optional().describe("Default utf8");

/** The artifact folder of a session, in the client's area. */
export function artifactStore(ctx: ToolContext, sessionName: string): ArtifactStore {
  SessionManager.checkName(sessionName);
  return new ArtifactStore(ctx.config.workspace, ctx.sessions.areas.artifacts(sessionName));
}

function nameError(e: unknown): never {
  if (e instanceof RangeError) {
    throw new ToolError("invalid-argument", e.message, "pick a plain file name like notes.txt");
  }
  throw guardToolError(e);
}

/** The `artifact_save` tool. */
export const artifactSaveTool = defineTool({
  name: "artifact_save",
  title: "Save artifact",
  description:
    `Save text or base64 bytes under a name for this session (overwrites; kept until close_session; at most ${ARTIFACT_MAX_ENTRIES} entries and 50 MiB, oldest evicted; one call's message at most 96 MiB).`,
  capability: "action",
  toolset: "storage",
  annotations: { destructiveHint: false, openWorldHint: false },
  inputSchema: z.object({ name, content: z.string().describe("Payload"), encoding, session }),
  async handler(ctx, args) {
    try {
      checkArtifactName(args.name);
    } catch (e) {
      nameError(e);
    }
    let bytes: Uint8Array;
    if (args.encoding === "base64") {
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(args.content.replace(/\s+/g, ""))) {
        throw new ToolError(
          "invalid-argument",
          `"content" is not base64`,
          "pass base64 bytes, or omit encoding for text (utf8)",
        );
      }
      bytes = new Uint8Array(Buffer.from(args.content.replace(/\s+/g, ""), "base64"));
    } else bytes = new TextEncoder().encode(args.content);
    if (bytes.length > ARTIFACT_MAX_BYTES) {
      throw new ToolError(
        "invalid-argument",
        `The artifact is ${bytes.length} bytes; a session keeps at most ${ARTIFACT_MAX_BYTES}`,
        "save it in smaller parts",
      );
    }
    const sessionName = args.session ?? "default";
    const store = artifactStore(ctx, sessionName);
    // In the session's turn: a close_session racing this save wipes what it wrote.
    const saved = await ctx.sessions.whileOpen(
      sessionName,
      () => store.save(args.name, bytes).catch(nameError),
    );
    return {
      structured: {
        ok: true,
        name: saved.name,
        size: saved.size,
        mtime: saved.mtime,
        path: saved.path,
        ...(saved.evicted.length ? { evicted: saved.evicted } : {}),
      },
    };
  },
});

/**
 * Most bytes of an artifact one `artifact_get` returns (as base64, 1 MiB of text; the result
 * carries it twice, text and structuredContent, well under one MCP message).
 */
const MAX_CHUNK_BYTES = 768 * 1024;

/** The `artifact_get` tool. */
export const artifactGetTool = defineTool({
  name: "artifact_get",
  title: "Get artifact",
  description:
    "Read a saved artifact as utf8 text or base64, up to 786432 bytes a call; continue with offset=nextOffset.",
  capability: "read",
  toolset: "storage",
  annotations: { readOnlyHint: true, openWorldHint: false },
  inputSchema: z.object({
    name,
    encoding,
    offset: z.number().int().min(0).optional().describe("Byte offset (default 0)"),
    session,
  }),
  async handler(ctx, args) {
    try {
      checkArtifactName(args.name);
    } catch (e) {
      nameError(e);
    }
    const store = artifactStore(ctx, args.session ?? "default");
    const a = await store.get(args.name).catch(nameError);
    if (!a) {
      const known = (await store.list().catch(nameError)).map((x) => x.name);
      throw new ToolError(
        "not-found",
        `No artifact "${args.name}" in session "${args.session ?? "default"}"`,
        known.length
          ? `saved names: ${known.slice(0, 20).join(", ")}`
          : "save one with artifact_save",
      );
    }
    const enc = args.encoding ?? "utf8";
    const offset = args.offset ?? 0;
    if (offset > a.size) {
      throw new ToolError(
        "invalid-argument",
        `offset ${offset} is past the end of artifact "${a.name}" (${a.size} bytes)`,
        "pass an offset below the size (0 reads from the start)",
      );
    }
    let chunk = a.bytes.subarray(offset, offset + MAX_CHUNK_BYTES);
    // Text pages end on a character, so every page decodes whole.
    if (enc === "utf8" && offset + chunk.length < a.size) chunk = trimPartialChar(chunk);
    const end = offset + chunk.length;
    const content = enc === "base64"
      ? Buffer.from(chunk).toString("base64")
      : new TextDecoder().decode(chunk);
    return {
      structured: {
        ok: true,
        name: a.name,
        size: a.size,
        mtime: a.mtime,
        encoding: enc,
        ...(offset ? { offset } : {}),
        ...(end < a.size ? { truncated: true, nextOffset: end } : {}),
        content,
      },
      rawTextKeys: ["content"],
    };
  },
});

/** The `artifact_list` tool. */
export const artifactListTool = defineTool({
  name: "artifact_list",
  title: "List artifacts",
  description: "This session's artifacts: name, size, mtime (by name).",
  capability: "read",
  toolset: "storage",
  annotations: { readOnlyHint: true, openWorldHint: false },
  inputSchema: z.object({ session }),
  async handler(ctx, args) {
    const store = artifactStore(ctx, args.session ?? "default");
    const artifacts = await store.list().catch(nameError);
    return { structured: { ok: true, count: artifacts.length, artifacts } };
  },
});
