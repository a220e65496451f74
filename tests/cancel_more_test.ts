/**
 * A client's cancel ends the call at once and leaves the session usable, more cases: an
 * `eval_js` of an endless loop, a `click` on a selector that never appears, a `click` that
 * starts a navigation that never answers, a `click` in a tab stuck in a script, `tab_visibility`'s
 * hold and a cancelled `type`. A call over its budget answers `timeout`, and the session serves
 * the next.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { eventually } from "./_util.ts";
import { auditLog, callAndCancel, cancelledOutcome, outcomeAfter, startSite } from "./_cancel.ts";

Deno.test("cancel: eval_js of an endless loop, clicks that cannot finish, tab_visibility's hold; a call over its budget", async (t) => {
  const site = startSite();
  const mcp = await startStdio({
    env: {
      BROWX_TOOLSETS: "core,debug,emulation",
      BROWX_CAPABILITIES: "read,navigation,action,eval",
    },
  });
  try {
    await mcp.ok("navigate", { url: site.url("/button") });
    /** Makes the active tab's main thread spin until `site.state.released`. */
    const spin = async () => {
      site.state.released = false;
      const asked = site.hits.length;
      await mcp.ok("eval_js", {
        expression: `setTimeout(() => {
          let asked = 0;
          while (true) {
            if (Date.now() - asked < 100) continue;
            asked = Date.now();
            const x = new XMLHttpRequest();
            x.open("GET", "/release", false);
            x.send();
            if (x.responseText === "go") break;
          }
        }, 0), true`,
      });
      await eventually(
        () => site.hits.slice(asked).includes("/release"),
        10_000,
        "the page to spin",
      );
    };

    await t.step("eval_js of a script in an endless loop", async () => {
      const before = await callAndCancel(mcp, "eval_js", {
        // Tells the test it runs, then never ends.
        expression:
          `(() => { const x = new XMLHttpRequest(); x.open("GET", "/looping", false); x.send(); while (true) {} })()`,
        timeoutMs: 30_000,
      }, () => eventually(() => site.hits.includes("/looping"), 10_000, "the script to run"));
      await cancelledOutcome(mcp, "eval_js", before);
      // The loop was stopped: the page's main thread answers again, well inside the 30 s
      // after which Chromium would stop the script itself.
      const r = await mcp.call("eval_js", { expression: "1+1", timeoutMs: 5000 });
      assertEquals(r.isError, undefined, textOf(r));
      assertEquals(r.structuredContent?.value, 2);
      const snap = await mcp.call("snapshot", {});
      assertEquals(snap.isError, undefined, textOf(snap));
    });

    await t.step("click on a selector that never appears", async () => {
      // A page still loading (a request in flight): the selector is waited for (an idle page
      // fails it at once, before the cancel could come).
      await mcp.ok("eval_js", {
        expression: `window.pending = new AbortController();
          fetch("/never", { signal: window.pending.signal }).catch(() => {}), true`,
      });
      const starts = (await auditLog(mcp.workspace)).starts.length;
      const before = await callAndCancel(
        mcp,
        "click",
        { selector: "#never-there", timeoutMs: 30_000 },
        () =>
          eventually(
            async () =>
              (await auditLog(mcp.workspace)).starts.slice(starts).some((s) => s.tool === "click"),
            10_000,
            "click to start",
          ),
      );
      await cancelledOutcome(mcp, "click", before);
      // The session's turn is free: this click runs now, not after the abandoned one's 30 s
      // (its own budget, 10 + 5 s, would run out first).
      const r = await mcp.call("click", { selector: "#stay", timeoutMs: 10_000 });
      assertEquals(r.isError, undefined, textOf(r));
      assertIncludes(textOf(r), "Stayed");
      await mcp.ok("eval_js", { expression: "window.pending.abort(), true" });
    });

    await t.step("click starting a navigation that never answers", async () => {
      const before = await callAndCancel(
        mcp,
        "click",
        { selector: "#go", timeoutMs: 30_000 },
        () => eventually(() => site.held.length > 0, 10_000, "the navigation to reach the server"),
      );
      await cancelledOutcome(mcp, "click", before);
      const snap = await mcp.call("snapshot", {});
      assertEquals(snap.isError, undefined, textOf(snap));
      const r = await mcp.call("navigate", { url: site.url("/button?after"), timeoutMs: 10_000 });
      assertEquals(r.isError, undefined, textOf(r));
    });

    await t.step(
      "a call over its budget answers timeout; the session serves the next",
      async () => {
        // The page's main thread spins until the test releases it (after the timeout).
        await spin();
        // Waits keep their own timeoutMs though the page never answers a check: `timeout`,
        // the page is not responding (not the element missing, not the call's whole budget).
        try {
          for (
            const [tool, args] of [
              ["wait_for", { text: "text that never comes", timeoutMs: 1000 }],
              ["click", { selector: "#stay", timeoutMs: 1000 }],
            ] as const
          ) {
            const before = (await auditLog(mcp.workspace)).entries.length;
            const r = await mcp.call(tool, args);
            assertEquals(r.isError, true, textOf(r));
            assertIncludes(textOf(r), "did not answer within");
            const entry = await outcomeAfter(mcp, tool, before);
            assertEquals(entry.error, "timeout", JSON.stringify(entry));
          }
        } finally {
          // Released even when an assertion failed: later steps need a page that answers.
          site.state.released = true;
        }
        const snap = await mcp.call("snapshot", {});
        assertEquals(snap.isError, undefined, textOf(snap));
        assertIncludes(textOf(snap), "Ready");
      },
    );

    await t.step("tab_visibility's hold: the tab comes back at once", async () => {
      const starts = (await auditLog(mcp.workspace)).starts.length;
      const before = await callAndCancel(
        mcp,
        "tab_visibility",
        { state: "background", holdMs: 20_000 },
        () =>
          eventually(
            async () =>
              (await auditLog(mcp.workspace)).starts.slice(starts).some((s) =>
                s.tool === "tab_visibility"
              ) && (await mcp.ok("eval_js", { expression: "document.visibilityState" })).value ===
                "hidden",
            10_000,
            "the tab to be hidden",
          ),
      );
      await cancelledOutcome(mcp, "tab_visibility", before);
      // Well before the 20 s hold would end.
      await eventually(
        async () =>
          (await mcp.ok("eval_js", { expression: "document.visibilityState" })).value ===
            "visible",
        10_000,
        "the tab to be visible again",
      );
    });

    await t.step(
      "click in a tab stuck in a script: the session's turn is free at once",
      async () => {
        await spin();
        const starts = (await auditLog(mcp.workspace)).starts.length;
        const before = await callAndCancel(
          mcp,
          "click",
          { selector: "#stay", timeoutMs: 30_000 },
          () =>
            eventually(
              async () =>
                (await auditLog(mcp.workspace)).starts.slice(starts).some((s) =>
                  s.tool === "click"
                ),
              10_000,
              "click to start",
            ),
        );
        await cancelledOutcome(mcp, "click", before);
        // Another tab, another site (its own renderer): an action there needs the session's
        // turn, which the abandoned click, waiting on the stuck page, must not keep (CDP's own
        // 30 s would outlast this call's budget of 10 + 5 s).
        await mcp.ok("tabs", { action: "new" });
        const other = site.url("/button?other").replace("127.0.0.1", "localhost");
        const r = await mcp.call("navigate", { url: other, timeoutMs: 10_000 });
        assertEquals(r.isError, undefined, textOf(r));
        site.state.released = true;
      },
    );
  } finally {
    await mcp.close();
    await site.close();
  }
});

Deno.test("cancel: a cancelled type sends no more keys, not even the rest of its chunk", async () => {
  // A field whose 5th keydown blocks the page (a synchronous request the test holds) until the
  // test has cancelled the call: the typing then has 195 characters left, 35 of them in the
  // chunk under way (type checks its deadline every 40 characters).
  const held: Array<() => void> = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const headers = { "cache-control": "no-store", "content-type": "text/html" };
    if (new URL(req.url).pathname === "/hold") {
      return new Promise<Response>((resolve) => held.push(() => resolve(new Response("go"))));
    }
    return new Response(
      `<!doctype html><title>Keys</title><input id="f">
      <script>
        window.keys = 0;
        document.getElementById("f").addEventListener("keydown", () => {
          if (++window.keys !== 5) return;
          const x = new XMLHttpRequest();
          x.open("GET", "/hold", false);
          x.send();
        });
      </script>`,
      { headers },
    );
  });
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  try {
    await mcp.ok("navigate", { url: `http://127.0.0.1:${server.addr.port}/`, snapshot: "none" });
    await mcp.ok("click", { selector: "#f", snapshot: "none" });
    const before = await callAndCancel(
      mcp,
      "type",
      { text: "a".repeat(200), snapshot: "none", timeoutMs: 30_000 },
      () => eventually(() => held.length > 0, 15_000, "the 5th key to reach the page"),
    );
    // The call answered "cancelled" while the 5th key was still in the page's hands.
    await cancelledOutcome(mcp, "type", before);
    for (const release of held) release();
    // An action waits for the session's turn, so for the abandoned typing to end.
    await mcp.ok("hover", { coords: { x: 5, y: 5 }, snapshot: "none" });
    const r = await mcp.ok("eval_js", { expression: "[window.keys, f.value.length]" });
    assertEquals(r.value, [5, 5], "keys the page received");
  } finally {
    await mcp.close();
    for (const release of held) release();
    await server.shutdown();
  }
});
