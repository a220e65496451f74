/**
 * URLs an agent may navigate to: absolute http(s), about: and data: (a data: document needs
 * the `eval` capability: its scripts are the agent's own code), with a "did you mean" for a
 * URL typed without its scheme.
 *
 * @module
 */
import { prefersHttp } from "../policy/hosts.ts";
import { ToolError } from "./tool_error.ts";

const ALLOWED_SCHEMES = new Set(["http:", "https:", "about:", "data:"]);

/** A host:port[/path] typed without a scheme: the host, or undefined when it is not one. */
const BARE = /^(\[[0-9a-f:.]+\]|[\w.-]+)(:\d{1,5})?(\/|$)/i;

/**
 * The URL the agent probably meant by a scheme-less `raw` (`127.0.0.1:8765`,
 * `example.com/a`), or undefined: `http://` for loopback names and IP
 * addresses (local servers, which rarely have a certificate — none is issued
 * for a bare IP), `https://` for domain names.
 */
export function schemeGuess(raw: string): string | undefined {
  const host = BARE.exec(raw)?.[1]?.toLowerCase();
  if (!host) return undefined;
  return `${prefersHttp(host) ? "http" : "https"}://${raw}`;
}

function withoutScheme(raw: string): ToolError {
  const guess = schemeGuess(raw);
  return new ToolError(
    "invalid-argument",
    `Invalid URL "${raw}": it must be absolute, with a scheme${
      guess ? ` (did you mean "${guess}"?)` : ""
    }`,
    guess ? `pass the full URL, e.g. ${guess}` : "pass a full URL like https://example.com/path",
  );
}

/**
 * Validates a URL for navigation: absolute, and not `file:` or `javascript:`.
 *
 * @throws ToolError invalid-argument | refused
 */
export function checkNavigableUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw withoutScheme(raw);
  }
  if (!ALLOWED_SCHEMES.has(url.protocol)) {
    // `localhost:8765` parses, with "localhost:" as its scheme: a host and port all the same.
    if (/^[\w.-]+:\d{1,5}(\/|$)/.test(raw)) throw withoutScheme(raw);
    throw new ToolError(
      "refused",
      `Refused to navigate to a "${url.protocol}" URL`,
      "navigate only to http(s), about: or data: URLs",
    );
  }
  return url;
}

/**
 * A `data:` document is one the agent writes: its scripts are the agent's own
 * code, so opening one needs the `eval` capability like `eval_js`.
 *
 * @throws ToolError capability-required
 */
export function requireEvalForData(
  capabilities: ReadonlySet<string>,
  url: URL,
  tool: string,
): void {
  if (url.protocol !== "data:" || capabilities.has("eval")) return;
  throw new ToolError(
    "capability-required",
    `Refused "${tool}" to a data: URL: a document written by the agent runs its own scripts, ` +
      'which needs the "eval" capability',
    "serve the page from a server and navigate there, or ask the operator to add eval to " +
      "BROWX_CAPABILITIES",
    { requiredCapability: "eval" },
  );
}
