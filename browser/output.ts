/**
 * What an operation of the browser model hands back for the agent: a text, the same data as
 * structured content, and images. The MCP face turns it into a `CallToolResult`.
 *
 * @module
 */

/** An image returned as MCP image content. */
export interface ToolImage {
  /** Base64 bytes. */
  data: string;
  mimeType: string;
}

/** What a handler returns: structured data, and optionally text and images. */
export interface ToolOutput {
  /** The structured result (also serialized into the text content). */
  structured: Record<string, unknown>;
  /**
   * Keys of `structured` whose string values are long multi-line text (a
   * snapshot tree): rendered raw after the JSON instead of escaped inside it.
   */
  rawTextKeys?: string[];
  /**
   * The label line a raw text goes under (`label:` then the text), by its key; default the
   * key itself. A snapshot's outline and a delta carry different labels (`snapshot/labels.ts`).
   */
  rawTextLabels?: Record<string, string>;
  /**
   * Dotted paths left out of the text (not of structuredContent) because
   * they say nothing an agent needs: an unchanged navigation's URLs, zero
   * counts. Keeps the text lean; the structured result keeps the full shape.
   */
  textOmit?: string[];
  /** Images to return as image content. */
  images?: ToolImage[];
  /** Marks the result as a failure the agent should read (e.g. `ok: false`). */
  isError?: boolean;
  /**
   * Renders this output itself: its text content, and its structured content as sent.
   * The call pipeline calls it last, with `structured` as it then holds it (secrets
   * masked, page cuts resolved, a tool's own edits made), and uses what it returns
   * instead of its generic rendering (`rawTextKeys`, `textOmit`, string caps). Set by
   * the ActionResult (`actions/result_render.ts`), which fills in `tokensEstimate`.
   */
  render?: (structured: Record<string, unknown>) => RenderedOutput;
}

/** What {@link ToolOutput.render} returns. */
export interface RenderedOutput {
  /** The text content (one text item). */
  text: string;
  /** The structured content as sent (strings capped, computed fields filled in). */
  structured: Record<string, unknown>;
}

/** Longest string a result carries outside its raw text (a title, a value, a URL), in chars. */
export const MAX_FIELD_CHARS = 4000;
/** Longest raw text (a snapshot page) a result carries, in chars. */
export const MAX_RAW_CHARS = 1_000_000;

/**
 * Cuts every string longer than `max` chars, saying how much was cut. Pages
 * control titles, values and URLs: a 6 MB title must not become a 6 MB
 * result (MCP clients drop messages over 10 MB, and with them the server).
 */
export function capStrings(value: unknown, max = MAX_FIELD_CHARS): unknown {
  if (typeof value === "string") {
    return value.length > max ? `${value.slice(0, max)}…[${value.length - max} more chars]` : value;
  }
  if (Array.isArray(value)) return value.map((v) => capStrings(v, max));
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = capStrings(v, max);
  return out;
}

/** A raw text (a snapshot page) cut at {@link MAX_RAW_CHARS}, saying how much was cut. */
export function capRawText(text: string): string {
  return text.length > MAX_RAW_CHARS
    ? `${text.slice(0, MAX_RAW_CHARS)}\n…[cut: ${text.length - MAX_RAW_CHARS} more chars]`
    : text;
}

/**
 * Drops `null`, empty arrays and empty objects (recursively) so the text an
 * agent reads carries only what happened; structuredContent keeps the full
 * shape. `keepTopLists`: `value`'s own empty arrays stay (a list tool's answer that there are
 * none); deeper ones go.
 */
export function pruneEmpty(value: unknown, options: { keepTopLists?: boolean } = {}): unknown {
  if (Array.isArray(value)) return value.map((v) => pruneEmpty(v));
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const p = pruneEmpty(v);
    if (p === null || p === undefined) continue;
    if (Array.isArray(p) && p.length === 0 && !options.keepTopLists) continue;
    if (typeof p === "object" && !Array.isArray(p) && Object.keys(p).length === 0) continue;
    out[k] = p;
  }
  return out;
}

/** Deletes the value at a dotted path (`"element.ref"`) of `obj`, if there is one. */
export function deletePath(obj: Record<string, unknown>, path: string): void {
  const keys = path.split(".");
  let holder: unknown = obj;
  for (const k of keys.slice(0, -1)) {
    holder = holder && typeof holder === "object"
      ? (holder as Record<string, unknown>)[k]
      : undefined;
  }
  if (holder && typeof holder === "object") {
    delete (holder as Record<string, unknown>)[keys.at(-1)!];
  }
}
