/**
 * `route`: answers the session's requests whose URL matches a glob with the
 * agent's response, or fails them — in every tab, popup and iframe of the
 * session, from now on (`browser/routes/`). The policy judges a request
 * first: a route never serves a URL the policy blocks. Serving a response needs
 * the `eval` capability: what a route serves runs in the site's origin as the
 * site's own content (a page may put any text it fetches into `innerHTML`), the
 * power `eval_js` has; `abort` needs only `action`.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { sessionField } from "../fields.ts";
import { anyValue } from "../output_schemas.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { maskedForAgent } from "../../browser/secret_scope.ts";
import { toBase64 } from "../../storage/cache_storage.ts";
import { ABORT_REASONS, ROUTES_OUTPUT, routeView } from "./route_fields.ts";

/** Largest body a route serves, bytes (UTF-8). */
export const MAX_ROUTE_BODY_BYTES = 1024 * 1024;
/** Most headers a route serves. */
const MAX_HEADERS = 50;
/** Longest header name, bytes. */
export const MAX_HEADER_NAME_BYTES = 256;
/** Longest header value, bytes (UTF-8). */
export const MAX_HEADER_VALUE_BYTES = 8 * 1024;
/** Most bytes of one route's header names and values together. */
export const MAX_ROUTE_HEADER_BYTES = 64 * 1024;
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const responseField = z.object({
  status: z.number().int().min(200).max(599).optional().describe("Default 200"),
  headers: z.record(z.string(), z.string()).optional().describe("Headers"),
  body: z.string().optional().describe("Text"),
  contentType: z.string().optional().describe("Content-Type"),
  json: anyValue.optional().describe("JSON body"),
}).describe("Serve this");

/** The `route` tool. */
export const routeTool = defineTool({
  name: "route",
  title: "Route requests",
  description:
    "Answer requests of all tabs matching urlPattern (glob: ** any, * not /, ? one char) with response (needs eval), or fail them (abort). Same pattern replaces.",
  capability: "action",
  toolset: "testing",
  // Carries data (bytes, a state, a body, a record) past the 1 Mi string cap.
  largeArgs: true,
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: ROUTES_OUTPUT,
  inputSchema: z.object({
    urlPattern: z.string().min(1).describe("URL glob, e.g. **/api/*"),
    response: responseField.optional(),
    abort: z.enum(Object.keys(ABORT_REASONS) as [keyof typeof ABORT_REASONS])
      .optional().describe("Fail with this error"),
    times: z.number().int().min(1).optional().describe("Answer N times"),
    session: sessionField,
  }),
  async handler(ctx, args) {
    if (!args.response === !args.abort) {
      throw new ToolError(
        "invalid-argument",
        args.response ? "Pass response or abort, not both" : "route needs response or abort",
        'e.g. route({ urlPattern: "**/api/*", response: { json: { ok: true } } }) or abort: "failed"',
      );
    }
    if (args.response && !ctx.config.capabilities.has("eval")) {
      // A page may run what it fetches (a document's scripts, HTML put into innerHTML):
      // serving a response is running the agent's code in the site's origin.
      throw new ToolError(
        "capability-required",
        'Refused "route" with a response: capability "eval" is not enabled (what a route ' +
          "serves runs in the site's origin, as eval_js would)",
        'abort works without it (route({ urlPattern, abort: "failed" })); the operator can add ' +
          '"eval" to BROWX_CAPABILITIES to serve responses',
        { requiredCapability: "eval" },
      );
    }
    const response = args.response ? served(args.response) : undefined;
    const session = await ctx.sessions.get(args.session ?? "default");
    if (!session.navGuard) {
      throw new ToolError(
        "refused",
        "This session answers no routes (it has no request interception)",
        "use a session this server opened",
      );
    }
    // Refuses a route past the session's count or byte limits (MAX_ROUTES, MAX_ROUTES_BYTES).
    const route = session.routes.add(args.urlPattern, {
      ...(response ? { response } : {}),
      ...(args.abort ? { abort: ABORT_REASONS[args.abort] } : {}),
      times: args.times,
    });
    // The next request of any tab is intercepted: its patterns are in place.
    await session.routes.applied();
    return {
      structured: { ok: true, route: routeView(route), count: session.routes.list().length },
    };
  },
});

/** The response a route serves (`Fetch.fulfillRequest`'s status, headers, base64 body). */
function served(r: z.infer<typeof responseField>): {
  status: number;
  headers: Array<{ name: string; value: string }>;
  body: string;
} {
  if (r.body !== undefined && r.json !== undefined) {
    throw new ToolError(
      "invalid-argument",
      "Pass response.body or response.json, not both",
      "json for a JSON value, body for text",
    );
  }
  const text = r.json !== undefined ? JSON.stringify(r.json) ?? "null" : r.body ?? "";
  const headers = Object.entries(r.headers ?? {}).map(([name, value]) => ({ name, value }));
  const contentType = r.contentType ?? (r.json !== undefined ? "application/json" : undefined);
  if (contentType && !headers.some((h) => h.name.toLowerCase() === "content-type")) {
    headers.push({ name: "Content-Type", value: contentType });
  }
  if (headers.length > MAX_HEADERS) {
    throw new ToolError(
      "invalid-argument",
      `At most ${MAX_HEADERS} response headers`,
      "serve the headers the page reads",
    );
  }
  const utf8 = new TextEncoder();
  let headerBytes = 0;
  for (const h of headers) {
    if (!HEADER_NAME.test(h.name) || /[\r\n\0]/.test(h.value)) {
      throw new ToolError(
        "invalid-argument",
        `Invalid response header "${h.name.slice(0, 80)}"`,
        "header names are tokens (letters, digits, -); values have no line breaks",
      );
    }
    const name = utf8.encode(h.name).length;
    const value = utf8.encode(h.value).length;
    if (name > MAX_HEADER_NAME_BYTES || value > MAX_HEADER_VALUE_BYTES) {
      throw new ToolError(
        "invalid-argument",
        `Response header "${h.name.slice(0, 80)}" is too long (name ${name}, value ${value} ` +
          `bytes; at most ${MAX_HEADER_NAME_BYTES} and ${MAX_HEADER_VALUE_BYTES})`,
        "serve a shorter header",
      );
    }
    headerBytes += name + value;
  }
  if (headerBytes > MAX_ROUTE_HEADER_BYTES) {
    throw new ToolError(
      "invalid-argument",
      `Response headers are ${headerBytes} bytes; at most ${MAX_ROUTE_HEADER_BYTES} in all`,
      "serve fewer or shorter headers",
    );
  }
  const bytes = utf8.encode(text);
  if (bytes.length > MAX_ROUTE_BODY_BYTES) {
    throw new ToolError(
      "invalid-argument",
      `response body is ${bytes.length} bytes; at most ${MAX_ROUTE_BODY_BYTES} are served`,
      "serve a smaller body",
    );
  }
  // A value the agent cannot read (a {{secret:…}} filled in) is not served to pages either.
  for (const s of [text, ...headers.map((h) => h.value)]) {
    if (maskedForAgent(s) !== s) {
      throw new ToolError(
        "invalid-argument",
        "A route's body and headers may not carry a secret",
        "serve test data, not a registered secret",
      );
    }
  }
  return { status: r.status ?? 200, headers, body: toBase64(bytes) };
}
