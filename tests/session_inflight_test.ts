/**
 * Calls that land while an open of the same session is still under way: a
 * DELETE of the HTTP client (its persistent browser must not outlive it) and
 * an action on the name being opened (it waits instead of `unknown-session`).
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startHttp, startStdio, textOf } from "./_mcp.ts";
import { processesMentioning } from "./_procs.ts";
import { eventually, exists } from "./_util.ts";

Deno.test("in-flight open: a DELETE while a persistent open_session launches leaves no Chromium and no area", async () => {
  const http = await startHttp();
  try {
    const clients = `${http.workspace}/.clients`;
    for (let round = 0; round < 2; round++) {
      const c = await http.connect();
      const open = c.call("open_session", { session: "p", mode: "persistent" })
        .then(textOf, (e: Error) => e.message);
      // DELETE once its browser runs (the open is then still connecting), or at once (round 1).
      if (round === 0) {
        await eventually(
          () => processesMentioning(`${clients}/`).length > 0,
          30_000,
          "the persistent browser",
        );
      }
      await c.close();
      await open;
      await eventually(
        () => processesMentioning(`${clients}/`).length === 0,
        15_000,
        "no Chromium left on the client's profile",
      );
      const left: string[] = [];
      await eventually(
        async () => {
          left.length = 0;
          if (!exists(clients)) return true;
          for await (const e of Deno.readDir(clients)) left.push(e.name);
          return left.length === 0;
        },
        15_000,
        "the client's area removed",
      );
    }
    assertTrue(!/ENOTEMPTY/.test(http.stderr()), http.stderr());
  } finally {
    await http.close();
  }
});

Deno.test("in-flight open: an action sent right after open_session of its name waits for it", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio();
  try {
    // A seed read from a file: the open does I/O before launching, the action is at the turn.
    await Deno.writeTextFile(
      `${mcp.workspace}/state.json`,
      JSON.stringify({ cookies: [], origins: [] }),
    );
    for (const mode of ["incognito", "persistent"]) {
      const [opened, nav] = await Promise.all([
        mcp.call("open_session", { session: "r", mode, storageState: "state.json" }),
        mcp.call("navigate", { session: "r", url: fx.url("basic.html"), snapshot: "none" }),
      ]);
      assertTrue(!opened.isError, textOf(opened));
      assertTrue(!nav.isError, `${mode}: ${textOf(nav)}`);
      const listed = await mcp.ok("list_sessions");
      const r = (listed.sessions as Array<{ session: string; url: string }>)
        .find((s) => s.session === "r");
      assertEquals(r?.url, fx.url("basic.html"));
      await mcp.ok("close_session", { session: "r" });
    }
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("in-flight call: a DELETE of the HTTP client answers its running call at once", async () => {
  const fx = await startFixtureServer();
  const http = await startHttp();
  try {
    const c = await http.connect();
    await c.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    const transport = (c.client as unknown as { transport: { sessionId?: string } }).transport;
    const session = transport.sessionId!;
    // A wait that cannot end by itself for 30 s: without an answer from the server, only the
    // SDK's own request timeout (here 120 s) would end it.
    const waiting = c.client.callTool(
      { name: "wait_for", arguments: { text: "never on this page", timeoutMs: 30_000 } },
      undefined,
      { timeout: 120_000 },
    ).then((r) => `answered: ${JSON.stringify(r)}`, (e: Error) => e.message);
    const metrics = new URL("/metrics", http.url);
    await eventually(
      async () => /browxai_calls_in_flight 1\b/.test(await (await fetch(metrics)).text()),
      15_000,
      "the call to run",
    );
    const del = await fetch(http.url, { method: "DELETE", headers: { "mcp-session-id": session } });
    await del.body?.cancel();
    assertEquals(del.status, 200);
    const got = await waiting;
    assertTrue(/session ended/i.test(got), got);
    assertTrue(/DELETE/.test(got), got);
  } finally {
    await http.close();
    await fx.close();
  }
});
