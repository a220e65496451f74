/**
 * `--blocked-origins` with a loopback entry (`127.0.0.1:B`) blocks the listener on B by every
 * loopback name and address Chromium reaches it by without DNS (red team s17 F5: `localhost:B`,
 * `x.localhost:B`, `localhost.:B`, `0.0.0.0:B` reached it), by navigation and by the page's
 * sub-requests; other ports stay open, and the allowlist admits only the spelling listed.
 */
import { assertEquals } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { eventually, servePages } from "./_util.ts";

const ALIASES = [
  "127.0.0.1",
  "localhost",
  "x.localhost",
  "localhost.",
  "0.0.0.0",
  "127.0.0.2",
  "127.1",
  "[::1]",
  "[::ffff:127.0.0.1]",
];

Deno.test("--blocked-origins 127.0.0.1:B: no loopback alias of B is reached", async () => {
  const hits: string[] = [];
  // Every address, v4 and v6: whatever alias the browser tries, the listener would answer.
  const target = Deno.serve({ hostname: "::", port: 0, onListen() {} }, (req) => {
    hits.push(`${new URL(req.url).host}${new URL(req.url).search}`);
    return new Response("<title>admin</title><p>reached", {
      headers: { "content-type": "text/html", "access-control-allow-origin": "*" },
    });
  });
  const B = target.addr.port;
  const probes = ALIASES.map((h, i) =>
    `fetch("http://${h}:${B}/?fetch=${i}").then(() => "ok", () => "failed")`
  ).join(",");
  const page = servePages({
    "/": `<title>page</title><p id=out>pending</p><script>
      Promise.all([${probes}]).then((r) => out.textContent = r.join(" "));</script>`,
  });
  const mcp = await startStdio({
    args: ["--blocked-origins", `127.0.0.1:${B}`],
    env: { BROWX_CAPABILITIES: "read,navigation,action,eval" },
  });
  try {
    for (const host of ALIASES) {
      const r = await mcp.call("navigate", {
        url: `http://${host}:${B}/?via=${host}`,
        snapshot: "none",
      });
      assertEquals(
        (r.structuredContent?.error as { code?: string } | undefined)?.code,
        "blocked-by-policy",
        `${host}: ${JSON.stringify(r.structuredContent)}`,
      );
    }
    // Another port of the same address is not blocked; its page's requests to B fail.
    await mcp.ok("navigate", { url: `${page.base}/`, snapshot: "none" });
    const out = await eventually(async () => {
      const v = String(
        (await mcp.ok("eval_js", { expression: `document.getElementById("out").textContent` }))
          .value,
      );
      return v === "pending" ? undefined : v;
    });
    assertEquals(out, ALIASES.map(() => "failed").join(" "));
    assertEquals(hits, []);
  } finally {
    await mcp.close();
    await page.close();
    await target.shutdown();
  }
});

Deno.test("allowlist 127.0.0.1:A: its aliases stay off the list, the spelling listed works", async () => {
  const page = servePages({ "/": "<title>page</title><p>ok" });
  const port = new URL(page.base).port;
  const mcp = await startStdio({ env: { BROWX_ALLOWED_ORIGINS: `127.0.0.1:${port}` } });
  try {
    await mcp.ok("navigate", { url: `${page.base}/`, snapshot: "none" });
    // `localhost:A` may be another listener on A (`[::1]`): not what the operator listed.
    for (const host of ["localhost", "x.localhost", "0.0.0.0", "[::1]"]) {
      const r = await mcp.call("navigate", { url: `http://${host}:${port}/`, snapshot: "none" });
      assertEquals(
        (r.structuredContent?.error as { code?: string } | undefined)?.code,
        "blocked-by-policy",
        host,
      );
    }
  } finally {
    await mcp.close();
    await page.close();
  }
});
