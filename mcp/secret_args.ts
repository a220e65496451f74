/**
 * Secret placeholders in a call's arguments: each `{{secret:NAME}}` in a string argument under
 * a fill key (`value`, `text`, `html`, at any depth) becomes the secret's value, after
 * validation and before the handler; a placeholder anywhere else is refused (a secret goes
 * only into what fills a page). A secret bound to origins is filled only by
 * {@link ORIGIN_CHECKED_TOOLS}, which check each frame they fill.
 *
 * @module
 */
import { REDACTED_KEYS } from "../policy/audit_redact.ts";
import { hasPlaceholder, type SecretStore, UnknownSecretError } from "../policy/secrets.ts";
import { ToolError } from "../browser/tool_error.ts";
import { htmlText, placeholdersOnlyInText } from "./secret_html.ts";

/** Argument keys whose strings may carry `{{secret:NAME}}` (the same keys the audit redacts). */
export const FILL_KEYS: readonly string[] = REDACTED_KEYS;

/**
 * Tools whose fill-key arguments are not filled: `wait_for`'s `text` is
 * matched against the page (a placeholder there would test a guess), and
 * `batch`/`flake_check` hand their inner calls' placeholders to those calls,
 * which substitute (and check) them themselves.
 */
const NOT_FILLED: Readonly<Record<string, "match" | "inner">> = {
  wait_for: "match",
  batch: "inner",
  flake_check: "inner",
};

/**
 * Tools that check the origin of every frame they fill (see
 * `browser/secret_scope.ts`): only these may fill a secret bound to origins.
 */
export const ORIGIN_CHECKED_TOOLS: ReadonlySet<string> = new Set([
  "fill",
  "type",
  "select",
  "fill_form",
  "set_editor",
]);

/**
 * `args` with every `{{secret:NAME}}` under a {@link FILL_KEYS} key replaced
 * by its value (a copy; `args` is not changed). Returns `args` itself when
 * it holds no placeholder.
 *
 * @throws ToolError `capability-required` (`requiredCapability: "secrets"`)
 *   when `enabled` is false and any string holds a placeholder;
 *   `invalid-argument` for a placeholder outside a fill key, or an unknown
 *   name (the message lists the known names, never values).
 */
export function substituteArgs<T>(
  args: T,
  store: SecretStore,
  options: { enabled: boolean; tool: string },
): T {
  if (NOT_FILLED[options.tool] === "inner") return args;
  // set_editor's markup: a value goes only into text, HTML-escaped (secret_html.ts).
  const markup = options.tool === "set_editor" &&
    (args as { html?: unknown } | undefined)?.html === true;
  const walk = (value: unknown, path: string[]): unknown => {
    if (typeof value === "string") {
      if (!hasPlaceholder(value)) return value;
      const where = `"${path.join(".") || "arguments"}"`;
      if (!options.enabled) {
        throw new ToolError(
          "capability-required",
          `Refused "${options.tool}": ${where} uses {{secret:…}}, and the "secrets" capability is not enabled`,
          'the operator can add "secrets" to BROWX_CAPABILITIES (with BROWX_SECRETS naming the file)',
          { requiredCapability: "secrets" },
        );
      }
      const key = path.findLast((p) => !/^\d+$/.test(p));
      if (NOT_FILLED[options.tool] === "match") {
        throw new ToolError(
          "invalid-argument",
          `{{secret:…}} is refused in ${where} of "${options.tool}": it is matched against ` +
            "the page, never filled (masked text shows [secret:NAME] instead)",
          "wait for other text, or for the field by ref or selector",
        );
      }
      if (key === undefined || !FILL_KEYS.includes(key)) {
        throw new ToolError(
          "invalid-argument",
          `{{secret:…}} is only filled into ${
            FILL_KEYS.map((k) => `"${k}"`).join(", ")
          } arguments, not into ${where}`,
          `pass the placeholder as the value to fill or type (e.g. fill({ ref, value: "{{secret:NAME}}" }))`,
        );
      }
      if (markup && !placeholdersOnlyInText(value)) {
        throw new ToolError(
          "invalid-argument",
          `{{secret:…}} is refused in ${where} of "set_editor" outside text: with html=true a ` +
            "placeholder goes only where the markup holds text, never in a tag (an attribute, " +
            "a URL), a comment, or the content of <style>, <script>, <textarea> and the like",
          'put the placeholder between tags (e.g. "<p>{{secret:NAME}}</p>"), or fill the ' +
            "field with fill",
        );
      }
      try {
        return markup ? store.substitute(value, htmlText) : store.substitute(value);
      } catch (e) {
        if (!(e instanceof UnknownSecretError)) throw e;
        throw new ToolError(
          "invalid-argument",
          `${e.message} (in ${where})`,
          e.known.length
            ? `use one of: ${e.known.map((n) => `{{secret:${n}}}`).join(", ")}`
            : "the operator registers secrets in a NAME=value file named by BROWX_SECRETS",
        );
      }
    }
    if (Array.isArray(value)) return value.map((v, i) => walk(v, [...path, String(i)]));
    if (!value || typeof value !== "object") return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = walk(v, [...path, k]);
    return out;
  };
  // Most calls carry no placeholder: hand the handler its arguments untouched.
  return anyPlaceholder(args) ? walk(args, []) as T : args;
}

/**
 * The strings a call fills that held a placeholder, as substituted (`filled` is what
 * {@link substituteArgs} made of `args`): what a field a secret goes into may show whole.
 */
export function secretFills(args: unknown, filled: unknown): string[] {
  if (args === filled) return [];
  if (typeof args === "string") return hasPlaceholder(args) ? [String(filled)] : [];
  if (!args || typeof args !== "object" || !filled || typeof filled !== "object") return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(args)) {
    out.push(...secretFills(v, (filled as Record<string, unknown>)[k]));
  }
  return out;
}

function anyPlaceholder(value: unknown): boolean {
  if (typeof value === "string") return hasPlaceholder(value);
  if (!value || typeof value !== "object") return false;
  return Object.values(value).some(anyPlaceholder);
}

/**
 * Refuses a call that fills a secret bound to origins with a tool that cannot check the
 * origin it fills (not one of {@link ORIGIN_CHECKED_TOOLS}).
 *
 * @param tool The tool called.
 * @param bound The bound secrets the call's arguments name: name → allowed origins
 *   (`SecretStore.boundIn`).
 * @throws ToolError `refused` with `allowedOrigins`.
 */
export function checkBoundSecrets(
  tool: string,
  bound: ReadonlyMap<string, readonly string[]>,
): void {
  if (!bound.size || ORIGIN_CHECKED_TOOLS.has(tool)) return;
  const [name, origins] = [...bound][0]!;
  throw new ToolError(
    "refused",
    `Refused "${tool}": {{secret:${name}}} is bound to ${
      origins.join(", ")
    }, and "${tool}" cannot check the origin it fills`,
    `fill it with ${[...ORIGIN_CHECKED_TOOLS].join(", ")} on a page of ${origins[0]}`,
    { allowedOrigins: [...origins] },
  );
}
