/**
 * The peer under comparison, `@playwright/mcp`, installed from npm into `bench/.peer/`
 * (gitignored) with `npm install --prefix`. It never downloads a browser: the bench passes
 * `--executable-path` of the Chromium browxai uses, and installs with
 * `PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1`.
 *
 * @module
 */
import { dirname, fromFileUrl, join } from "../tests/_paths.ts";

/** The pinned peer version (`npm view @playwright/mcp version` when the bench was written). */
export const PEER_VERSION = "0.0.83";
/** The folder the peer is installed into. */
export const PEER_DIR: string = join(dirname(fromFileUrl(import.meta.url)), ".peer");
/** The peer's CLI entry, run with `node`. */
export const PEER_CLI: string = join(PEER_DIR, "node_modules", "@playwright", "mcp", "cli.js");

/** Environment that keeps Playwright from fetching browsers. */
export const PEER_ENV: Record<string, string> = {
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1",
  PLAYWRIGHT_BROWSERS_PATH: join(PEER_DIR, "no-browsers"),
};

/** Options of {@link ensurePeer}. */
export interface EnsurePeerOptions {
  /** Install only from npm's local cache (`npm install --offline`): no network. */
  offline?: boolean;
}

async function installedVersion(): Promise<string | undefined> {
  try {
    const pkg = JSON.parse(
      await Deno.readTextFile(join(PEER_DIR, "node_modules", "@playwright", "mcp", "package.json")),
    ) as { version?: string };
    return pkg.version;
  } catch {
    return undefined;
  }
}

/**
 * Makes sure `@playwright/mcp@PEER_VERSION` is installed in {@link PEER_DIR}.
 *
 * @returns The CLI path ({@link PEER_CLI}).
 * @throws Error with npm's last lines of output when the install fails (offline and not
 *   cached, no npm, …).
 */
export async function ensurePeer(options: EnsurePeerOptions = {}): Promise<string> {
  if (await installedVersion() === PEER_VERSION) return PEER_CLI;
  await Deno.mkdir(PEER_DIR, { recursive: true });
  const args = [
    "install",
    "--prefix",
    PEER_DIR,
    "--no-audit",
    "--no-fund",
    "--no-save",
    "--loglevel=error",
    ...(options.offline ? ["--offline"] : []),
    `@playwright/mcp@${PEER_VERSION}`,
  ];
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command("npm", {
      args,
      env: PEER_ENV,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
  } catch (e) {
    throw new Error(`cannot run npm: ${e instanceof Error ? e.message : e}`);
  }
  if (!out.success || await installedVersion() !== PEER_VERSION) {
    const err = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-4).join(" | ");
    throw new Error(`npm ${args.join(" ")} failed (exit ${out.code}): ${err}`);
  }
  return PEER_CLI;
}
