/**
 * Cold start, split: spawn → MCP initialize, then the first navigate's result (with its
 * snapshot), for browxai (main.ts) and @playwright/mcp, alternating, N rounds (default 5);
 * prints medians and the ratio (issue 13's cold-start target). `COLD_ENV` (JSON) adds
 * environment for browxai. `--bundle` runs browxai as its npm package does: the one-file bundle
 * (`deno bundle`, built first into a temp dir), not main.ts from source.
 * Usage: `deno run -A bench/cold_start.ts [rounds] [--bundle]`.
 *
 * @module
 */
import { startServer } from "./clients.ts";
import { navigate } from "./flows.ts";
import { ensurePeer } from "./peer.ts";
import { startPageServer } from "./page_server.ts";
import { findChromium } from "../cdp/discovery.ts";

const positional = Deno.args.filter((a) => !a.startsWith("--"));
const rounds = Number(positional[0] ?? 5);
let entry: string | undefined;
if (Deno.args.includes("--bundle")) {
  entry = `${await Deno.makeTempDir({ prefix: "browxai-bundle-" })}/browxai.js`;
  const root = new URL("..", import.meta.url).pathname;
  const built = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--platform", "deno", "-o", entry, `${root}main.ts`],
    cwd: root,
    stdout: "null",
  }).output();
  if (!built.success) {
    throw new Error(`deno bundle failed: ${new TextDecoder().decode(built.stderr)}`);
  }
}
const chromium = findChromium().path;
const peerCli = await ensurePeer({});
const pages = await startPageServer();
const url = pages.url("/gen/small.html");
const out: Record<string, number[][]> = { browxai: [], peer: [] };
for (let r = 0; r < rounds; r++) {
  for (const kind of ["browxai", "peer"] as const) {
    const s = await startServer({
      kind,
      chromium,
      peerCli,
      ...(kind === "browxai" ? { entry } : {}),
      ...(kind === "browxai" && Deno.env.get("COLD_ENV")
        ? { env: JSON.parse(Deno.env.get("COLD_ENV")!) }
        : {}),
    });
    const init = performance.now() - s.spawnedAt;
    const res = await navigate(s, kind, url, { withSnapshot: true });
    const total = performance.now() - s.spawnedAt;
    if (res.isError) console.error(kind, res.text.slice(0, 200));
    out[kind]!.push([Math.round(init), Math.round(total - init), Math.round(total)]);
    await s.close();
  }
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [k, rows] of Object.entries(out)) {
  console.log(
    k,
    "init",
    med(rows.map((x) => x[0]!)),
    "navigate",
    med(rows.map((x) => x[1]!)),
    "total",
    med(rows.map((x) => x[2]!)),
    JSON.stringify(rows),
  );
}
console.log("ratio", med(out.browxai!.map((x) => x[2]!)) / med(out.peer!.map((x) => x[2]!)));
await pages.close();
