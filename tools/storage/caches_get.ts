/**
 * `caches_get`: a cached response of the active tab's origin. Each entry is keyed by (cacheName,
 * url); the CDP work is in `storage/cache_storage.ts`.
 *
 * @module
 */
import { z } from "zod";
import {
  decodeText,
  findCacheEntry,
  fromBase64,
  isTextContentType,
  readCachedBody,
  toBase64,
} from "../../storage/cache_storage.ts";
import { defineTool } from "../define_tool.ts";
import { readMaskedPage } from "../../browser/secret_bytes.ts";
import { currentMasker } from "../../browser/secret_scope.ts";
import { anyObject, resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { cacheNameField, requestUrl, requireCache, scope, urlField } from "./cache_fields.ts";

/** Most body bytes `caches_get` returns (`truncated` says when the body is longer). */
export const MAX_BODY_BYTES = 512 * 1024;

/** The `caches_get` tool. */
export const cachesGetTool = defineTool({
  name: "caches_get",
  title: "Get cache entry",
  description: "Read a cached response (its body needs network-body).",
  capability: "read",
  toolset: "storage",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({
    found: z.boolean(),
    kind: z.string(),
    contentType: z.string(),
    status: z.number(),
    headers: anyObject,
    byteLength: z.number(),
    cacheName: z.string(),
    url: z.string(),
    origin: z.string(),
    text: z.string(),
    contentBase64: z.string(),
    bodyOmitted: z.boolean(),
    hint: z.string(),
  }),
  inputSchema: z.object({ cacheName: cacheNameField, url: urlField, session: sessionField }),
  async handler(ctx, args) {
    const s = await scope(ctx, "caches_get", args.session);
    const url = requestUrl(args.url, s.page.url);
    const where = { cacheName: args.cacheName, url, origin: s.origin };
    const cache = await requireCache(s, args.cacheName);
    const entry = await findCacheEntry(s.page.session, cache.cacheId, url);
    const base64 = entry && await readCachedBody(s.page.session, cache.cacheId, entry);
    if (!entry || base64 === undefined) return { structured: { found: false, ...where } };
    const bytes = fromBase64(base64);
    const contentType = Object.entries(entry.headers)
      .find(([k]) => k.toLowerCase() === "content-type")?.[1] ?? "";
    const kind = isTextContentType(contentType) ? "text" : "binary";
    const result: Record<string, unknown> = {
      found: true,
      kind,
      contentType,
      status: entry.status,
      headers: entry.headers,
      byteLength: bytes.length,
      ...where,
    };
    if (!ctx.config.capabilities.has("network-body")) {
      return {
        structured: {
          ...result,
          bodyOmitted: true,
          requiredCapability: "network-body",
          hint: "response bodies need the network-body capability: the operator can add it " +
            "to BROWX_CAPABILITIES",
        },
      };
    }
    const truncated = bytes.length > MAX_BODY_BYTES;
    const field = kind === "text" ? "text" : "contentBase64";
    if (kind === "text") {
      result[field] = decodeText(
        truncated ? bytes.subarray(0, MAX_BODY_BYTES) : bytes,
        contentType,
      );
    } else {
      // Base64 hides a secret's bytes from the result's text masking: mask the bytes first.
      const masker = currentMasker();
      const masked = masker?.masks
        ? (await readMaskedPage(
          (start, length) => Promise.resolve(bytes.subarray(start, start + length)),
          bytes.length,
          { offset: 0, max: MAX_BODY_BYTES },
          masker,
        )).bytes
        : undefined;
      result[field] = masked
        ? toBase64(masked)
        : truncated
        ? toBase64(bytes.subarray(0, MAX_BODY_BYTES))
        : base64;
    }
    if (truncated) result.truncated = true;
    // Raw after the JSON: no escaping, and not cut at the per-field cap.
    return { structured: result, rawTextKeys: [field] };
  },
});
