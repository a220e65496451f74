/**
 * The small things a new user tripped on (issue 17, "README and errors"): `byType` counts a
 * `fetch()` as `fetch` (the request's own type), not folded into `xhr`; `go_back` to
 * `about:blank` reports no HTTP status (none was fetched); a browser that fails to start
 * answers `browser-unavailable` with its exit code and what it printed; a loopback URL typed
 * without its scheme (`localhost:3000`, which parses as scheme "localhost:") suggests
 * `http://`, never `https://`, and is not navigated to.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { act, errorOf } from "./_results.ts";
import { startFixtureServer } from "./fixtures/server.ts";

Deno.test("README and errors: byType by request type, go_back to about:blank, scheme-less loopback", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "all" } });
  try {
    await t.step("byType: a fetch counts as fetch, an XHR as xhr", async () => {
      await mcp.ok("navigate", { url: fx.url("late-effects.html"), snapshot: "none" });
      const f = await act(mcp, "click", { selector: "#fetch", snapshot: "none" });
      assertEquals(f.network.summary.byType, { fetch: 1 }, JSON.stringify(f.network));
      assertEquals(f.network.requests.map((r) => r.type), ["Fetch"]);
      const x = await act(mcp, "click", { selector: "#xhr", snapshot: "none" });
      assertEquals(x.network.summary.byType, { xhr: 1 }, JSON.stringify(x.network));
      assertEquals(x.network.requests.map((r) => r.type), ["XHR"]);
      // A failed fetch is a fetch too, and counted failed.
      const ff = await act(mcp, "click", { selector: "#failfetch", snapshot: "none" });
      assertEquals(ff.network.summary, { total: 1, byType: { fetch: 1 }, failed: 1 });
    });

    await t.step("go_back to about:blank: no HTTP status; forward: the page's again", async () => {
      await mcp.ok("open_session", { session: "history" });
      const there = await act(mcp, "navigate", { url: fx.url("basic.html"), session: "history" });
      assertEquals(there.httpStatus, 200);
      const back = await act(mcp, "go_back", { session: "history" });
      assertEquals([back.moved, back.url], [true, "about:blank"]);
      assertEquals("httpStatus" in back, false, JSON.stringify(back));
      assertEquals("contentType" in back, false, JSON.stringify(back));
      const fwd = await act(mcp, "go_forward", { session: "history", snapshot: "none" });
      assertEquals([fwd.url, fwd.httpStatus], [fx.url("basic.html"), 200]);
      // Back again (the page maybe in the back/forward cache): still none, not the page's 200.
      const again = await act(mcp, "go_back", { session: "history", snapshot: "none" });
      assertEquals([again.url, again.httpStatus], ["about:blank", undefined]);
    });

    await t.step("a loopback URL without a scheme: http:// suggested, nothing loaded", async () => {
      const before = fx.requests.length;
      for (const url of ["localhost:3000", "127.0.0.1:8080/x", "localhost:3000/app?x=1"]) {
        for (
          const [tool, args] of [
            ["navigate", { url }],
            ["open_session", { session: `s${before}`, url }],
          ] as const
        ) {
          const e = errorOf(await mcp.call(tool, args));
          assertEquals(e.code, "invalid-argument", `${tool} ${url}: ${e.message}`);
          assertIncludes(e.message, `did you mean "http://${url}"?`);
          assertIncludes(e.hint, `http://${url}`);
        }
      }
      assertEquals(fx.requests.length, before);
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("README and errors: a browser that fails to start answers with its exit output", async () => {
  const dir = await Deno.makeTempDir({ prefix: "browxai-badbrowser-" });
  const script = `${dir}/chromium`;
  await Deno.writeTextFile(
    script,
    '#!/bin/sh\necho "starting the fake browser"\necho "fatal: no GPU process could be started" >&2\nexit 1\n',
  );
  await Deno.chmod(script, 0o755);
  const mcp = await startStdio({ env: { BROWX_BROWSER: script } });
  try {
    const r = await mcp.call("navigate", { url: "about:blank", snapshot: "none" });
    const e = errorOf(r);
    assertEquals(e.code, "browser-unavailable", e.message);
    assertIncludes(e.message, `Cannot start Chromium "${script}": it exited with code 1`);
    assertIncludes(e.message, "fatal: no GPU process could be started");
    assertIncludes(e.hint, "--browser");
    // The text an agent reads says it too, with the next step.
    assertIncludes(textOf(r), "exited with code 1");
    assertIncludes(textOf(r), "Next: ");
  } finally {
    await mcp.close();
    await Deno.remove(dir, { recursive: true });
  }
});
