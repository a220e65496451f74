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
   * Dotted paths left out of the text (not of structuredContent) because
   * they say nothing an agent needs: an unchanged navigation's URLs, zero
   * counts. Keeps the text lean; the structured result keeps the full shape.
   */
  textOmit?: string[];
  /** Images to return as image content. */
  images?: ToolImage[];
  /** Marks the result as a failure the agent should read (e.g. `ok: false`). */
  isError?: boolean;
}

/** Longest string a result carries outside its raw text (a title, a value, a URL), in chars. */
export const MAX_FIELD_CHARS = 4000;
/** Longest raw text (a snapshot page) a result carries, in chars. */
export const MAX_RAW_CHARS = 1_000_000;
