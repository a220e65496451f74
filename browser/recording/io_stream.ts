/**
 * Reads a CDP stream (`IO.read` until `eof`, then `IO.close`): how `Page.printToPDF` and
 * `Tracing.end` hand over documents too big for one message (`transferMode: "ReturnAsStream"`).
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import { fromBase64 } from "../../storage/cache_storage.ts";
import { ToolError } from "../tool_error.ts";

/** Bytes asked of one `IO.read` (Chromium answers at most about this much). */
const CHUNK = 4 * 1024 * 1024;

/**
 * Reads stream `handle` on `session` to its end and closes it (also on failure).
 *
 * @param options.maxBytes Refuse a stream longer than this (ToolError `result-too-large`).
 * @returns The stream's bytes (base64 chunks decoded).
 * @throws ToolError result-too-large; the CDP errors of `IO.read` (target closed, abort, …).
 */
export async function readIoStream(
  session: CdpSession,
  handle: string,
  options: { signal?: AbortSignal | undefined; maxBytes: number; timeoutMs?: number },
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const text = new TextEncoder();
  try {
    for (;;) {
      const r = await session.send("IO.read", { handle, size: CHUNK }, {
        signal: options.signal,
        timeoutMs: options.timeoutMs ?? 30_000,
      });
      const bytes = r.base64Encoded ? fromBase64(r.data) : text.encode(r.data);
      total += bytes.length;
      if (total > options.maxBytes) {
        throw new ToolError(
          "result-too-large",
          `The document is larger than ${options.maxBytes} bytes`,
          "record less (a shorter trace, fewer pages)",
        );
      }
      chunks.push(bytes);
      if (r.eof) break;
    }
  } finally {
    await session.send("IO.close", { handle }).catch(() => {});
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
