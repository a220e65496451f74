/**
 * End-to-end tests of `route` / `unroute` / `list_routes`: a page's fetch
 * answered by a route (status, headers, JSON body), an image aborted, a
 * navigation answered (its scripts run: serving needs `eval`), a new tab under the same
 * routes, `times`, `unroute`, the ActionResult's `network.routed`, and a
 * route for a host the allowlist blocks, which does not serve it.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf, type ToolResult } from "./_mcp.ts";
import { startTwoOrigins } from "./_two_origins.ts";
import { eventually } from "./_util.ts";
import { ROUTES_OUTPUT } from "../tools/testing/route_fields.ts";
import { ACTION_RESULT_OUTPUT } from "../tools/output_schemas.ts";

type R = Record<string, unknown>;

/** A page that fetches `path` when `#go` is clicked and shows status, x-test header and body. */
const FETCHER = `<title>fetcher</title><button id=go>go</button><p id=out>none</p>
<script>
async function load(path) {
  try {
    const r = await fetch(path);
    out.textContent = "got " + r.status + " " + (r.headers.get("x-test") || "-") + " " + await r.text();
  } catch (e) { out.textContent = "fetch failed"; }
}
go.onclick = () => load(new URLSearchParams(location.search).get("p") || "/api/data");
</script>`;

/** The `network.routed` of an ActionResult. */
function routedOf(r: R): R[] {
  return ((r.network as R | undefined)?.routed ?? []) as R[];
}

async function outText(mcp: { ok(n: string, a?: R): Promise<R> }): Promise<string> {
  const snap = await mcp.ok("snapshot");
  return String(snap.tree);
}

Deno.test("route: answers, aborts, new tabs, times, unroute and the allowlist", async (t) => {
  const srv = startTwoOrigins((a, b) => ({
    "/fetcher": FETCHER,
    "/api/data": () =>
      new Response('{"from":"server"}', { headers: { "content-type": "application/json" } }),
    "/images": `<title>images</title><button id=img>img</button><p id=out>none</p>
      <script>img.onclick = () => { const i = new Image(); i.onload = () => out.textContent = "img loaded";
      i.onerror = () => out.textContent = "img error"; i.src = "/pic.png?" + Date.now(); };</script>`,
    "/opener": `<title>opener</title><a id=open href="${a}/fetcher?auto=1" target=_blank>open</a>
      <a id=off href="${b}/fake">off</a>`,
    "/cross": `<title>cross</title><button id=go>go</button><p id=out>none</p>
      <script>go.onclick = () => fetch("${b}/api/x").then((r) => r.text())
        .then((t) => out.textContent = "got " + t, () => out.textContent = "fetch failed");</script>`,
  }));
  const mcp = await startStdio({
    env: {
      BROWX_ALLOWED_ORIGINS: "127.0.0.1",
      BROWX_CAPABILITIES: "read,navigation,action,eval",
      BROWX_TOOLSETS: "core,debug,testing",
    },
  });
  const hitsOf = (path: string) => srv.hits.filter((h) => h.path.startsWith(path)).length;
  try {
    await t.step(
      "a fetch answered by a route: status, headers, JSON body; routed shown",
      async () => {
        await mcp.ok("navigate", { url: `${srv.a}/fetcher`, snapshot: "none" });
        const set = await mcp.ok("route", {
          urlPattern: "**/api/data",
          response: { status: 201, headers: { "x-test": "yes" }, json: { from: "route" } },
        });
        assertEquals((set.route as R).urlPattern, "**/api/data");
        const r: ToolResult = await mcp.call("click", { selector: "#go", snapshot: "none" });
        assertEquals(r.isError, undefined, textOf(r));
        await eventually(async () => (await outText(mcp)).includes('got 201 yes {"from":"route"}'));
        assertEquals(hitsOf("/api/data"), 0);
        const routed = routedOf(r.structuredContent!);
        assertEquals(routed.length, 1, JSON.stringify(r.structuredContent));
        assertEquals(routed[0]!.pattern, "**/api/data");
        assertEquals(routed[0]!.action, "fulfilled");
        assertEquals(routed[0]!.status, 201);
        // Their outputSchemas hold: route's, and the click's ActionResult with network.routed.
        ROUTES_OUTPUT.parse(set);
        ACTION_RESULT_OUTPUT.parse(r.structuredContent);
        assertIncludes(textOf(r), '"routed":[{"url":"');
        const log = (await mcp.ok("network_read", { pattern: "api/data" })).entries as R[];
        assertEquals(log.at(-1)?.routed, "**/api/data", JSON.stringify(log));
        assertEquals(log.at(-1)?.status, 201);
      },
    );

    await t.step("a route applies in a tab the page opens", async () => {
      await mcp.ok("navigate", { url: `${srv.a}/opener`, snapshot: "none" });
      const r = await mcp.ok("click", { selector: "#open", snapshot: "none" });
      assertEquals(((r.structure as R).newTabs as R[]).length, 1, JSON.stringify(r));
      await mcp.ok("click", { selector: "#go", snapshot: "none" });
      await eventually(async () => (await outText(mcp)).includes('got 201 yes {"from":"route"}'));
      assertEquals(hitsOf("/api/data"), 0);
      await mcp.ok("tabs", { action: "close", index: 1 });
    });

    await t.step("list_routes shows it with its hits; unroute lets requests through", async () => {
      const list = await mcp.ok("list_routes");
      ROUTES_OUTPUT.parse(list);
      const listed = list.routes as R[];
      assertEquals(listed.length, 1);
      assertEquals(listed[0]!.hits, 2);
      assertEquals(listed[0]!.action, "fulfill");
      const gone = await mcp.ok("unroute", { urlPattern: "**/api/data" });
      assertEquals(gone.removed, 1);
      ROUTES_OUTPUT.parse(gone);
      ROUTES_OUTPUT.parse((await mcp.call("unroute", {})).structuredContent);
      const none = await mcp.call("list_routes", {});
      assertEquals((none.structuredContent as { routes: unknown[] }).routes, []);
      // The text an agent reads says there are none, not `{}`.
      assertIncludes(textOf(none), '"routes":[]');
      await mcp.ok("navigate", { url: `${srv.a}/fetcher`, snapshot: "none" });
      const r = await mcp.ok("click", { selector: "#go", snapshot: "none" });
      await eventually(async () => (await outText(mcp)).includes('got 200 - {"from":"server"}'));
      assertEquals(hitsOf("/api/data"), 1);
      assertEquals(routedOf(r), []);
    });

    await t.step("times: 1 answers once, then the route is gone", async () => {
      await mcp.ok("route", { urlPattern: "**/api/*", response: { body: "once" }, times: 1 });
      await mcp.ok("click", { selector: "#go", snapshot: "none" });
      await eventually(async () => (await outText(mcp)).includes("got 200 - once"));
      assertEquals((await mcp.ok("list_routes")).routes, []);
      await mcp.ok("click", { selector: "#go", snapshot: "none" });
      await eventually(async () => (await outText(mcp)).includes('{"from":"server"}'));
      assertEquals(hitsOf("/api/data"), 2);
    });

    await t.step("an image aborted by a route: the page sees the error", async () => {
      await mcp.ok("route", { urlPattern: "**/*.png?*", abort: "failed" });
      await mcp.ok("navigate", { url: `${srv.a}/images`, snapshot: "none" });
      const r = await mcp.ok("click", { selector: "#img", snapshot: "none" });
      await eventually(async () => (await outText(mcp)).includes("img error"));
      assertEquals(hitsOf("/pic.png"), 0);
      await eventually(async () => {
        const log = (await mcp.ok("network_read", { pattern: "pic.png" })).entries as R[];
        return log.at(-1)?.routed === "**/*.png?*" && log.at(-1)?.failed === true;
      });
      assertEquals(routedOf(r)[0]?.action, "aborted", JSON.stringify(r));
    });

    await t.step(
      "a navigation answered by a route: its document, served as written",
      async () => {
        await mcp.ok("route", {
          urlPattern: `${srv.a}/virtual/*`,
          response: {
            contentType: "text/html",
            body:
              "<title>Routed</title><h1>from the route</h1><script>document.title='ran'</script>",
          },
        });
        const r = await mcp.ok("navigate", { url: `${srv.a}/virtual/page.html` });
        assertIncludes(String((r.snapshotDelta as R).tree), "from the route");
        assertEquals(hitsOf("/virtual"), 0);
        // Its script ran in the site's origin, as eval_js would (serving needs eval).
        await eventually(async () => (await mcp.ok("get_url")).title === "ran");
      },
    );

    await t.step("a route for a host the allowlist blocks does not serve it", async () => {
      await mcp.ok("unroute", { all: true });
      await mcp.ok("route", {
        urlPattern: `${srv.b}/**`,
        response: { contentType: "text/html", body: "<h1>fake page</h1>" },
      });
      await mcp.ok("navigate", { url: `${srv.a}/opener`, snapshot: "none" });
      const r = await mcp.call("click", { selector: "#off" });
      assertEquals((r.structuredContent!.error as R).code, "blocked-by-policy", textOf(r));
      const routed = routedOf(r.structuredContent!);
      assertEquals(routed[0]?.action, "refused", JSON.stringify(r.structuredContent));
      assertIncludes(String(routed[0]?.why), "blocked by policy");
      assertTrue(!textOf(r).includes("fake page"));
      // A page's fetch to it goes on as it would without the route (the route is not used).
      await mcp.ok("navigate", { url: `${srv.a}/cross`, snapshot: "none" });
      const c = await mcp.ok("click", { selector: "#go", snapshot: "none" });
      await eventually(() => hitsOf("/api/x") === 1);
      assertEquals(routedOf(c)[0]?.action, "refused", JSON.stringify(c));
      assertEquals(((await mcp.ok("list_routes")).routes as R[])[0]?.hits, 0);
    });
  } finally {
    await mcp.close();
    await srv.close();
  }
});

Deno.test("route: a routed script runs; an out-of-process iframe, a worker; storage state", async (t) => {
  const srv = startTwoOrigins((_a, b) => ({
    "/scripted": `<title>scripted</title><script src="/app.js"></script>`,
    "/framer": `<title>framer</title><iframe src="${b}/frame"></iframe>
      <script>localStorage.setItem("kept", "yes")</script>`,
    "/frame": `<title>frame</title><p id=out>none</p>
      <script>fetch("/api/frame").then((r) => r.text()).then((t) => out.textContent = "frame " + t)</script>`,
    "/worker": `<title>worker</title><p id=out>none</p><script>
      const w = new Worker("/w.js"); w.onmessage = (m) => out.textContent = "worker " + m.data;</script>`,
    "/w.js": `fetch("/api/w").then((r) => r.text()).then((t) => postMessage(t))`,
    "/cors": `<title>cors</title><button id=go>go</button><p id=out>none</p><script>
      go.onclick = () => fetch("${b}/api/cors", { method: "PUT", headers: { "x-a": "1" } })
        .then((r) => r.text()).then((t) => out.textContent = "cors " + t,
          () => out.textContent = "cors failed");</script>`,
  }));
  const mcp = await startStdio({
    env: {
      BROWX_CAPABILITIES: "read,navigation,action,eval",
      BROWX_TOOLSETS: "core,debug,testing,storage",
    },
  });
  const hitsOf = (path: string) => srv.hits.filter((h) => h.path.startsWith(path)).length;
  try {
    await t.step("a routed script runs", async () => {
      await mcp.ok("route", {
        urlPattern: "**/app.js",
        response: { contentType: "text/javascript", body: "document.title = 'routed script'" },
      });
      await mcp.ok("navigate", { url: `${srv.a}/scripted`, snapshot: "none" });
      await eventually(async () => (await mcp.ok("get_url")).title === "routed script");
      assertEquals(hitsOf("/app.js"), 0);
    });

    await t.step("an out-of-process iframe's fetch is routed", async () => {
      await mcp.ok("route", { urlPattern: `${srv.b}/api/*`, response: { body: "routed" } });
      await mcp.ok("navigate", { url: `${srv.a}/framer`, snapshot: "none" });
      await eventually(async () => (await outText(mcp)).includes("frame routed"));
      assertEquals(hitsOf("/api/frame"), 0);
      assertEquals(srv.seen("B").filter((p) => p === "GET /frame").length, 1);
    });

    await t.step("a dedicated worker's fetch", async () => {
      await mcp.ok("route", { urlPattern: "**/api/w", response: { body: "routed" } });
      await mcp.ok("navigate", { url: `${srv.a}/worker`, snapshot: "none" });
      await eventually(async () => (await outText(mcp)).includes("worker routed"));
      assertEquals(hitsOf("/api/w"), 0);
    });

    await t.step("a cross-origin fetch with a preflight is answered", async () => {
      await mcp.ok("route", { urlPattern: `${srv.b}/api/cors`, response: { body: "routed" } });
      await mcp.ok("navigate", { url: `${srv.a}/cors`, snapshot: "none" });
      const r = await mcp.ok("click", { selector: "#go", snapshot: "none" });
      await eventually(async () => (await outText(mcp)).includes("cors routed"));
      assertEquals(hitsOf("/api/cors"), 0);
      assertEquals(routedOf(r).map((x) => x.action), ["fulfilled"], JSON.stringify(r));
    });

    await t.step("storage state is read past a route that fails everything", async () => {
      await mcp.ok("route", { urlPattern: "**", abort: "failed" });
      const state = await mcp.ok("dump_storage_state");
      assertIncludes(JSON.stringify(state), '"kept"');
      await mcp.ok("unroute", { all: true });
    });
  } finally {
    await mcp.close();
    await srv.close();
  }
});
