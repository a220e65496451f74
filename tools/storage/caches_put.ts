/**
 * `caches_put`: stores a response in a cache of the active tab's origin. Each entry is keyed by
 * (cacheName, url); the CDP work is in `storage/cache_storage.ts`. Needs the `eval` capability,
 * as `route` with a response does: a cache-first service worker (Workbox's pattern) serves the
 * stored body to the page as the site's own script or document, so storing one is running the
 * agent's code in the site's origin — on every later visit, in a persistent or attached profile.
 *
 * @module
 */
import { z } from "zod";
import { EvaluationError } from "../../cdp/page.ts";
import { CacheUnavailableError, fromBase64, putCacheEntry } from "../../storage/cache_storage.ts";
import { defineTool } from "../define_tool.ts";
import { resultOutput } from "../output_schemas.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { sessionField } from "../fields.ts";
import { cacheNameField, requestUrl, urlField, write } from "./cache_fields.ts";

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The `caches_put` tool. */
export const cachesPutTool = defineTool({
  name: "caches_put",
  title: "Put cache entry",
  description:
    "Store a response in a cache (created if missing); one call's message at most 96 MiB.",
  // What a service worker serves from a cache runs as the site's code: the power eval_js has.
  capability: "eval",
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
    cacheName: z.string(),
    url: z.string(),
    origin: z.string(),
    status: z.number(),
    byteLength: z.number(),
  }),
  inputSchema: z.object({
    cacheName: cacheNameField,
    url: urlField,
    response: z.strictObject({
      status: z.number().int().optional().describe("Status (default 200)"),
      headers: z.object({}).catchall(z.string()).optional().describe("Response headers"),
      body: z.string().optional().describe("UTF-8 text body"),
      contentBase64: z.string().optional().describe("Binary body as base64"),
    }).describe("Response"),
    session: sessionField,
  }),
  async handler(ctx, args) {
    const { body, contentBase64 } = args.response;
    if (body !== undefined && contentBase64 !== undefined) {
      throw new ToolError(
        "invalid-argument",
        'Invalid "response": pass body or contentBase64, not both',
        "text goes in body; binary bytes, base64-encoded, in contentBase64",
      );
    }
    if (contentBase64 !== undefined && !BASE64.test(contentBase64)) {
      throw new ToolError(
        "invalid-argument",
        'Invalid "response.contentBase64": not standard base64',
        "encode the bytes as standard base64 (A-Z a-z 0-9 + /, = padding, no line breaks)",
      );
    }
    const status = args.response.status ?? 200;
    if (status < 200 || status > 599) {
      throw new ToolError(
        "invalid-argument",
        `Invalid "response.status": ${status} is out of range`,
        "a stored response's status is 200 to 599 (default 200)",
      );
    }
    let put: { url: string; origin: string };
    try {
      put = await write(ctx, "caches_put", args.session, async (s) => {
        const url = requestUrl(args.url, s.page.url);
        await putCacheEntry(s.page, {
          cacheName: args.cacheName,
          url,
          status,
          headers: args.response.headers ?? {},
          text: body,
          base64: contentBase64,
        });
        return { url, origin: s.origin };
      });
    } catch (e) {
      if (e instanceof CacheUnavailableError) {
        throw new ToolError("refused", e.message, "use an https page (or localhost) of the site");
      }
      if (e instanceof EvaluationError) {
        throw new ToolError(
          "invalid-argument",
          `The Cache API refused the response: ${e.message}`,
          "fix the response (header names, a body on a no-body status like 204) and call again",
        );
      }
      throw e;
    }
    const byteLength = contentBase64 !== undefined
      ? fromBase64(contentBase64).length
      : new TextEncoder().encode(body ?? "").length;
    return {
      structured: { ok: true, cacheName: args.cacheName, ...put, status, byteLength },
    };
  },
});
