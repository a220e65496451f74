/**
 * Rendering a tool's output or error into an MCP `CallToolResult`: the text content (JSON of
 * the structured result, long raw texts after it, the text's omissions), string caps, the
 * one-message size bound, and masking of registered secrets.
 *
 * @module
 */
import type { CallToolResult } from "../tools/context.ts";
import type { ToolOutput } from "../tools/define_tool.ts";
import { capRawText, capStrings, deletePath, pruneEmpty } from "../browser/output.ts";
import { ToolError } from "../browser/tool_error.ts";
import type { SecretStore } from "../policy/secrets.ts";

function getPath(obj: Record<string, unknown>, path: string): unknown {
  let v: unknown = obj;
  for (const k of path.split(".")) {
    v = v && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined;
  }
  return v;
}

function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(".");
  const holder = getPath(obj, keys.slice(0, -1).join("."));
  if (keys.length === 1) obj[keys[0]!] = value;
  else if (holder && typeof holder === "object") {
    (holder as Record<string, unknown>)[keys.at(-1)!] = value;
  }
}

/**
 * Renders a handler's output as an MCP result. The text carries the same
 * data as structuredContent: compact JSON, with long multi-line strings
 * (`rawTextKeys`, dotted paths) moved out of the JSON and appended raw, so a
 * snapshot costs its own tokens and no escaping.
 */
export function renderOutput(output: ToolOutput): CallToolResult {
  const { text, structured } = output.render
    ? output.render(output.structured)
    : renderGeneric(output);
  const content: CallToolResult["content"] = [{ type: "text", text }];
  for (const img of output.images ?? []) content.push({ type: "image", ...img });
  return {
    content,
    structuredContent: structured,
    ...(output.isError ? { isError: true } : {}),
  };
}

/** The text and structured content of an output without a renderer of its own. */
function renderGeneric(output: ToolOutput): { text: string; structured: Record<string, unknown> } {
  const raw = new Map<string, string>();
  for (const path of output.rawTextKeys ?? []) {
    const v = getPath(output.structured, path);
    if (typeof v === "string") raw.set(path, capRawText(v));
  }
  const structured = capStrings(output.structured) as Record<string, unknown>;
  for (const [path, v] of raw) setPath(structured, path, v);
  const clone = structuredClone(structured);
  for (const path of output.textOmit ?? []) deletePath(clone, path);
  // Long texts go after the JSON, raw: take them out before pruning empties.
  const tails: string[] = [];
  for (const [path, v] of raw) {
    deletePath(clone, path);
    if (v) tails.push(`${output.rawTextLabels?.[path] ?? path}:\n${v}`);
  }
  // A list tool's own list stays, empty ("routes": [] says there are none; `{}` says nothing).
  const head = pruneEmpty(clone, { keepTopLists: true }) as Record<string, unknown>;
  const err = structured.error as { message?: string; hint?: string } | null | undefined;
  // A failed call may still carry its full result; lead with what went wrong and what to do.
  const lead = output.isError && err?.message ? [`${err.message}\nNext: ${err.hint ?? ""}`] : [];
  return { text: [...lead, JSON.stringify(head), ...tails].join("\n"), structured };
}

/**
 * Largest tool result browxai sends, in bytes of its JSON (text, structuredContent and images
 * together). MCP clients read one message into a bounded buffer (the TypeScript SDK's stdio
 * client: 10 MiB) and drop the whole connection past it, so a bigger result would not fail one
 * call but end the client's every session.
 */
export const MAX_RESULT_BYTES = 8 * 1024 * 1024;

/** What to do instead of a too-large result, per tool (default: ask for less). */
const SMALLER_HINTS: Record<string, string> = {
  eval_js:
    "return less from the expression (slice the array, pick fields, or JSON.stringify(...).slice(0, N))",
  screenshot:
    'take a smaller one: format "jpeg" with a lower quality, an element (ref), or not fullPage',
  snapshot: "page it: a smaller maxTokens, then offset; or scope it with ref",
  download_get: "read it in smaller pages (maxBytes), continuing with offset",
};

/**
 * The `result-too-large` error of a result whose JSON is over {@link MAX_RESULT_BYTES}, or
 * `undefined` when it fits. Measures UTF-8 bytes only when the UTF-16 length could be over
 * the bound.
 */
export function oversize(result: CallToolResult, tool: string): ToolError | undefined {
  const json = JSON.stringify(result);
  // A UTF-16 unit is at most 3 UTF-8 bytes: short results skip the encode.
  if (json.length * 3 <= MAX_RESULT_BYTES) return undefined;
  const bytes = new TextEncoder().encode(json).length;
  if (bytes <= MAX_RESULT_BYTES) return undefined;
  return new ToolError(
    "result-too-large",
    `The result of "${tool}" is ${bytes} bytes, over the ${MAX_RESULT_BYTES}-byte limit of one ` +
      "MCP message (clients drop the connection past it)",
    SMALLER_HINTS[tool] ?? "ask for less: narrow the call (a ref, a filter, a limit)",
    { resultBytes: bytes, maxResultBytes: MAX_RESULT_BYTES },
  );
}

/**
 * Renders a ToolError as an `isError` result; `sinceLastCall` (the session's news, see
 * `browser/since_last_call.ts`) is added to both forms when given.
 */
export function renderError(error: ToolError, sinceLastCall?: object): CallToolResult {
  const structured: Record<string, unknown> = {
    ok: false,
    error: { code: error.code, message: error.message, hint: error.hint },
    ...error.details,
    ...(sinceLastCall ? { sinceLastCall } : {}),
  };
  const news = sinceLastCall ? [JSON.stringify(capStrings({ sinceLastCall }))] : [];
  return {
    content: [{
      type: "text",
      text: [`${error.message}\nNext: ${error.hint}`, ...news].join("\n"),
    }],
    structuredContent: structured,
    isError: true,
  };
}

/** A copy of `result` with every registered value masked (image data excepted). */
export function maskResult(result: CallToolResult, store: SecretStore): CallToolResult {
  const { content, ...rest } = result;
  return {
    ...store.mask(rest),
    content: content.map((c) => c.type === "text" ? { ...c, text: store.maskText(c.text) } : c),
  };
}
