/**
 * Browsers from elsewhere (issue 16): two `--http` instances, each attached with `--cdp-endpoint`
 * to its own Chromium that the test started (one by its `ws://` URL, one by `http://host:port`,
 * as a browser pool or a debugging port hands them out). Each client's pages open in its
 * instance's browser, in a browser context of their own; browxai launches no Chromium; /readyz
 * and /metrics follow the remote browser, and one going away fails only its own instance.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { type HttpProcess, startHttp, textOf } from "./_mcp.ts";
import { eventually } from "./_util.ts";
import { chromiumsUnder } from "./_procs.ts";
import { sample } from "./_metrics.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { Browser } from "../cdp/browser.ts";
import { findChromium } from "../cdp/discovery.ts";

type R = Record<string, unknown>;

/** The page URLs open in `browser`, with the browser context each one is in. */
async function pagesOf(browser: Browser): Promise<Array<{ url: string; context: string }>> {
  const { targetInfos } = await browser.connection.send("Target.getTargets");
  return targetInfos.filter((t) => t.type === "page").map((t) => ({
    url: t.url,
    context: t.browserContextId ?? "",
  }));
}

async function metricsOf(server: HttpProcess): Promise<string> {
  return await (await fetch(new URL("/metrics", server.url))).text();
}

Deno.test("cdp pool: two instances on two remote Chromiums, each client in its own context", async () => {
  const fx = await startFixtureServer();
  const path = findChromium().path;
  const remotes = [
    await Browser.launch({ executablePath: path, debugPort: true }),
    await Browser.launch({ executablePath: path, debugPort: true }),
  ];
  const endpoints = [
    remotes[0]!.wsEndpoint!,
    `http://127.0.0.1:${new URL(remotes[1]!.wsEndpoint!).port}`,
  ];
  const servers: HttpProcess[] = [];
  try {
    for (const e of endpoints) servers.push(await startHttp({ args: ["--cdp-endpoint", e] }));
    for (const s of servers) {
      const ready = await fetch(new URL("/readyz", s.url));
      assertEquals([ready.status, (await ready.text()).trim()], [200, "ready"]);
    }
    // Two clients on each instance, each on its own page.
    const clients = [];
    for (const [i, s] of servers.entries()) {
      for (const n of [0, 1]) {
        const c = await s.connect();
        await c.ok("navigate", { url: fx.url(`basic.html?i=${i}&n=${n}`), snapshot: "none" });
        clients.push({ c, i, n });
      }
    }
    for (const [i, remote] of remotes.entries()) {
      const pages = (await pagesOf(remote)).filter((p) => p.url.includes("basic.html"));
      assertEquals(
        pages.map((p) => new URL(p.url).search).sort(),
        [`?i=${i}&n=0`, `?i=${i}&n=1`],
        `pages in remote ${i}`,
      );
      // Isolated: each client's page in a browser context of its own.
      assertEquals(new Set(pages.map((p) => p.context)).size, 2);
    }
    for (const s of servers) {
      const m = await metricsOf(s);
      assertEquals(sample(m, "browxai_browser_launches_total"), 0, "browxai launched a Chromium");
      assertEquals(sample(m, "browxai_browser_sessions"), 2);
      assertEquals(chromiumsUnder(s.child.pid).length, 0, "a Chromium runs under browxai");
    }
    const snap = await clients[0]!.c.ok("snapshot");
    assertIncludes(String(snap.tree), "# Basic page");

    // Remote 0 goes away: its instance says so; the other instance is untouched.
    await remotes[0]!.close();
    await eventually(
      async () => {
        const r = await fetch(new URL("/readyz", servers[0]!.url));
        return r.status === 503 && (await r.text()).includes("cannot open a browser session");
      },
      15_000,
      "readyz 503 once the remote browser is gone",
    );
    const lost = await clients[0]!.c.call("snapshot");
    assertEquals(lost.isError, true, textOf(lost));
    assertEquals(((lost.structuredContent as R).error as R).code, "browser-crashed", textOf(lost));
    assertEquals(sample(await metricsOf(servers[0]!), "browxai_browser_crashes_total"), 1);
    for (const { c, i } of clients) {
      if (i === 1) assertIncludes(String((await c.ok("snapshot")).tree), "# Basic page");
    }
    assertEquals((await fetch(new URL("/readyz", servers[1]!.url))).status, 200);
    assertTrue((await pagesOf(remotes[1]!)).length >= 2);
  } finally {
    for (const s of servers) await s.close();
    for (const r of remotes) await r.close().catch(() => {});
    await fx.close();
  }
});
