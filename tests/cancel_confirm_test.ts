/**
 * A call cancelled while a human is asked withdraws the question and lets go of the session
 * at once (red team: the session stayed held until the human answered or the confirm timed
 * out, 60 s by default).
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { eventually } from "./_util.ts";
import { startFixtureServer } from "./fixtures/server.ts";

Deno.test("cancel: a call cancelled during its confirm question lets go of the session", async () => {
  const fx = await startFixtureServer();
  let asked = 0;
  const mcp = await startStdio({
    env: {
      BROWX_CAPABILITIES: "read,navigation,action,human",
      BROWX_CONFIRM_REQUIRED: "navigate_off_allowlist",
      BROWX_ALLOWED_ORIGINS: "127.0.0.1",
      BROWX_CONFIRM_TIMEOUT_MS: "120000",
    },
    elicit(params) {
      // Each new site is approved; the question about leaving the allowlist is never answered.
      if (params.message.includes("site_visit")) {
        return { action: "accept", content: { approve: true } };
      }
      asked++;
      return new Promise(() => {});
    },
  });
  try {
    await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    const ac = new AbortController();
    const call = mcp.client.callTool(
      {
        name: "navigate",
        arguments: { url: fx.crossUrl("basic.html"), snapshot: "none" },
      },
      undefined,
      { signal: ac.signal, timeout: 300_000 },
    ).then(() => false, () => true);
    // Asked: the call holds the session from the question on.
    await eventually(() => asked === 1, 10_000, "the human to be asked");
    ac.abort("the agent changed its mind");
    assertTrue(await call, "the client's call rejects on cancel");
    // The session is free for the next navigate now, not after the 120 s the human had.
    const r = await mcp.call("navigate", { url: fx.url("form.html"), snapshot: "none" });
    assertEquals(r.isError, undefined, textOf(r));
    assertEquals(r.structuredContent?.url, fx.url("form.html"));
  } finally {
    await mcp.close();
    await fx.close();
  }
});
