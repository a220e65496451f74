/**
 * Delta cost on deep outlines: `diffSnapshots` CPU time on nested menus and comment threads
 * (depth 20-200) against flat lists of the same size, after a small action-like change
 * (`actedOutline`). CPU time of this process (`process.cpuUsage`, user + system), the least
 * of a few runs, so other load on the machine counts little.
 *
 * Run: `deno run -A bench/deep_delta.ts [--root DIR] [--lines 5000,20000,50000]`; `--root`
 * takes `browser/snapshot/delta.ts` from another checkout (a worktree of an older commit) to
 * compare before and after a change.
 *
 * @module
 */
import { parseArgs } from "node:util";
import process from "node:process";
import { resolve } from "node:path";
import {
  actedOutline,
  flatOutline,
  nestedOutline,
  threadOutline,
} from "../browser/snapshot/_outlines.ts";
import type { diffSnapshots as Diff } from "../browser/snapshot/delta.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { root: { type: "string" }, lines: { type: "string" }, runs: { type: "string" } },
});
const root = values.root ? resolve(values.root) : new URL("..", import.meta.url).pathname;
const { diffSnapshots } = await import(`file://${root}/browser/snapshot/delta.ts`) as {
  diffSnapshots: typeof Diff;
};
const sizes = (values.lines ?? "5000,20000,50000").split(",").map(Number);
const runs = Number(values.runs ?? 3);

/** CPU milliseconds `f` takes, the least of `runs` runs. */
function cpu(f: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = process.cpuUsage();
    f();
    const t = process.cpuUsage(t0);
    best = Math.min(best, (t.user + t.system) / 1000);
  }
  return best;
}

const shapes: Array<[string, (n: number) => string]> = [
  ["flat", flatOutline],
  ["menu depth 20", (n) => nestedOutline(n, 20, 2)],
  ["menu depth 200", (n) => nestedOutline(n, 200, 1)],
  ["thread depth 200", (n) => threadOutline(n, 200)],
];
console.log(`diffSnapshots, CPU ms (least of ${runs}), root ${root}`);
for (const n of sizes) {
  for (const [name, make] of shapes) {
    const before = make(n);
    const after = actedOutline(before);
    let lines = 0;
    const ms = cpu(() => lines = diffSnapshots(before, after).added.length);
    console.log(
      `${String(n).padStart(6)} lines  ${name.padEnd(18)} ${
        ms.toFixed(0).padStart(7)
      } ms  (${lines} added)`,
    );
  }
}
