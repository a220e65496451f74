/**
 * The CPU a start costs: user + system seconds of `deno run -A main.ts` that answers one MCP
 * initialize on stdio and exits at end of input (no browser starts). Median and minimum of N
 * runs (default 9). CPU seconds, unlike wall time, hold on a machine busy with other work.
 *
 * ```
 * deno run -A bench/init_cpu.ts [runs] [tree]   # tree: another checkout to compare (A/B)
 * ```
 *
 * @module
 */
import { join } from "node:path";
import { initializeRequest } from "../tests/_wire.ts";

const runs = Number(Deno.args[0] ?? 9);
const trees = [join(import.meta.dirname!, ".."), ...Deno.args.slice(1)];
const workspace = await Deno.makeTempDir({ prefix: "browxai-init-cpu-" });
const init = JSON.stringify(initializeRequest(1));
const cpu = new Map<string, number[]>(trees.map((t) => [t, []]));
for (let i = 0; i < runs; i++) {
  for (const root of trees) cpu.get(root)!.push(await startCpu(root));
}
for (const [root, xs] of cpu) {
  xs.sort((a, b) => a - b);
  console.log(
    `${root}: start → initialize answered → exit: CPU median ${
      xs[xs.length >> 1]!.toFixed(2)
    } s, ` +
      `min ${xs[0]!.toFixed(2)} s (${runs} runs)`,
  );
}
await Deno.remove(workspace, { recursive: true }).catch(() => {});

/** User + system CPU seconds of one start in `root`. */
async function startCpu(root: string): Promise<number> {
  // bash's `time` reports the child's user and system CPU (TIMEFORMAT: seconds).
  const out = await new Deno.Command("bash", {
    args: [
      "-c",
      `TIMEFORMAT='%U %S'; time (printf '%s\\n' "$INIT" | "$DENO" run -A main.ts >/dev/null 2>&1)`,
    ],
    env: { INIT: init, DENO: Deno.execPath(), BROWX_WORKSPACE: workspace },
    cwd: root,
    stderr: "piped",
    stdout: "null",
  }).output();
  const [user, sys] = new TextDecoder().decode(out.stderr).trim().split(/\s+/).map(Number);
  return user! + sys!;
}
