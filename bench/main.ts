/**
 * `deno task bench`: browxai against `@playwright/mcp`, side by side. See README "Benchmarks".
 *
 * ```
 * deno task bench [--rounds N] [--sessions N] [--quick] [--no-peer] [--peer-offline]
 *                 [--only navigate,conc] [--out DIR] [--json]
 * ```
 *
 * Prints a table of medians and ratios (browxai/peer), writes the raw results to
 * `bench/results/<timestamp>.json` (or `--out DIR`), and with `--json` prints only the result
 * file's path on stdout (progress goes to stderr).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { dirname, fromFileUrl, join } from "../tests/_paths.ts";
import { computeRows, renderTable } from "./report.ts";
import { type BenchOptions, runBench } from "./run.ts";

const USAGE = `usage: deno task bench [--rounds N] [--sessions N] [--quick] [--no-peer]
                       [--peer-offline] [--only navigate,conc] [--out DIR] [--json]`;
const PARTS = ["navigate", "conc"] as const;

/** Parses the command line; @throws Error with the usage on bad input. */
export function parseBenchArgs(args: string[]): BenchOptions & { out: string; json: boolean } {
  const { values } = parseArgs({
    args,
    options: {
      rounds: { type: "string" },
      sessions: { type: "string" },
      quick: { type: "boolean", default: false },
      "no-peer": { type: "boolean", default: false },
      "peer-offline": { type: "boolean", default: false },
      only: { type: "string" },
      out: { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.help) throw new Error(USAGE);
  const int = (v: string | undefined, d: number, name: string) => {
    if (v === undefined) return d;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) {
      throw new Error(`--${name} must be a positive integer\n${USAGE}`);
    }
    return n;
  };
  const quick = values.quick;
  const only = values.only?.split(",").map((p) => p.trim());
  for (const p of only ?? []) {
    if (!(PARTS as readonly string[]).includes(p)) {
      throw new Error(`--only takes ${PARTS.join(", ")}; got "${p}"\n${USAGE}`);
    }
  }
  return {
    ...(only ? { only: only as Array<(typeof PARTS)[number]> } : {}),
    rounds: int(values.rounds, quick ? 1 : 3, "rounds"),
    sessions: int(values.sessions, quick ? 3 : 20, "sessions"),
    quick,
    peer: values["no-peer"] ? "off" : values["peer-offline"] ? "offline" : "install",
    out: values.out ?? join(dirname(fromFileUrl(import.meta.url)), "results"),
    json: values.json,
    log: (line) => console.error(line),
  };
}

if (import.meta.main) {
  let options: ReturnType<typeof parseBenchArgs>;
  try {
    options = parseBenchArgs(Deno.args);
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    Deno.exit(2);
  }
  const result = await runBench(options);
  const rows = computeRows(result.samples, result.rows);
  await Deno.mkdir(options.out, { recursive: true });
  const file = join(options.out, `${result.startedAt.replace(/[:.]/g, "-")}.json`);
  await Deno.writeTextFile(file, JSON.stringify({ ...result, table: rows }, null, 1));
  const say = options.json ? (s: string) => console.error(s) : (s: string) => console.log(s);
  say("");
  say(renderTable(rows));
  say("");
  say(
    `browxai ${result.browxai.commit}${result.browxai.dirty ? " (with local changes)" : ""}; ` +
      `peer: @playwright/mcp ${result.peer.version}${
        result.peer.available ? "" : ` not run (${result.peer.reason})`
      }; load average ${result.machine.loadavgStart.join(" ")} → ${
        result.machine.loadavgEnd.join(" ")
      } on ${result.machine.cpus} CPUs`,
  );
  if (result.errors.length) {
    say(`errors (${result.errors.length}):`);
    for (const e of result.errors.slice(0, 30)) say(`  ${e}`);
  }
  say(`results: ${file}`);
  if (options.json) console.log(file);
}
