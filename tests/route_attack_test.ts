/**
 * The red team's attacks on `route`, performed over MCP stdio against real
 * Chromium, each shown to fail:
 * - without `eval`, agent HTML a page puts into `innerHTML` (the htmx / Turbo /
 *   jQuery `.load` pattern) ran an `<img onerror>` in the real origin that read
 *   a filled, origin-bound secret: `route` with a response now needs `eval`
 *   (abort still works without it);
 * - a routed probe page was a CSS oracle for an unbound secret
 *   (`input:valid { background: url(/hit) }` + fill + count hits): refused the same way;
 * - header values were uncapped (10 routes × 10 headers × 8 MiB took the server to
 *   1.78 GB): a header's value, a route's headers and all of a session's routes are capped.
 */
import { join } from "node:path";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf, type ToolResult } from "./_mcp.ts";
import { startTwoOrigins } from "./_two_origins.ts";
import { eventually } from "./_util.ts";

type R = Record<string, unknown>;

/** The app: fetches /frag and puts it into innerHTML, as htmx, Turbo and jQuery .load do. */
const APP = `<title>app</title><input id=pw><div id=slot>loading</div><script>
fetch("/frag").then((r) => r.text()).then((h) => slot.innerHTML = h,
  () => slot.textContent = "frag failed");</script>`;

/** What the attacker routes at /frag: reads the field after the fill, shows it reversed in base64. */
const EVIL = `<img src=nope onerror="setInterval(() => { document.title = 'T:' + ` +
  `btoa(pw.value).split('').reverse().join('') }, 50)">`;

/** The CSS oracle page: a hit on /hit says the filled value matches the pattern. */
const PROBE =
  `<style>input:valid{background:url(/hit)}</style><input id=pw pattern="u.*" required>`;

/** Asserts `r` is the refusal of a response route without `eval`. */
function assertNeedsEval(r: ToolResult): void {
  assertEquals(r.isError, true, textOf(r));
  const error = r.structuredContent?.error as R;
  assertEquals(error.code, "capability-required", textOf(r));
  assertEquals(r.structuredContent?.requiredCapability, "eval", textOf(r));
  assertIncludes(String(error.message), 'capability "eval" is not enabled');
  assertIncludes(String(error.hint), "abort works without it");
  assertIncludes(String(error.hint), "BROWX_CAPABILITIES");
}

Deno.test("route attacks without eval: no agent HTML in the origin, no CSS oracle", async (t) => {
  const srv = startTwoOrigins(() => ({
    "/": APP,
    "/frag": "<p>server fragment</p>",
  }));
  const ws = await Deno.makeTempDir({ prefix: "browxai-rt-route-" });
  const secrets = join(ws, "secrets.env");
  await Deno.writeTextFile(secrets, `PW@${srv.a}=hunter2xyz\nUNB=unb0und-Val\n`, {
    mode: 0o600,
  });
  const mcp = await startStdio({
    workspace: ws,
    env: {
      BROWX_CAPABILITIES: "read,navigation,action,secrets",
      BROWX_SECRETS: secrets,
      BROWX_TOOLSETS: "core,debug,testing",
      BROWX_ALLOWED_ORIGINS: "127.0.0.1",
    },
  });
  const hitsOf = (path: string) => srv.hits.filter((h) => h.path.startsWith(path)).length;
  const tree = async () => String((await mcp.ok("snapshot")).tree);
  try {
    await t.step(
      "innerHTML of a routed fragment: the route is refused, the secret stays",
      async () => {
        assertNeedsEval(
          await mcp.call("route", {
            urlPattern: `${srv.a}/frag`,
            response: { contentType: "text/html", body: EVIL },
          }),
        );
        assertEquals((await mcp.ok("list_routes")).routes, []);
        // The rest of the attack: the page gets the server's fragment, not the agent's.
        await mcp.ok("navigate", { url: `${srv.a}/`, snapshot: "none" });
        await eventually(async () => (await tree()).includes("server fragment"));
        await mcp.ok("fill", { selector: "#pw", value: "{{secret:PW}}", snapshot: "none" });
        assertEquals(hitsOf("/frag"), 1);
        const title = String((await mcp.ok("get_url")).title);
        assertEquals(title, "app");
        const tabs = textOf(await mcp.call("tabs", { action: "list" }));
        assertTrue(!tabs.includes("T:"), tabs);
      },
    );

    await t.step("abort still works without eval", async () => {
      const r = await mcp.ok("route", { urlPattern: `${srv.a}/frag`, abort: "failed" });
      assertEquals((r.route as R).action, "abort");
      await mcp.ok("navigate", { url: `${srv.a}/`, snapshot: "none" });
      await eventually(async () => (await tree()).includes("frag failed"));
      assertEquals(hitsOf("/frag"), 1);
      await mcp.ok("unroute", { all: true });
    });

    await t.step("a routed CSS probe page for an unbound secret is refused", async () => {
      assertNeedsEval(
        await mcp.call("route", {
          urlPattern: `${srv.a}/probe`,
          response: { contentType: "text/html", body: PROBE },
        }),
      );
      assertNeedsEval(
        await mcp.call("route", {
          urlPattern: `${srv.a}/hit`,
          response: { contentType: "image/gif", body: "" },
        }),
      );
      // The navigation reaches the site's own page: there is no field to probe with.
      await mcp.ok("navigate", { url: `${srv.a}/probe`, snapshot: "none" });
      assertEquals((await mcp.ok("get_url")).title, "A /probe");
      const fill = await mcp.call("fill", { selector: "#pw", value: "{{secret:UNB}}" });
      assertEquals(fill.isError, true, textOf(fill));
      assertEquals(hitsOf("/hit"), 0);
      assertEquals((await mcp.ok("list_routes")).routes, []);
    });
  } finally {
    await mcp.close();
    await srv.close();
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});

Deno.test("route memory: header values, a route's headers and a session's routes are capped", async (t) => {
  const mcp = await startStdio({
    env: { BROWX_CAPABILITIES: "read,navigation,action,eval", BROWX_TOOLSETS: "core,testing" },
  });
  const refused = async (args: R, expect: string) => {
    const r = await mcp.call("route", args);
    assertEquals(r.isError, true, textOf(r).slice(0, 300));
    assertEquals((r.structuredContent?.error as R).code, "invalid-argument");
    assertIncludes(textOf(r), expect);
  };
  try {
    await mcp.ok("navigate", { url: "about:blank", snapshot: "none" });

    await t.step("an 8 MiB header value is refused", async () => {
      const big = "a".repeat(8 * 1024 * 1024);
      await refused(
        { urlPattern: "http://127.0.0.1:9/r0", response: { body: "x", headers: { "X-H": big } } },
        "at most 256 and 8192",
      );
    });

    await t.step("ten 8 KiB headers are past a route's 64 KiB", async () => {
      const headers = Object.fromEntries(
        Array.from({ length: 10 }, (_, i) => [`X-H${i}`, "a".repeat(8 * 1024)]),
      );
      await refused(
        { urlPattern: "http://127.0.0.1:9/r1", response: { body: "x", headers } },
        "at most 65536 in all",
      );
    });

    await t.step("16 MiB of bodies across routes, and no more", async () => {
      const body = "b".repeat(1024 * 1024);
      for (let i = 0; i < 16; i++) {
        await mcp.ok("route", { urlPattern: `http://127.0.0.1:9/b${i}`, response: { body } });
      }
      await refused(
        { urlPattern: "http://127.0.0.1:9/b16", response: { body } },
        `together at most ${16 * 1024 * 1024} bytes`,
      );
      assertEquals(((await mcp.ok("list_routes")).routes as R[]).length, 16);
      // Replacing a route or freeing room lets a route in again.
      await mcp.ok("route", { urlPattern: "http://127.0.0.1:9/b0", response: { body } });
      await mcp.ok("unroute", { urlPattern: "http://127.0.0.1:9/b1" });
      await mcp.ok("route", { urlPattern: "http://127.0.0.1:9/b16", response: { body } });
      await mcp.ok("unroute", { all: true });
    });
  } finally {
    await mcp.close();
  }
});
