/**
 * The command line's flags (node:util `parseArgs` options) and `--config FILE`: a JSON object
 * holding flags (by name as written, `viewport-size`, or camelCase, `viewportSize`) and
 * `BROWX_*` settings. Precedence: flags > file > environment > defaults.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import { UsageError } from "./usage_error.ts";

/** Flags naming files or folders: in a config file, relative to the file's folder. */
const PATH_FLAGS = new Set([
  "init-script",
  "storage-state",
  "user-data-dir",
  "workspace",
  "browser",
]);

/** Every flag of `browxai` (the server; subcommands have their own). */
export const FLAG_OPTIONS = {
  http: { type: "boolean" },
  console: { type: "string" },
  host: { type: "string" },
  port: { type: "string" },
  headful: { type: "boolean" },
  headed: { type: "boolean" },
  headless: { type: "boolean" },
  browser: { type: "string" },
  "cdp-endpoint": { type: "string" },
  workspace: { type: "string" },
  config: { type: "string" },
  "viewport-size": { type: "string" },
  device: { type: "string" },
  "user-data-dir": { type: "string" },
  isolated: { type: "boolean" },
  "storage-state": { type: "string" },
  "allowed-origins": { type: "string" },
  "blocked-origins": { type: "string" },
  "ignore-https-errors": { type: "boolean" },
  "proxy-server": { type: "string" },
  "proxy-bypass": { type: "string" },
  "init-script": { type: "string", multiple: true },
  "shared-browser-context": { type: "boolean" },
  "automation-tells": { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

/** A flag's name as written (`viewport-size`). */
export type FlagName = keyof typeof FLAG_OPTIONS;

/** Parsed flag values, as `parseArgs` gives them. */
export type FlagValues = {
  [K in FlagName]?: (typeof FLAG_OPTIONS)[K] extends { multiple: true } ? string[]
    : (typeof FLAG_OPTIONS)[K]["type"] extends "boolean" ? boolean
    : string;
};

/** Flags a config file may not hold: they are about this run of the command, not a setting. */
const NOT_IN_FILE = new Set<string>(["config", "help", "version"]);

/** The `BROWX_*` settings (the environment, or a config file's keys). */
export const KNOWN_ENV: readonly string[] = [
  "BROWX_ALLOWED_ORIGINS",
  "BROWX_AUTOMATION_TELLS",
  "BROWX_BROWSER",
  "BROWX_BROWSER_CACHE",
  "BROWX_BROWSER_MIRROR",
  "BROWX_BROWSER_SEARCH",
  "BROWX_BROWSER_SHA256",
  "BROWX_CACHE_DIR",
  "BROWX_CAPABILITIES",
  "BROWX_CONFIG_READONLY",
  "BROWX_CONFIRM_ELICITATION",
  "BROWX_CONFIRM_REQUIRED",
  "BROWX_CONFIRM_TIMEOUT_MS",
  "BROWX_CONSOLE",
  "BROWX_DEVTOOLS_CONFIRM",
  "BROWX_DRAIN_MS",
  "BROWX_HTTP_BODY_TIMEOUT_MS",
  "BROWX_HTTP_BROWSERS",
  "BROWX_HTTP_HEAD_TIMEOUT_MS",
  "BROWX_HTTP_IDLE_MS",
  "BROWX_HTTP_INIT_TTL_MS",
  "BROWX_HTTP_MAX_CLIENTS",
  "BROWX_HTTP_TOKEN",
  "BROWX_MAX_SESSIONS",
  "BROWX_NO_DOWNLOAD",
  "BROWX_SECRETS",
  "BROWX_SESSION_IDLE_MS",
  "BROWX_SESSION_QUEUE",
  "BROWX_SESSION_WAIT_MS",
  "BROWX_SHARED_AUTH_STATES",
  "BROWX_STATIC_ROOT",
  "BROWX_TOOLSETS",
  "BROWX_WORKSPACE",
];

/**
 * The settings that decide what an agent may do, with the flag that sets each one too (if any):
 * a config file that changes one the environment set is told on stderr (parse_cli.ts), since
 * the file wins and an operator's stricter environment would otherwise be replaced silently.
 */
export const POLICY_SETTINGS: Readonly<Record<string, string | undefined>> = {
  BROWX_CAPABILITIES: undefined,
  BROWX_ALLOWED_ORIGINS: "allowed-origins",
  BROWX_CONFIRM_REQUIRED: undefined,
  BROWX_CONFIRM_TIMEOUT_MS: undefined,
  BROWX_CONFIRM_ELICITATION: undefined,
  BROWX_CONFIG_READONLY: undefined,
  BROWX_DEVTOOLS_CONFIRM: undefined,
  BROWX_SECRETS: undefined,
  BROWX_SHARED_AUTH_STATES: undefined,
  BROWX_TOOLSETS: undefined,
  BROWX_WORKSPACE: "workspace",
  BROWX_HTTP_TOKEN: undefined,
};

/** `viewportSize` → `viewport-size`. */
function kebab(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** What a config file holds, split: flag values, and `BROWX_*` settings (as text). */
export interface ConfigFile {
  flags: FlagValues;
  env: Record<string, string>;
}

/**
 * Reads `--config FILE`: a JSON object whose keys are flags (as written or camelCase) or
 * `BROWX_*` settings. Relative paths of the flags that name files (`init-script`,
 * `storage-state`, `user-data-dir`, `workspace`, `browser`) are relative to the file's folder. Values: a string, number or boolean; an array for `init-script` (and, for
 * the origin lists, joined with `;`). A `BROWX_*` boolean is written as `1` / `0`.
 *
 * @throws UsageError naming the file: unreadable, not JSON, not an object, unknown keys (all of
 *   them, at once), a value of the wrong type.
 */
export function readConfigFile(path: string): ConfigFile {
  let raw: unknown;
  try {
    raw = JSON.parse(Deno.readTextFileSync(path));
  } catch (e) {
    throw new UsageError(`Cannot read --config "${path}": ${(e as Error).message.split("\n")[0]}`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new UsageError(`Invalid --config "${path}": expected a JSON object of settings`);
  }
  // @playwright/mcp's config file nests its settings ({ browser: { launchOptions } }, server,
  // capabilities): say so, rather than reading "browser" as --browser PATH.
  const o = raw as Record<string, unknown>;
  if (
    ["browser", "server", "network"].some((k) =>
      Object.hasOwn(o, k) && o[k] !== null && typeof o[k] === "object" && !Array.isArray(o[k])
    )
  ) {
    throw new UsageError(
      `Invalid --config "${path}": it looks like @playwright/mcp's config file (nested ` +
        `"browser", "server" or "network" objects), which browxai does not read; browxai's file is ` +
        'flat: flag names and BROWX_* settings, e.g. {"viewport-size": "1280x720", ' +
        '"headless": true, "BROWX_TOOLSETS": "core,testing"} (README: "Flags from @playwright/mcp")',
    );
  }
  const flags: Record<string, unknown> = {};
  const env: Record<string, string> = {};
  const unknown: string[] = [];
  const bad: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (/^BROWX_[A-Z0-9_]+$/.test(key)) {
      if (!KNOWN_ENV.includes(key)) unknown.push(key);
      else if (["string", "number", "boolean"].includes(typeof value)) {
        env[key] = typeof value === "boolean" ? (value ? "1" : "0") : String(value);
      } else if (Array.isArray(value) && value.every((v) => typeof v === "string")) {
        env[key] = value.join(",");
      } else bad.push(`${key} (expected a string, number or boolean)`);
      continue;
    }
    // Own keys only: `toString`, `constructor`, `__proto__` are not flags.
    const name = Object.hasOwn(FLAG_OPTIONS, key) ? key : kebab(key);
    if (!Object.hasOwn(FLAG_OPTIONS, name) || NOT_IN_FILE.has(name)) {
      unknown.push(key);
      continue;
    }
    const spec = FLAG_OPTIONS[name as FlagName] as { type: string; multiple?: boolean };
    if (spec.type === "boolean") {
      if (typeof value === "boolean") flags[name] = value;
      else bad.push(`${key} (expected true or false)`);
    } else if (spec.multiple) {
      const list = typeof value === "string" ? [value] : value;
      if (Array.isArray(list) && list.every((v) => typeof v === "string")) flags[name] = list;
      else bad.push(`${key} (expected a string or an array of strings)`);
    } else if (typeof value === "string" || typeof value === "number") {
      flags[name] = String(value);
    } else if (
      name.endsWith("-origins") && Array.isArray(value) && value.every((v) => typeof v === "string")
    ) {
      flags[name] = value.join(";");
    } else bad.push(`${key} (expected a string)`);
  }
  if (unknown.length) {
    throw new UsageError(
      `Unknown key${unknown.length > 1 ? "s" : ""} in --config "${path}": ${
        unknown.map((k) => `"${k}"`).join(", ")
      } (expected flag names like "viewport-size" or "viewportSize", or BROWX_* settings)`,
    );
  }
  if (bad.length) throw new UsageError(`Invalid --config "${path}": ${bad.join("; ")}`);
  const base = dirname(resolve(path));
  for (const name of PATH_FLAGS) {
    const v = flags[name];
    if (typeof v === "string" && v) flags[name] = resolve(base, v);
    else if (Array.isArray(v)) flags[name] = v.map((p: string) => resolve(base, p));
  }
  return { flags: flags as FlagValues, env };
}
