/**
 * Smoke test of `deno task bench`: one round on one small generated page (`--quick`), with a
 * few concurrent sessions. The peer runs only when `@playwright/mcp` is installed in
 * `bench/.peer/` or in npm's cache (`--peer-offline`: no network); otherwise the run is
 * browxai-only and says so. Asserts that the run completes and its figures are numbers, not
 * timings.
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { ROOT } from "./_mcp.ts";
import { join } from "./_paths.ts";
import type { BenchResult } from "../bench/run.ts";
import type { Row } from "../bench/report.ts";

Deno.test("bench smoke: --quick runs one round on the small page", async () => {
  const out = await Deno.makeTempDir({ prefix: "browxai-bench-smoke-" });
  try {
    const t0 = Date.now();
    const r = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-all",
        join(ROOT, "bench", "main.ts"),
        "--quick",
        "--peer-offline",
        "--sessions",
        "2",
        "--out",
        out,
        "--json",
      ],
      cwd: ROOT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(r.stderr);
    assertEquals(r.code, 0, stderr);
    const file = new TextDecoder().decode(r.stdout).trim();
    const result = JSON.parse(await Deno.readTextFile(file)) as BenchResult & { table: Row[] };
    const secs = ((Date.now() - t0) / 1000).toFixed(1);
    console.log(
      result.peer.available
        ? `bench smoke: browxai and @playwright/mcp ${result.peer.version} (${secs} s)`
        : `bench smoke: browxai only, the peer was not run: ${result.peer.reason} (${secs} s)`,
    );
    assertEquals(result.errors, [], stderr);
    assertEquals(result.pages.map((p) => p.id), ["small"]);
    const one = (server: string, figure: string, page = "small") => {
      const s = result.samples.filter((x) =>
        x.server === server && x.figure === figure && x.page === page
      );
      assertEquals(s.length, 1, `${server} ${figure} ${page}: ${JSON.stringify(s)}`);
      assertTrue(Number.isFinite(s[0]!.value), `${server} ${figure}: ${s[0]!.value}`);
      return s[0]!.value;
    };
    const servers = result.peer.available ? ["browxai", "peer"] : ["browxai"];
    for (const server of servers) {
      assertTrue(one(server, "snapshot.o200k") > 50);
      assertTrue(one(server, "snapshot.ms") > 0);
      assertTrue(one(server, "navigate.ms") > 0);
      assertTrue(one(server, "fill.ms") > 0);
      assertTrue(one(server, "click.ms") > 0);
      assertTrue(one(server, "fill.o200k") > 0);
      assertTrue(one(server, "cold.ms", "-") > 0);
      assertTrue(one(server, "tools.default.count", "-") > 5);
      assertEquals(one(server, "conc.errors", "-"), 0);
      assertTrue(one(server, "conc.fill.p95", "-") > 0);
    }
    assertEquals(one("browxai", "snapshot.coverage"), 100);
    assertTrue(one("page", "floor.o200k") > 10);
    const tokens = result.table.find((row) => row.label === "snapshot tokens")!;
    assertTrue(Number.isFinite(tokens.a));
    assertEquals(Number.isFinite(tokens.ratio), result.peer.available);
  } finally {
    await Deno.remove(out, { recursive: true }).catch(() => {});
  }
});
