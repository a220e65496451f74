/**
 * Effects an action starts a moment after its input are the action's: the window stays open
 * while timers the action set are still to run (a handler that navigates, raises a dialog or
 * re-renders 100–300 ms later, chains of such timers, a short wait then a fetch; timers set
 * through a same-origin iframe's window too), and closes without waiting for a timer seconds
 * away or a background loop the page runs anyway.
 */
import { assertEquals, assertIncludes, assertNotIncludes } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { act } from "./_results.ts";
import { startFixtureServer } from "./fixtures/server.ts";

const shown = (r: unknown) => JSON.stringify(r);

Deno.test("late effects: what the action set to happen a moment later is in its result", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const open = () => mcp.ok("navigate", { url: fx.url("late-effects.html"), snapshot: "none" });
  try {
    await t.step("a navigation 200 ms after the click", async () => {
      await open();
      const r = await act(mcp, "click", { selector: "#nav" });
      assertEquals(r.ok, true);
      assertEquals(r.navigation?.changed, true);
      assertIncludes(r.navigation?.to ?? "", "/slow?ms=10");
    });

    await t.step("a refresh the click scheduled (a meta tag, 0.3 s)", async () => {
      await open();
      const r = await act(mcp, "click", { selector: "#meta", snapshot: "none" });
      assertEquals(r.navigation?.changed, true);
      assertIncludes(r.navigation?.to ?? "", "/slow?ms=5");
    });

    await t.step("a dialog 250 ms after the click", async () => {
      await open();
      const r = await act(mcp, "click", { selector: "#alert", snapshot: "none" });
      assertEquals(r.dialogs, [{ kind: "alert", message: "Saved late", handledAs: "accepted" }]);
    });

    await t.step("a chain of two timers, then a render", async () => {
      await open();
      const r = await act(mcp, "click", { selector: "#chain" });
      assertIncludes(shown(r.snapshotDelta), "Chained done");
    });

    await t.step("a short wait, then a fetch, then a render", async () => {
      await open();
      const r = await act(mcp, "click", { selector: "#fetch" });
      assertIncludes(shown(r.snapshotDelta), "Fetched 1");
    });

    await t.step(
      "a frame, then a fetch, then a render (no timer: the quiet after the input)",
      async () => {
        await open();
        const r = await act(mcp, "click", { selector: "#frame" });
        assertIncludes(shown(r.snapshotDelta), "Framed 1");
        assertIncludes(shown(r.network), "frame=1");
      },
    );

    await t.step("a debounce through a setTimeout the page kept from before", async () => {
      await open();
      const r = await act(mcp, "click", { selector: "#debounce" });
      assertIncludes(shown(r.snapshotDelta), "Debounced done");
    });

    await t.step("a timer an XHR's load handler sets is the request's", async () => {
      await open();
      const r = await act(mcp, "click", { selector: "#xhr" });
      assertIncludes(shown(r.snapshotDelta), "XHR rendered");
    });

    await t.step("a fetch that fails unhandled is still the page's uncaught error", async () => {
      await open();
      const r = await act(mcp, "click", { selector: "#failfetch", snapshot: "none" });
      assertIncludes(shown(r.pageErrors), "Failed to fetch");
    });

    // A red team's page: a timer set through a same-origin iframe's window escaped the window.
    await t.step("a navigation 200 ms later, through an iframe's setTimeout", async () => {
      await open();
      const r = await act(mcp, "click", { selector: "#iframe-nav", snapshot: "none" });
      assertEquals(r.navigation?.changed, true, shown(r));
      assertIncludes(r.navigation?.to ?? "", "/slow?ms=15");
    });

    await t.step("a dialog 250 ms later, through an iframe's setTimeout", async () => {
      await open();
      const r = await act(mcp, "click", { selector: "#iframe-alert", snapshot: "none" });
      assertEquals(r.dialogs, [{ kind: "alert", message: "Iframe late", handledAs: "accepted" }]);
    });

    await t.step(
      "an iframe's timer, then the page's, then a render; a cleared one is not",
      async () => {
        await open();
        const r = await act(mcp, "click", { selector: "#iframe-chain" });
        assertIncludes(shown(r.snapshotDelta), "Iframe chain done");
        assertNotIncludes(shown(r), "Iframe cleared fired");
      },
    );

    await t.step("a page that replaces globalThis cannot answer for the watch", async () => {
      await open();
      await mcp.ok("eval_js", {
        expression: `(() => {
          const k = Object.getOwnPropertyNames(window).find((n) => n.startsWith("__bx_"));
          const never = () => new Promise(() => {});
          window.globalThis = { [k]: { arm: never, pending: never, disarm: never } };
          return typeof k;
        })()`,
      });
      const r = await act(mcp, "click", { selector: "#chain" });
      assertIncludes(shown(r.snapshotDelta), "Chained done");
      assertEquals(r.timedOut, undefined);
    });

    await t.step(
      "the page's timers work as before: arguments, clearTimeout, native look",
      async () => {
        await open();
        const r = await act(mcp, "click", { selector: "#cleared" });
        assertIncludes(shown(r.snapshotDelta), "Args xy");
        assertNotIncludes(shown(r), "Cleared fired");
        const looks = await mcp.ok("eval_js", {
          expression: "[String(setTimeout), setTimeout.name, setTimeout.length, String(fetch)]",
        });
        assertEquals(looks.value, [
          "function setTimeout() { [native code] }",
          "setTimeout",
          1,
          "function fetch() { [native code] }",
        ]);
      },
    );

    await t.step(
      "a timer seconds away is not waited for; the loop never holds the window",
      async () => {
        await open();
        const r = await act(mcp, "click", { selector: "#far" });
        assertEquals(r.ok, true);
        assertNotIncludes(shown(r), "Far future", "the 4 s timer was waited for");
        assertNotIncludes(shown(r.warnings ?? []), "still loading");
      },
    );
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("late effects: what a page sets to happen right after its load is the navigation's", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio();
  try {
    await t.step("a render 150 ms after the load, and a fetch's render", async () => {
      const r = await act(mcp, "navigate", { url: fx.url("load-effects.html"), snapshot: "full" });
      assertEquals(r.ok, true);
      assertIncludes(shown(r.snapshotDelta), "Rendered after load");
      assertIncludes(shown(r.snapshotDelta), "Data arrived");
      assertNotIncludes(shown(r.snapshotDelta), "Slow banner", "a 3 s timer is the page's life");
      assertEquals(r.warnings ?? [], []);
    });

    await t.step("a redirect 200 ms after the load lands in the result", async () => {
      const r = await act(mcp, "navigate", {
        url: fx.url("load-effects.html?redirect=1"),
        snapshot: "none",
      });
      assertEquals(r.ok, true);
      assertIncludes(String(r.url), "/basic.html");
    });

    await t.step(
      "a dialog 120 ms after the load is in the result, and not news later",
      async () => {
        const r = await act(mcp, "navigate", {
          url: fx.url("load-effects.html?dialog=1"),
          snapshot: "none",
        });
        assertEquals(r.dialogs?.map((d) => d.message), ["Welcome late"]);
        const next = await act(mcp, "snapshot", {});
        assertEquals(next.sinceLastCall, undefined);
      },
    );

    await t.step(
      "a long-poll opened at load does not hold the result: settled, listening",
      async () => {
        const r = await act(mcp, "navigate", { url: fx.url("long-poll.html"), snapshot: "full" });
        assertEquals(r.ok, true);
        assertIncludes(shown(r.snapshotDelta), "Listening");
        assertEquals(r.warnings ?? [], [], "the long-poll is the page's life, not its load");
      },
    );

    await t.step(
      "the browser's own favicon fetch (answered 10 s later) is not the page's",
      async () => {
        const r = await act(mcp, "navigate", {
          url: fx.url("slow-favicon.html"),
          snapshot: "none",
        });
        const answered = Date.now();
        assertEquals(r.ok, true);
        assertEquals(r.warnings ?? [], []);
        // Chromium asks for it once the page stopped loading: a request still unanswered held the
        // window until 1 s after it (the recorder's PENDING_IDLE_MS), after the quiet it restarted.
        const icon = await fx.waitForRequest((q) => q.path.startsWith("/favicon.ico?ms="));
        const late = answered - icon.time;
        assertEquals(late < 900, true, `answered ${late} ms after the favicon request`);
      },
    );

    await t.step("open_session with a URL waits for the same", async () => {
      await mcp.ok("open_session", { session: "s2", url: fx.url("load-effects.html") });
      const s = await mcp.ok("snapshot", { session: "s2" });
      assertIncludes(shown(s), "Rendered after load");
      assertIncludes(shown(s), "Data arrived");
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
