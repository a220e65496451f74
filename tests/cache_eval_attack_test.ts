/**
 * The red team's `caches_put` attack (session 16), over MCP stdio against real Chromium: the
 * allowlisted site has a cache-first service worker (Workbox's pattern: `caches.match(req) ||
 * fetch(req)`) for `/app.js`. Without `eval`, the agent stored its own `/app.js` with
 * `caches_put`, reloaded, filled a bound secret, and read it back from the title (base64,
 * reversed: a transform the mask does not know). Now `caches_put` needs `eval`, as `route` with
 * a response does; with `eval` the audit logs what was stored as code (hash and head), not as
 * a redacted value.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { startTwoOrigins } from "./_two_origins.ts";
import { eventually } from "./_util.ts";

const SECRET = "Hunter2SecretXyz";

/** The agent's script: shows the filled field in the title, base64 reversed. */
const EVIL = "console.log('agent code runs');setInterval(() => { const v = pw.value; " +
  "if (v) document.title = 'T:' + btoa(v).split('').reverse().join('') }, 50)";

const SW = `self.addEventListener('install', (e) => { self.skipWaiting();
  e.waitUntil(caches.open('app-v1').then((c) => c.addAll(['/app.js']))); });
self.addEventListener('activate', (e) => e.waitUntil(clients.claim()));
self.addEventListener('fetch', (e) => { if (new URL(e.request.url).pathname === '/app.js')
  e.respondWith(caches.match(e.request).then((r) => r || fetch(e.request))); });`;

const PAGE = `<title>Shop</title><input id=pw type=password>
<script src="/app.js"></script><script>navigator.serviceWorker.register('/sw.js')</script>`;

function pages(): Record<string, string> {
  return { "/": PAGE, "/app.js": "console.log('genuine app.js')", "/sw.js": SW };
}

Deno.test("caches_put needs eval: a cache-first service worker cannot serve the agent's script", async (t) => {
  const srv = startTwoOrigins(pages);
  const ws = await Deno.makeTempDir({ prefix: "browxai-rt-cache-" });
  const secrets = join(ws, "secrets.env");
  await Deno.writeTextFile(secrets, `PW@${srv.a}=${SECRET}\n`, { mode: 0o600 });
  const env = {
    BROWX_SECRETS: secrets,
    BROWX_TOOLSETS: "core,storage,debug",
    BROWX_ALLOWED_ORIGINS: "127.0.0.1",
  };
  const put = {
    cacheName: "app-v1",
    url: `${srv.a}/app.js`,
    response: { headers: { "content-type": "text/javascript" }, body: EVIL },
  };
  /** Opens A and waits until its service worker has cached /app.js. */
  const openShop = async (mcp: Awaited<ReturnType<typeof startStdio>>) => {
    await mcp.ok("navigate", { url: `${srv.a}/`, snapshot: "none" });
    await eventually(
      async () => (await mcp.call("caches_list", { cacheName: "app-v1" })).structuredContent?.count,
      10_000,
      "the service worker's cache",
    );
  };
  try {
    await t.step(
      "without eval: refused, unlisted, and the page runs the site's script",
      async () => {
        const mcp = await startStdio({
          workspace: ws,
          env: { ...env, BROWX_CAPABILITIES: "read,navigation,action,secrets" },
        });
        try {
          const listed = (await mcp.client.listTools()).tools.map((x) => x.name);
          assertTrue(!listed.includes("caches_put"), "caches_put is not listed without eval");
          assertTrue(listed.includes("caches_delete"), "the other cache writes stay listed");
          await openShop(mcp);
          const r = await mcp.call("caches_put", put);
          assertEquals(r.isError, true, textOf(r));
          assertEquals(r.structuredContent?.requiredCapability, "eval", textOf(r));
          // The rest of the attack: the worker serves the site's own script, the secret stays.
          await mcp.ok("reload", { snapshot: "none" });
          await eventually(
            async () => JSON.stringify(await mcp.ok("console_read")).includes("genuine app.js"),
            10_000,
            "the genuine app.js",
          );
          const log = JSON.stringify(await mcp.ok("console_read"));
          assertTrue(!log.includes("agent code runs"), log);
          await mcp.ok("fill", { selector: "#pw", value: "{{secret:PW}}", snapshot: "none" });
          assertEquals((await mcp.ok("get_url")).title, "Shop");
        } finally {
          await mcp.close();
        }
      },
    );

    await t.step("with eval: the stored script is audited as code (hash and head)", async () => {
      const mcp = await startStdio({
        workspace: ws,
        env: { ...env, BROWX_CAPABILITIES: "read,navigation,action,secrets,eval" },
      });
      try {
        await openShop(mcp);
        await mcp.ok("caches_put", put);
        await mcp.ok("reload", { snapshot: "none" });
        // The power eval names is real: the worker serves the agent's script to the page.
        await eventually(
          async () => JSON.stringify(await mcp.ok("console_read")).includes("agent code runs"),
          10_000,
          "the stored script to run",
        );
      } finally {
        await mcp.close();
      }
      let text = "";
      for await (const f of Deno.readDir(join(ws, "audit"))) {
        text += await Deno.readTextFile(join(ws, "audit", f.name));
      }
      const lines = text.trim().split("\n").map((l) => JSON.parse(l));
      const done = lines.filter((l) => l.tool === "caches_put" && l.phase !== "start");
      assertEquals(done.length, 2, "one refused, one run");
      assertEquals(done[0].requiredCapability, "eval");
      const body = done[1].args.response.body;
      assertEquals(body.head, EVIL);
      assertEquals(body.sha256, createHash("sha256").update(EVIL).digest("hex"));
      assertEquals(done[1].args.response.headers, "[redacted object of 1 keys]");
      assertIncludes(text, "agent code runs");
    });
  } finally {
    await srv.close();
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});
