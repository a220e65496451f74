/**
 * Attacks on the web console and the human-control features (issue 15, red team): each test
 * performs an attack against a real browxai (and real Chromium) and shows it fail.
 *
 * @module
 */
import { assertEquals, assertTrue as assert } from "./_assert.ts";
import { loginCookie, openSocket, upgradeStatus } from "./_console.ts";
import { startHttp } from "./_mcp.ts";
import { eventually, refOf } from "./_util.ts";
import { startFixtureServer } from "./fixtures/server.ts";

type R = Record<string, unknown>;

Deno.test("console attack: an MCP client's bearer token neither approves its own confirms nor opens another principal's console", async () => {
  const fx = await startFixtureServer();
  // Two principals (two tokens); the agent holds tokA. A submit needs a person's yes.
  const http = await startHttp({
    args: ["--host", "0.0.0.0"],
    env: { BROWX_HTTP_TOKEN: "tokA-agent,tokB-other", BROWX_CONFIRM_REQUIRED: "submit" },
  });
  try {
    const m = await eventually(
      () => /web console: http:\/\/0\.0\.0\.0(:\d+)\/console\?token=(\w+)/.exec(http.stderr()),
      10_000,
      "the console URL",
    );
    const base = `http://127.0.0.1${m[1]}`;
    const agent = await http.connect({ authorization: "Bearer tokA-agent" });
    await agent.call("navigate", { url: fx.url("form.html"), snapshot: "none" });
    const tree = String((await agent.call("snapshot", {})).structuredContent?.tree);
    const button = refOf(tree, "Sign up");

    // The agent (a script holding its own /mcp token, Origin forged as a non-browser can)
    // tries every console door: none opens.
    for (const token of ["tokA-agent", "tokB-other"]) {
      const auth = { authorization: `Bearer ${token}` };
      const state = await fetch(`${base}/console/api/state`, { headers: auth });
      assertEquals(state.status, 401, `state with ${token}`);
      await state.body?.cancel();
      const post = await fetch(`${base}/console/api/message`, {
        method: "POST",
        headers: { ...auth, origin: base, "content-type": "application/json" },
        body: JSON.stringify({ type: "approve", id: "q1", scope: "once" }),
      });
      assertEquals(post.status, 401, `POST with ${token}`);
      await post.body?.cancel();
      assertEquals((await upgradeStatus(base, { ...auth, origin: base })).status, 401);
    }

    // Had the socket opened, the agent would be the "person watching": the console channel
    // would be available and the agent could answer its own question. Without it the submit
    // is refused (nobody to ask) and the page has not moved.
    const r = await agent.call("click", { ref: button, submits: true });
    assertEquals(r.isError, true);
    assertEquals((r.structuredContent?.error as R).code, "blocked-by-policy");
    assertEquals((await agent.call("get_url", {})).structuredContent?.url, fx.url("form.html"));

    // The operator's printed URL still works (cookie), for a person or a script.
    const cookie = await loginCookie(`${base}/console?token=${m[2]}`);
    const s = await openSocket(base, { cookie, origin: base });
    try {
      const hello = await s.next((msg) => msg.type === "state");
      assert(Array.isArray((hello.state as R).sessions));
    } finally {
      s.close();
    }
  } finally {
    await http.close();
    await fx.close();
  }
});
