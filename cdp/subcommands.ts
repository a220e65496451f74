/**
 * The subcommands of the `browxai` command line that need no MCP: `doctor`
 * and `install-browser` (main.ts dispatches on the first argument).
 *
 * @module
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { formatDoctor, runDoctor } from "./doctor.ts";
import {
  BrowserInstallError,
  installBrowser,
  PINNED_BUILD,
  stderrProgress,
} from "./install_browser.ts";
import { browserCacheDir } from "./discovery.ts";

/** The subcommand names main.ts dispatches here. */
export const SUBCOMMANDS: readonly string[] = ["doctor", "install-browser"];

const USAGE = {
  doctor: `Usage: browxai doctor [--browser PATH] [--headful] [--workspace DIR]

  Prints Deno's version, the Chromium browxai would run (every path tried and why it was
  skipped), sandbox status, fonts, whether the workspace and the browser cache are writable,
  and what to do for each problem. Exits 0 when browxai can run, 1 otherwise.`,
  "install-browser": `Usage: browxai install-browser [--headful]

  Installs Chrome for Testing ${PINNED_BUILD} (chrome-headless-shell; chrome with --headful)
  into browxai's browser cache (BROWX_BROWSER_CACHE, default ~/.cache/browxai/browsers),
  from BROWX_BROWSER_MIRROR when set. Prints the executable's path on stdout.`,
} as Record<string, string>;

/**
 * Runs a subcommand.
 *
 * @param name One of {@link SUBCOMMANDS}.
 * @returns The exit code: 0 done, 1 failed (doctor: not usable), 2 usage error.
 */
export async function runSubcommand(name: string, args: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        browser: { type: "string" },
        headful: { type: "boolean" },
        workspace: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (e) {
    console.error(`browxai ${name}: ${(e as Error).message.split("\n")[0]}\n${USAGE[name]}`);
    return 2;
  }
  if (values.help) {
    console.error(USAGE[name]);
    return 0;
  }
  if (name === "doctor") {
    const ws = values.workspace ?? Deno.env.get("BROWX_WORKSPACE") ??
      join(Deno.env.get("HOME") ?? homedir(), ".browxai");
    const checks = await runDoctor({
      browserPath: values.browser,
      headful: values.headful,
      workspace: resolve(ws),
    });
    console.log(formatDoctor(checks));
    return checks.some((c) => c.status === "fail") ? 1 : 0;
  }
  console.error(
    `browxai: installing Chrome for Testing ${PINNED_BUILD} into ${browserCacheDir()}`,
  );
  try {
    const got = await installBrowser({
      headful: values.headful ?? false,
      mirror: Deno.env.get("BROWX_BROWSER_MIRROR"),
      onProgress: stderrProgress(),
      onWait: (pid) =>
        console.error(`browxai: waiting for another install (pid ${pid ?? "?"}) to finish`),
    });
    console.error(
      `browxai: ${got.reused ? "already installed" : "installed"}: ${got.version}`,
    );
    console.log(got.path);
    return 0;
  } catch (e) {
    if (!(e instanceof BrowserInstallError)) throw e;
    console.error(`browxai: ${e.message}`);
    return 1;
  }
}
