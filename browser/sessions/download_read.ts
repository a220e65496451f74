/**
 * Reading a saved download (`download_get`): the session's record, the file opened through
 * the path guard, one page of its bytes masked before any cut, as UTF-8 text for textual
 * types and base64 otherwise.
 *
 * @module
 */
import { extname } from "node:path";
import { PathGuardError } from "../../policy/path_guard.ts";
import { trimPartialChar } from "../../storage/utf8.ts";
import { type SafeOpenFile, safeOpenRead } from "../../storage/safe_fs.ts";
import { readMaskedPage } from "../secret_bytes.ts";
import { currentMasker } from "../secret_scope.ts";
import { ToolError } from "../tool_error.ts";
import { downloadsOf } from "./downloads.ts";
import type { SessionManager } from "./session_manager.ts";

/** Bytes returned when `maxBytes` is not given. */
export const DEFAULT_MAX_BYTES = 64 * 1024;
/** Most bytes one call returns (base64 of it stays under the raw-text cap of a result). */
export const MAX_BYTES = 512 * 1024;

const TYPES: Record<string, string> = {
  ".txt": "text/plain",
  ".csv": "text/csv",
  ".tsv": "text/tab-separated-values",
  ".md": "text/markdown",
  ".html": "text/html",
  ".htm": "text/html",
  ".xml": "application/xml",
  ".json": "application/json",
  ".js": "text/javascript",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".ics": "text/calendar",
  ".pdf": "application/pdf",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".zip": "application/zip",
  ".gz": "application/gzip",
  ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
};

/**
 * The content type of a file by its extension; unknown extensions are
 * `text/plain` when the bytes are valid UTF-8 without NULs, else
 * `application/octet-stream`.
 */
export function contentTypeOf(filename: string, head: Uint8Array): string {
  const known = TYPES[extname(filename).toLowerCase()];
  if (known) return known;
  return isText(head) ? "text/plain" : "application/octet-stream";
}

function isText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(trimPartialChar(bytes));
    return true;
  } catch {
    return false;
  }
}

function isTextual(type: string): boolean {
  return type.startsWith("text/") || /json|xml|javascript|svg/.test(type);
}

function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

/** One page of a download's bytes (`download_get`'s result). */
export interface DownloadPage {
  ok: true;
  id: string;
  filename: string;
  /** Where the file is, absolute. */
  path: string;
  sizeBytes: number;
  contentType: string;
  encoding: "utf-8" | "base64";
  /** Byte offset of this page. */
  offset: number;
  /** Bytes in this page. */
  bytes: number;
  truncated: boolean;
  /** Where the next page starts, when truncated. */
  nextOffset?: number;
  content: string;
}

/**
 * Reads one page of download `args.id` of a session (not started for it: the default
 * session is not opened just to say it has no downloads).
 *
 * @throws ToolError not-found (no such download, still in progress, file gone), refused (the
 *   file is no longer the one saved: a link or another file in its place).
 */
export async function readDownload(
  sessions: SessionManager,
  files: { workspace: string; secretsFile?: string | undefined },
  args: {
    id: string;
    session?: string | undefined;
    offset?: number | undefined;
    maxBytes?: number | undefined;
  },
): Promise<DownloadPage> {
  const name = args.session ?? "default";
  const open = sessions.list().find((s) => s.id === name);
  const session = open ?? (name === "default" ? undefined : await sessions.get(name));
  const downloads = session ? downloadsOf(session) : undefined;
  const record = downloads?.get(args.id);
  if (!record) {
    const ids = downloads?.list().map((r) => r.id) ?? [];
    throw new ToolError(
      "not-found",
      `No download "${args.id}" in session "${name}"`,
      ids.length
        ? `use one of: ${ids.join(", ")} (downloads_list shows them)`
        : "this session saved no file; click or navigate with download: true first",
    );
  }
  if (record.state === "in-progress") {
    throw new ToolError(
      "not-found",
      `Download "${args.id}" ("${record.filename}") is still in progress`,
      "wait a moment, then check downloads_list and call again",
    );
  }
  let file: SafeOpenFile;
  try {
    // Opened through the guard: a saved file swapped for a symlink or a hard link (or its
    // folder for a link) is refused at the open itself, never followed.
    file = await safeOpenRead({
      workspace: files.workspace,
      reserved: files.secretsFile ? [files.secretsFile] : [],
    }, record.path);
  } catch (e) {
    if (!(e instanceof PathGuardError)) throw e;
    throw new ToolError(
      e.reason === "missing" ? "not-found" : "refused",
      e.reason === "missing"
        ? `The file of download "${args.id}" is gone: ${record.path}`
        : `The file of download "${args.id}" is no longer the one browxai saved: ${e.message}`,
      "download it again with download: true",
    );
  }
  const path = file.path;
  const offset = args.offset ?? 0;
  const max = args.maxBytes ?? DEFAULT_MAX_BYTES;
  const size = file.size;
  const head = new Uint8Array(Math.min(8192, size));
  let page: { bytes: Uint8Array; end: number };
  try {
    await file.handle.read(head, 0, head.length, 0);
    // Masked before any cut: a page boundary never keeps part of a secret's value.
    page = await readMaskedPage(
      async (start, length) => {
        const buf = new Uint8Array(Math.max(0, Math.min(length, size - start)));
        let got = 0;
        while (got < buf.length) {
          const { bytesRead } = await file.handle.read(buf, got, buf.length - got, start + got);
          if (bytesRead === 0) break;
          got += bytesRead;
        }
        return buf.subarray(0, got);
      },
      size,
      { offset, max },
      currentMasker(),
    );
  } finally {
    await file.handle.close();
  }
  const chunk = page.bytes;
  const contentType = contentTypeOf(record.filename, head);
  const text = isTextual(contentType) && isText(chunk);
  // A text chunk ends on a whole character; the next offset starts after it.
  const body = text && page.end < size ? trimPartialChar(chunk) : chunk;
  const end = page.end - (chunk.length - body.length);
  return {
    ok: true,
    id: record.id,
    filename: record.filename,
    path,
    sizeBytes: size,
    contentType,
    encoding: text ? "utf-8" : "base64",
    offset,
    bytes: body.length,
    truncated: end < size,
    ...(end < size ? { nextOffset: end } : {}),
    content: text ? new TextDecoder().decode(body) : toBase64(body),
  };
}
