/**
 * `artifact_get`: reads a saved artifact, a page at a time. Artifacts are a session's named text or
 * binary payloads, kept in the client's artifact folder until the session closes (seed 000
 * "Per-session artifacts").
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { z } from "zod";
import { checkArtifactName } from "../../storage/artifacts.ts";
import { defineTool } from "../define_tool.ts";
import { resultOutput } from "../output_schemas.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { trimPartialChar } from "../../storage/utf8.ts";
import { readMaskedPage } from "../../browser/secret_bytes.ts";
import { currentMasker } from "../../browser/secret_scope.ts";
import { artifactStore, encoding, name, nameError, session } from "./artifact_fields.ts";

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
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({
    name: z.string(),
    size: z.number(),
    mtime: z.string(),
    encoding: z.string(),
    offset: z.number(),
    truncated: z.boolean(),
    nextOffset: z.number(),
    content: z.string(),
  }),
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
    // Masked before any cut: a page boundary never keeps part of a secret's value.
    const page = await readMaskedPage(
      (start, length) => Promise.resolve(a.bytes.subarray(start, start + length)),
      a.size,
      { offset, max: MAX_CHUNK_BYTES },
      currentMasker(),
    );
    let chunk = page.bytes;
    let end = page.end;
    // Text pages end on a character, so every page decodes whole.
    if (enc === "utf8" && end < a.size) {
      const whole = trimPartialChar(chunk);
      end -= chunk.length - whole.length;
      chunk = whole;
    }
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
