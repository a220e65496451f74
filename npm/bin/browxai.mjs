#!/usr/bin/env node
// browxai's npm entry point: runs the bundled server (dist/browxai.js) with the
// Deno binary of the `deno` npm package (a dependency, pinned), passing the
// arguments, with stdin/stdout/stderr inherited (stdout is the MCP channel),
// forwarding signals and exiting with the server's code. Plain Node ESM, no
// dependencies besides `deno`.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);

/** The deno executable: BROWX_DENO, else the one the `deno` package installed for this platform. */
function denoExecutable() {
  if (process.env.BROWX_DENO) return process.env.BROWX_DENO;
  try {
    // The deno package's own resolver: copies the binary out of @deno/<platform> once
    // (its postinstall does the same; npm may have skipped install scripts).
    return require("deno/install_api.cjs").runInstall();
  } catch (e) {
    console.error(
      `browxai: cannot find the Deno binary of the "deno" npm package: ${e?.message ?? e}\n` +
        "Reinstall browxai (npx -y browxai), or set BROWX_DENO to a Deno 2.9 executable.",
    );
    process.exit(1);
  }
}

const bundle = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "browxai.js");
const child = spawn(
  denoExecutable(),
  ["run", "--allow-all", "--no-config", "--no-lock", bundle, ...process.argv.slice(2)],
  {
    stdio: "inherit",
    // No "A new release of Deno is available" on stderr of an MCP server.
    // No package.json lookup: the bundle imports nothing, and the package.json beside it
    // names `deno` as a dependency Deno would try to resolve.
    env: { DENO_NO_UPDATE_CHECK: "1", DENO_NO_PACKAGE_JSON: "1", ...process.env },
  },
);

// A client that stops the server signals this process: pass it on, and let the
// server decide when to exit (it closes its browsers first).
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"];
for (const sig of SIGNALS) {
  try {
    process.on(sig, () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    });
  } catch { /* not on this OS */ }
}

child.on("error", (e) => {
  console.error(`browxai: cannot start Deno: ${e.message}`);
  process.exit(1);
});

child.on("exit", (code, signal) => {
  if (signal) {
    // Die of the same signal, so our parent sees what the server saw.
    for (const sig of SIGNALS) process.removeAllListeners(sig);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
