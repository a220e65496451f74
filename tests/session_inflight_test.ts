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
