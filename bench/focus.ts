/**
 * `deno task bench --only navigate`: a short round for the navigate targets of issue 13.
 * Cold start of each server (spawn → its first navigate, each server's default result), then
 * every page navigated by browxai with `snapshot: "none"` and by the peer started with
 * `--snapshot-mode none`, in the same order. No snapshots, tokens or ground truth: minutes
 * shorter than a full round, so a change can be measured again and again.
 *
 * Figures: `cold.ms`, browxai `navigate.ms`, peer `navigate_nosnap.ms` (the names of the full
 * round, so the same rows of the table compare them).
 *
 * @module
 */
import { rawLoadMs } from "./raw_load.ts";
import { type ServerKind, startServer } from "./clients.ts";
import { navigate } from "./flows.ts";

/** What {@link runNavigateRound} needs. */
export interface NavigateRoundContext {
  round: number;
  kinds: ServerKind[];
  chromium: string;
  peerCli: string | undefined;
  pages: Array<{ id: string; url: string }>;
  /** A small page for the cold start. */
  coldUrl: string;
  add(round: number, server: string, figure: string, page: string, value: number): void;
  errors: string[];
  log(line: string): void;
}

/** Runs one navigate round; failures land in `ctx.errors`. */
export async function runNavigateRound(ctx: NavigateRoundContext): Promise<void> {
  for (const kind of ctx.kinds) {
    const s = await startServer({ kind, chromium: ctx.chromium, peerCli: ctx.peerCli });
    try {
      const r = await navigate(s, kind, ctx.coldUrl, { withSnapshot: true });
      if (r.isError) ctx.errors.push(`round ${ctx.round} cold start ${kind}: ${r.text}`);
      else ctx.add(ctx.round, kind, "cold.ms", "-", performance.now() - s.spawnedAt);
    } finally {
      await s.close();
    }
  }
  for (const kind of ctx.kinds) {
    const s = await startServer({
      kind,
      chromium: ctx.chromium,
      peerCli: ctx.peerCli,
      ...(kind === "peer" ? { args: ["--snapshot-mode", "none"] } : {}),
    });
    try {
      await navigate(s, kind, ctx.coldUrl); // start its browser
      const line: string[] = [];
      for (const page of ctx.pages) {
        const r = await navigate(s, kind, page.url);
        if (r.isError) {
          ctx.errors.push(
            `round ${ctx.round} navigate ${page.id} ${kind}: ${r.text.slice(0, 200)}`,
          );
          continue;
        }
        ctx.add(
          ctx.round,
          kind,
          kind === "peer" ? "navigate_nosnap.ms" : "navigate.ms",
          page.id,
          r.ms,
        );
        line.push(`${page.id} ${r.ms.toFixed(0)}`);
      }
      ctx.log(`  ${kind} navigate (no snapshot), ms: ${line.join(", ")}`);
    } finally {
      await s.close();
    }
  }
  // The floor: Chromium's own Page.navigate → load event, nothing between.
  try {
    const floor = await rawLoadMs(ctx.chromium, ctx.pages, ctx.coldUrl);
    for (const [id, values] of Object.entries(floor)) {
      for (const v of values) ctx.add(ctx.round, "browxai", "navigate_floor.ms", id, v);
    }
    ctx.log(
      `  raw CDP Page.navigate → load, ms: ${
        Object.entries(floor).map(([id, v]) => `${id} ${v[0]!.toFixed(0)}`).join(", ")
      }`,
    );
  } catch (e) {
    ctx.errors.push(`round ${ctx.round} raw load: ${e instanceof Error ? e.message : e}`);
  }
}
