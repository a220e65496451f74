/**
 * Hints that name a tool the agent cannot call (session 17, new-user finding 3): a click on a
 * file input said "call upload_file(…)" while the `files` toolset was off, and the refusal of
 * a person's control said "call release()" with `human` off. A hint must name a tool the
 * agent has, or say how it would get it. The pipeline passes every result's hints and
 * warnings through {@link noteUnlisted}: a mention of a tool this configuration does not list
 * gets a note saying which toolset (or capability) it needs, so the agent can tell its user
 * instead of calling a tool that is not there.
 *
 * A mention is a tool's name followed by `(` (`release()`), or a name with an underscore
 * (`download_get`, `upload_file`): plain words (`highlight`, `route`) are left alone.
 *
 * @module
 */
import type { ServerConfig } from "../policy/server_config.ts";
import { ALL_TOOLS, listedTools } from "../tools/mod.ts";
import { ToolError } from "../browser/tool_error.ts";

type Config = Pick<ServerConfig, "toolsets" | "capabilities" | "configReadonly">;

interface Known {
  /** Names of the tools the agent can call here. */
  enabled: ReadonlySet<string>;
  /** Mentions of the others, or undefined when every tool is enabled. */
  mention: RegExp | undefined;
}

const known = new WeakMap<Config, Known>();

function knownFor(config: Config): Known {
  let k = known.get(config);
  if (k) return k;
  const enabled = new Set(
    listedTools(config.toolsets, {
      configReadonly: config.configReadonly,
      capabilities: config.capabilities,
    }).map((t) => t.name),
  );
  const others = ALL_TOOLS.map((t) => t.name).filter((n) => !enabled.has(n));
  const alternatives = others.map((n) => n.includes("_") ? `${n}\\b` : `${n}(?=\\()`);
  k = {
    enabled,
    mention: others.length
      ? new RegExp(`(?<![\\w.\\-/])(?:${alternatives.join("|")})`, "g")
      : undefined,
  };
  known.set(config, k);
  return k;
}

/** Whether the agent can call tool `name` here (listed, its capability on). */
export function toolEnabled(config: Config, name: string): boolean {
  return knownFor(config).enabled.has(name);
}

/**
 * What tool `name` needs to be callable here, in words (`download_get needs the toolset "files"
 * (BROWX_TOOLSETS) and the capability "file-io" (BROWX_CAPABILITIES)`), or undefined when it is
 * callable (or unknown).
 */
export function whatItNeeds(config: Config, name: string): string | undefined {
  if (toolEnabled(config, name)) return undefined;
  const tool = ALL_TOOLS.find((t) => t.name === name);
  if (!tool) return undefined;
  const needs = [
    ...(config.toolsets !== "all" && !config.toolsets.has(tool.toolset)
      ? [`the toolset "${tool.toolset}" (BROWX_TOOLSETS)`]
      : []),
    ...(!config.capabilities.has(tool.capability)
      ? [`the capability "${tool.capability}" (BROWX_CAPABILITIES)`]
      : []),
  ];
  if (needs.length) return `${name} needs ${needs.join(" and ")}`;
  return `${name} is hidden: the configuration is read-only (BROWX_CONFIG_READONLY)`;
}

/**
 * `text` with a note after it for each tool it mentions that is not enabled here (see the
 * module doc); `text` itself when there is none.
 */
export function noteUnlisted(text: string, config: Config): string {
  const { mention } = knownFor(config);
  if (!mention || text.includes("not enabled here")) return text;
  // Quoted text is the page's or a server's own words ("Next: call approve_actions"), not ours.
  const names = new Set(text.replace(/"(?:[^"\\]|\\.)*"/g, '""').match(mention) ?? []);
  if (!names.size) return text;
  const needs = [...names].map((n) => whatItNeeds(config, n)).filter((n) => n !== undefined);
  return `${text} (not enabled here: ${needs.join("; ")}; ask the operator to enable it, or ` +
    "tell your user)";
}

/**
 * A result's `hint`, `error.hint` and `warnings` with {@link noteUnlisted} applied (the same
 * object when nothing changed).
 */
export function noteUnlistedIn(
  structured: Record<string, unknown>,
  config: Config,
): Record<string, unknown> {
  let out = structured;
  const set = (key: string, value: unknown) => {
    if (out === structured) out = { ...structured };
    out[key] = value;
  };
  if (typeof structured.hint === "string") {
    const h = noteUnlisted(structured.hint, config);
    if (h !== structured.hint) set("hint", h);
  }
  const error = structured.error as Record<string, unknown> | undefined;
  if (error && typeof error === "object" && typeof error.hint === "string") {
    const h = noteUnlisted(error.hint, config);
    if (h !== error.hint) set("error", { ...error, hint: h });
  }
  if (Array.isArray(structured.warnings)) {
    const w = structured.warnings.map((x) => typeof x === "string" ? noteUnlisted(x, config) : x);
    if (w.some((x, i) => x !== (structured.warnings as unknown[])[i])) set("warnings", w);
  }
  return out;
}

/** `error` with {@link noteUnlisted} applied to its hint (the same error when unchanged). */
export function noteUnlistedError(error: ToolError, config: Config): ToolError {
  const hint = noteUnlisted(error.hint, config);
  if (hint === error.hint) return error;
  return new ToolError(error.code, error.message, hint, error.details);
}
