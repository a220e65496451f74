/**
 * `deno task compile` / `deno task release`: single executables of browxai
 * (`deno compile`, with the web console's `ui/` folder included so
 * mcp/static_root.ts finds it inside the binary).
 *
 *     deno run -A scripts/compile.ts            # this machine: dist/browxai
 *     deno run -A scripts/compile.ts --all      # every target: dist/browxai-<target>[.exe]
 *
 * `deno compile` downloads its runtime (denort) for each target from Deno's
 * release host on first use: a machine that cannot reach it cannot build
 * these (the release workflow builds them on CI).
 *
 * @module
 */
import { join } from "node:path";

/** Every target `deno compile` supports. */
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
] as const;

const root = join(import.meta.dirname ?? ".", "..");

/** The `deno compile` arguments for one target (undefined: this machine) and output file. */
export function compileArgs(target: string | undefined, output: string, withUi: boolean): string[] {
  return [
    "compile",
    "--allow-all",
    ...(withUi ? ["--include", "ui"] : []),
    ...(target ? ["--target", target] : []),
    "--output",
    output,
    "main.ts",
  ];
}

async function compile(target: string | undefined): Promise<void> {
  const withUi = await Deno.stat(join(root, "ui")).then((s) => s.isDirectory, () => false);
  const output = target
    ? join("dist", `browxai-${target}${target.includes("windows") ? ".exe" : ""}`)
    : join("dist", "browxai");
  console.error(`compile: ${output}${withUi ? " (with ui/)" : ""}`);
  const status = await new Deno.Command(Deno.execPath(), {
    args: compileArgs(target, output, withUi),
    cwd: root,
    stdin: "null",
  }).spawn().status;
  if (!status.success) throw new Error(`deno compile failed for ${target ?? "this machine"}`);
}

if (import.meta.main) {
  try {
    if (Deno.args.includes("--all")) { for (const t of TARGETS) await compile(t); }
    else await compile(undefined);
  } catch (e) {
    console.error(`compile: ${(e as Error).message}`);
    Deno.exit(1);
  }
}
