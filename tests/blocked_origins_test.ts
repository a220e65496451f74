/**
 * `--blocked-origins` end to end: a blocked origin is never reached by any request of the
 * page (fetch, an image, an iframe) or of its workers (dedicated, shared), not only by
 * navigations; the page's own origin still is;
 * the snapshot says why the blocked iframe is empty.
 */
import { assertEquals, assertIncludes, assertNotIncludes } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { eventually } from "./_util.ts";

Deno.test("--blocked-origins: every request there fails, the page's own still go", async () => {
  const fx = await startFixtureServer();
  // The fixture's second server answers as `localhost`: the same routes under another name.
  // Its port only: a loopback entry blocks every loopback name (127.0.0.1 too) on its ports.
  const mcp = await startStdio({
    args: ["--blocked-origins", new URL(fx.crossOrigin).host],
    env: { BROWX_CAPABILITIES: "read,navigation,action,eval" },
  });
  const out = async (id: string) =>
    String(
      (await mcp.ok("eval_js", { expression: `document.getElementById("${id}").textContent` }))
        .value,
    );
  try {
    const page = fx.url(`blocked-origins.html?cross=${encodeURIComponent(fx.crossOrigin)}`);
    await mcp.ok("navigate", { url: page, snapshot: "none" });
    await eventually(async () => {
      for (
        const id of [
          "fetch-cross",
          "fetch-own",
          "img-cross",
          "worker-cross",
          "worker-own",
          "dot-cross",
        ]
      ) {
        if ((await out(id)) === "pending") throw new Error(`${id} still pending`);
      }
      return true;
    });
    assertEquals(await out("fetch-cross"), "failed");
    assertEquals(await out("img-cross"), "error");
    assertEquals(await out("fetch-own"), "ok 200");
    // The attack: a worker fetches where the page may not (before the fix, "ok 200").
    assertEquals(await out("worker-cross"), "failed");
    assertEquals(await out("worker-own"), "ok 200");
    await eventually(async () => {
      if ((await out("shared-cross")) === "pending") throw new Error("shared worker pending");
      return true;
    });
    assertEquals(await out("shared-cross"), "failed");
    assertEquals(await out("dot-cross"), "failed");
    // Navigating there by the trailing-dot name is refused like by the name.
    const dotted = fx.crossOrigin.replace("://localhost", "://localhost.") + "/basic.html";
    const nav = await mcp.call("navigate", { url: dotted, snapshot: "none" });
    assertEquals(nav.isError, true, JSON.stringify(nav.structuredContent));
    assertEquals(
      (nav.structuredContent?.error as { code?: string } | undefined)?.code,
      "blocked-by-policy",
    );
    await mcp.ok("navigate", { url: page, snapshot: "none" });
    assertEquals(fx.requests.some((q) => q.path.includes("via=fetch-own")), true);
    const snap = String((await mcp.ok("snapshot")).tree);
    assertIncludes(snap, "blocked origin (--blocked-origins)");
    assertNotIncludes(snap, "not on the allowlist");
    // Nothing of the page reached the blocked origin: not the fetch, the image or the frame.
    assertEquals(fx.requests.filter((q) => q.server === "cross"), []);
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("--blocked-origins: an IPv4 address is not reached as its IPv4-mapped IPv6 literal", async () => {
  // The attack (red team): with 127.0.0.2 blocked, http://[::ffff:127.0.0.2]:PORT/ reached it
  // (navigate, a redirect, fetch, img). The server listens on every address, v4 and v6.
  const hits: string[] = [];
  const target = Deno.serve({ hostname: "::", port: 0, onListen() {} }, (req) => {
    hits.push(new URL(req.url).pathname);
    return new Response("<title>metadata</title><p>secret", {
      headers: { "content-type": "text/html" },
    });
  });
  const mapped = `http://[::ffff:127.0.0.2]:${target.addr.port}`;
  const page = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () =>
    new Response(
      `<title>page</title><p id=out>pending</p><script>fetch(${
        JSON.stringify(mapped + "/fetch")
      }).then(() => out.textContent = "ok", () => out.textContent = "failed");</script>`,
      { headers: { "content-type": "text/html" } },
    ));
  const mcp = await startStdio({
    args: ["--blocked-origins", `127.0.0.2:${target.addr.port}`],
    env: { BROWX_CAPABILITIES: "read,navigation,action,eval" },
  });
  try {
    const nav = await mcp.call("navigate", { url: `${mapped}/nav`, snapshot: "none" });
    assertEquals(
      (nav.structuredContent?.error as { code?: string } | undefined)?.code,
      "blocked-by-policy",
      JSON.stringify(nav.structuredContent),
    );
    await mcp.ok("navigate", { url: `http://127.0.0.1:${page.addr.port}/`, snapshot: "none" });
    const out = await eventually(async () => {
      const v = String(
        (await mcp.ok("eval_js", { expression: `document.getElementById("out").textContent` }))
          .value,
      );
      return v === "pending" ? undefined : v;
    });
    assertEquals(out, "failed");
    assertEquals(hits, []);
  } finally {
    await mcp.close();
    await page.shutdown();
    await target.shutdown();
  }
});
