/**
 * What a server that dies leaves behind: its browsers die with it (they run on
 * a pipe, not a port), its temp profiles are removed by the next start, its
 * persistent profiles open again; two servers racing for one profile get one
 * winner and a clear "in use".
 */
import { join } from "node:path";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { type McpHarness, startStdio, textOf } from "./_mcp.ts";
import { chromiumsUnder, listeningPorts } from "./_procs.ts";
import { alive, cmdline, eventually, exists } from "./_util.ts";

/** The temp profiles in a temp dir. */
function tempProfiles(tmp: string): string[] {
  return [...Deno.readDirSync(tmp)].map((e) => e.name).filter((n) =>
    n.startsWith("browxai-profile-")
  ).sort();
}

Deno.test("processes: kill -9 of the server ends its Chromium; the next start cleans up and reopens the profile", async () => {
  const fx = await startFixtureServer();
  const tmp = await Deno.makeTempDir({ prefix: "browxai-procs-tmp-" });
  const workspace = await Deno.makeTempDir({ prefix: "browxai-procs-ws-" });
  const env = { TMPDIR: tmp };
  let next: McpHarness | undefined;
  const first = await startStdio({ env, workspace });
  try {
    await first.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    await first.ok("open_session", {
      session: "work",
      mode: "persistent",
      url: fx.url("basic.html"),
    });
    const chromium = chromiumsUnder(first.pid!);
    const browsers = chromium.filter((p) => !cmdline(p).includes("--type="));
    assertEquals(browsers.length, 2, "the shared browser and the profile's");
    for (const b of browsers) assertIncludes(cmdline(b), "--remote-debugging-pipe");
    assertEquals(listeningPorts(chromium), [], "no Chromium process listens on a TCP port");
    assertEquals(tempProfiles(tmp).length, 1, "the shared browser's temp profile");

    Deno.kill(first.pid!, "SIGKILL");
    await eventually(
      () => chromium.every((p) => !alive(p)),
      15_000,
      "every Chromium process of the killed server to exit",
    );
    assertEquals(listeningPorts(chromium), []);
    assertEquals(tempProfiles(tmp).length, 1, "nothing removed the temp profile yet");

    next = await startStdio({ env, workspace });
    await eventually(() => tempProfiles(tmp).length === 0, 10_000, "the stale temp profile to go");
    const reopened = await next.call("open_session", {
      session: "work",
      mode: "persistent",
      url: fx.url("basic.html"),
    });
    assertEquals(reopened.isError, undefined, textOf(reopened));
  } finally {
    await next?.close();
    await first.close();
    await fx.close();
    await Deno.remove(workspace, { recursive: true }).catch(() => {});
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
});

Deno.test("processes: a start removes temp profiles of dead servers only", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "browxai-procs-tmp-" });
  const stale = ["browxai-profile-stale1", "browxai-profile-stale2"].map((n) => join(tmp, n));
  const live = join(tmp, "browxai-profile-live");
  const unmarked = join(tmp, "browxai-profile-unmarked");
  for (const dir of [...stale, live, unmarked]) {
    await Deno.mkdir(join(dir, "Default"), { recursive: true });
  }
  for (const dir of stale) await Deno.writeTextFile(join(dir, ".browxai-owner"), "999999\n");
  await Deno.writeTextFile(join(live, ".browxai-owner"), `${Deno.pid}\n`);
  // This process stands in for the live server: it holds the owner file's lock.
  const held = await Deno.open(join(live, ".browxai-owner"), { read: true, write: true });
  await held.lock(true);
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { TMPDIR: tmp } });
  try {
    await eventually(() => stale.every((d) => !exists(d)), 10_000, "the stale profiles to go");
    // A browser start later, the others are still there.
    await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    assertTrue(exists(live), "a live server's temp profile is kept");
    assertTrue(exists(unmarked), "a folder without an owner file is not known to be ours");
  } finally {
    held.close();
    await mcp.close();
    await fx.close();
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
});

Deno.test("processes: two servers racing for one profile: one opens it, the other hears it is in use", async () => {
  const workspace = await Deno.makeTempDir({ prefix: "browxai-procs-ws-" });
  const a = await startStdio({ workspace });
  const b = await startStdio({ workspace });
  try {
    await Promise.all([a.client.listTools(), b.client.listTools()]);
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all(
        [a, b].map((s) => s.call("open_session", { session: "shared", mode: "persistent" })),
      );
      const winners = results.filter((r) => !r.isError);
      const losers = results.filter((r) => r.isError);
      assertEquals(winners.length, 1, results.map(textOf).join("\n---\n"));
      assertEquals(losers.length, 1);
      const lost = losers[0]!;
      assertEquals((lost.structuredContent?.error as { code?: string })?.code, "refused");
      assertIncludes(textOf(lost), "in use by another browxai server");
      assertTrue(!/crash/i.test(textOf(lost)), textOf(lost));
      const winner = [a, b][results.indexOf(winners[0]!)]!;
      await winner.ok("close_session", { session: "shared" });
    }
  } finally {
    await a.close();
    await b.close();
    await Deno.remove(workspace, { recursive: true }).catch(() => {});
  }
});
