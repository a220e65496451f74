/**
 * Settings the command line reads from `BROWX_*` environment variables: integers within their
 * range (scale-out and `--http` limits), the secrets file (`BROWX_SECRETS`) and the toolsets
 * (`BROWX_TOOLSETS`). `parse_cli.ts` uses them.
 *
 * @module
 */
import { SecretStore } from "../policy/secrets.ts";
import { parseSecretsFile, SecretsFileError } from "../policy/secrets_file.ts";
import { DEFAULT_TOOLSETS, isToolset, type Toolset, TOOLSETS } from "../policy/toolsets.ts";
import { UsageError } from "./usage_error.ts";

/** Scale-out settings, as {@link ENV_INTS}. */
export const SCALE_INTS = {
  maxSessions: ["BROWX_MAX_SESSIONS", 1, 10_000, "sessions"],
  queueMax: ["BROWX_SESSION_QUEUE", 0, 10_000, "waiting opens"],
  queueWaitMs: ["BROWX_SESSION_WAIT_MS", 0, 86_400_000, "milliseconds"],
  idleMs: ["BROWX_SESSION_IDLE_MS", 100, 86_400_000, "milliseconds"],
  drainMs: ["BROWX_DRAIN_MS", 0, 86_400_000, "milliseconds"],
} as const;

/** Numeric environment variables: [name, least, most, unit]. Timeouts 100 ms..24 h; counts 1..10000. */
export const ENV_INTS = {
  idleMs: ["BROWX_HTTP_IDLE_MS", 100, 86_400_000, "milliseconds"],
  maxClients: ["BROWX_HTTP_MAX_CLIENTS", 1, 10_000, "clients"],
  initTtlMs: ["BROWX_HTTP_INIT_TTL_MS", 100, 86_400_000, "milliseconds"],
  bodyTimeoutMs: ["BROWX_HTTP_BODY_TIMEOUT_MS", 100, 86_400_000, "milliseconds"],
  headTimeoutMs: ["BROWX_HTTP_HEAD_TIMEOUT_MS", 100, 86_400_000, "milliseconds"],
} as const;

/**
 * An integer environment variable in [min, max], or undefined when unset.
 *
 * @throws UsageError naming the variable and the allowed range (an empty value too).
 */
export function envInt(
  env: (name: string) => string | undefined,
  [name, min, max, unit]: readonly [string, number, number, string],
): number | undefined {
  const raw = env(name);
  if (raw === undefined) return undefined;
  const n = /^\d{1,9}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!(n >= min && n <= max)) {
    throw new UsageError(
      `Invalid ${name} "${raw}": expected an integer number of ${unit}, ${min}-${max} (or unset it)`,
    );
  }
  return n;
}

/**
 * Loads `BROWX_SECRETS` (a dotenv-style file, see `policy/secrets.ts`).
 *
 * @returns The store (undefined without a file) and warnings: values too
 *   short to mask, a file others can read, the `secrets` capability off.
 * @throws UsageError naming the file and the bad line, never a value.
 */
export function loadSecrets(
  path: string | undefined,
  capabilities: ReadonlySet<string>,
): { secrets: SecretStore | undefined; warnings: string[] } {
  const warnings: string[] = [];
  if (!path) {
    if (capabilities.has("secrets")) {
      warnings.push(
        "the secrets capability is on but BROWX_SECRETS is not set: no secrets to fill",
      );
    }
    return { secrets: undefined, warnings };
  }
  let text: string;
  let mode: number | null;
  try {
    text = Deno.readTextFileSync(path);
    mode = Deno.statSync(path).mode;
  } catch (e) {
    throw new UsageError(`Cannot read BROWX_SECRETS "${path}": ${(e as Error).message}`);
  }
  let parsed;
  try {
    parsed = parseSecretsFile(text);
  } catch (e) {
    if (!(e instanceof SecretsFileError)) throw e;
    throw new UsageError(`Invalid BROWX_SECRETS "${path}": ${e.message}`);
  }
  warnings.push(...parsed.warnings.map((w) => `BROWX_SECRETS: ${w}`));
  if (mode !== null && (mode & 0o077) !== 0) {
    warnings.push(`BROWX_SECRETS "${path}" is readable by other users: chmod 600 it`);
  }
  if (!capabilities.has("secrets")) {
    warnings.push(
      'BROWX_SECRETS is set but the "secrets" capability is off: {{secret:NAME}} is refused ' +
        "(results are still masked)",
    );
  }
  return { secrets: new SecretStore(parsed.secrets, { origins: parsed.origins }), warnings };
}

/** `BROWX_TOOLSETS`: the default toolsets when unset, `all`, or the named ones. */
export function parseToolsets(value: string | undefined): ReadonlySet<Toolset> | "all" {
  if (!value?.trim()) return new Set(DEFAULT_TOOLSETS);
  if (value.trim() === "all") return "all";
  const names = value.split(",").map((s) => s.trim()).filter(Boolean);
  const bad = names.filter((n) => !isToolset(n));
  if (bad.length) {
    throw new UsageError(
      `Unknown toolset ${bad.map((b) => `"${b}"`).join(", ")} in BROWX_TOOLSETS: valid are ${
        TOOLSETS.join(", ")
      }, all`,
    );
  }
  return new Set(names.filter(isToolset));
}
