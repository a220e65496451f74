/**
 * `artifact_save`: saves a named payload for the session. Artifacts are a session's named text or
 * binary payloads, kept in the client's artifact folder until the session closes (seed 000
 * "Per-session artifacts").
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { z } from "zod";
import {
  ARTIFACT_MAX_BYTES,
  ARTIFACT_MAX_ENTRIES,
  checkArtifactName,
} from "../../storage/artifacts.ts";
import { defineTool } from "../define_tool.ts";
import { resultOutput } from "../output_schemas.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { artifactStore, encoding, name, nameError, session } from "./artifact_fields.ts";

/** The `artifact_save` tool. */
export const artifactSaveTool = defineTool({
  name: "artifact_save",
  title: "Save artifact",
  description:
    `Save text or base64 bytes under a name for this session (overwrites; kept until close_session; at most ${ARTIFACT_MAX_ENTRIES} entries and 50 MiB, oldest evicted; one call's message at most 96 MiB).`,
  capability: "action",
  toolset: "storage",
  // Carries data (bytes, a state, a body, a record) past the 1 Mi string cap.
  largeArgs: true,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({
    name: z.string(),
    size: z.number(),
    mtime: z.string(),
    path: z.string(),
    evicted: z.array(z.string()),
  }),
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
