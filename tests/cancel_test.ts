/**
 * A client's cancel (`notifications/cancelled`) ends the call at once and leaves the session
 * usable: a long `wait_for`, a `navigate` to a URL that never answers, a `batch`. The audit's
 * outcome line (written when the pipeline answers) says `cancelled`. More cases are in
 * cancel_more_test.ts.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { eventually } from "./_util.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { auditLog, callAndCancel, cancelledOutcome } from "./_cancel.ts";

function errorCode(r: { structuredContent?: Record<string, unknown> }): string | undefined {
  return (r.structuredContent?.error as { code?: string } | undefined)?.code;
}

Deno.test("cancel: wait_for, navigate to a URL that never answers, and batch end at once; the session stays usable", async (t) => {
  const fixture = await startFixtureServer();
  // A server that takes requests and never answers them (until the test ends).
  const held: Array<() => void> = [];
  const hang = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Promise<Response>((resolve) => held.push(() => resolve(new Response("late")))),
  );
  const hangUrl = `http://127.0.0.1:${hang.addr.port}/never`;
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,sessions,debug,power" } });
  try {
    await mcp.ok("navigate", { url: fixture.url("basic.html") });

    await t.step("wait_for", async () => {
      const starts = (await auditLog(mcp.workspace)).starts.length;
      const before = await callAndCancel(
        mcp,
        "wait_for",
        { text: "text that never comes", timeoutMs: 30_000 },
        () =>
          eventually(
            async () =>
              (await auditLog(mcp.workspace)).starts.slice(starts).some((s) =>
                s.tool === "wait_for"
              ),
            10_000,
            "wait_for to start",
          ),
      );
      const entry = await cancelledOutcome(mcp, "wait_for", before);
      assertEquals(entry?.ok, false);
      // The session answers the next call.
      const r = await mcp.call("snapshot", {});
      assertEquals(r.isError, undefined, textOf(r));
    });

    await t.step("navigate to a URL that never answers", async () => {
      const before = await callAndCancel(
        mcp,
        "navigate",
        { url: hangUrl, timeoutMs: 30_000 },
        () => eventually(() => held.length > 0, 10_000, "the request to reach the server"),
      );
      await cancelledOutcome(mcp, "navigate", before);
      // The session is free: the next navigate runs now, not after the abandoned one's 30 s.
      const r = await mcp.call("navigate", {
        url: fixture.url("basic.html?after-cancel"),
        timeoutMs: 10_000,
      });
      assertEquals(r.isError, undefined, textOf(r));
      assertIncludes(String(r.structuredContent?.url ?? textOf(r)), "after-cancel");
    });

    await t.step(
      "a navigate whose server never answers times out, and the tab is free",
      async () => {
        const r = await mcp.call("navigate", { url: hangUrl, timeoutMs: 1500 });
        assertEquals(r.structuredContent?.error && errorCode(r), "navigation-failed", textOf(r));
        assertIncludes(textOf(r), "no response within");
        // The tab stopped loading: a read answers now, not after its own 30 s budget.
        const snap = await mcp.call("snapshot", {});
        assertEquals(snap.isError, undefined, textOf(snap));
        const next = await mcp.call("navigate", { url: fixture.url("basic.html?after-timeout") });
        assertEquals(next.isError, undefined, textOf(next));
      },
    );

    await t.step("a call cancelled while it waits for the session's turn never acts", async () => {
      await mcp.ok("navigate", { url: fixture.url("turns.html") });
      fixture.requests.length = 0;
      const clickStarts = async () =>
        (await auditLog(mcp.workspace)).starts.filter((s) => s.tool === "click").length;
      const before = await clickStarts();
      // Holds the session's turn: its target never stops moving.
      const slow = mcp.call("click", { selector: "#moving", timeoutMs: 3000 });
      await eventually(async () => await clickStarts() >= before + 1, 10_000, "the slow click");
      const ac = new AbortController();
      const queued = mcp.client.callTool(
        {
          name: "click",
          // By coords: no target lookup that could notice the cancel first.
          arguments: { coords: { x: 100, y: 330 } },
        },
        undefined,
        { signal: ac.signal },
      ).then(() => false, () => true);
      // Its handler started: it waits for the session's turn behind the slow click.
      await eventually(async () => await clickStarts() >= before + 2, 10_000, "the queued click");
      ac.abort("changed mind");
      assertTrue(await queued, "the client's call rejects on cancel");
      await slow;
      // The next action runs after the slot the cancelled click had: had it acted, it came first.
      await mcp.ok("click", { selector: "#next" });
      await fixture.waitForRequest((q) => q.path.includes("clicked=next"));
      assertEquals(fixture.requests.filter((q) => q.path.includes("clicked=late")), []);
    });

    await t.step("batch", async () => {
      fixture.requests.length = 0;
      const starts = (await auditLog(mcp.workspace)).starts.length;
      const before = await callAndCancel(mcp, "batch", {
        calls: [
          { tool: "wait_for", args: { text: "text that never comes", timeoutMs: 30_000 } },
          { tool: "navigate", args: { url: fixture.url("basic.html?after-batch") } },
        ],
      }, () =>
        eventually(
          async () =>
            (await auditLog(mcp.workspace)).starts.slice(starts).some((s) => s.tool === "wait_for"),
          10_000,
          "the batch's wait_for to start",
        ));
      await cancelledOutcome(mcp, "batch", before);
      // The inner wait_for was cancelled with it, and the batch went no further.
      await cancelledOutcome(mcp, "wait_for", before);
      const r = await mcp.call("navigate", {
        url: fixture.url("basic.html?next"),
        timeoutMs: 10_000,
      });
      assertEquals(r.isError, undefined, textOf(r));
      assertEquals(fixture.requests.filter((q) => q.path.includes("after-batch")), []);
    });
  } finally {
    await mcp.close();
    for (const release of held) release();
    await hang.shutdown();
    await fixture.close();
  }
});
