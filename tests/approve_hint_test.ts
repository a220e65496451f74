/**
 * A confirm-hook refusal names `approve_actions` as the way through when the `self-approval`
 * capability is on (NU finding 10: it listed every way but the one that worked, and an agent
 * gave up). Without the capability it does not tell the agent to call a tool it lacks; a
 * human's no is never met with "approve it yourself" (confirm_gate_test.ts).
 */
import { servePages } from "./_util.ts";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";

type R = Record<string, unknown>;

const LOGIN = `<!doctype html><title>Sign in</title>
<form action="/welcome.html" method="get"><label>Email <input name="email"></label>
<button type="submit">Sign in</button></form>`;
const WELCOME = `<!doctype html><title>Welcome</title><h1>Welcome</h1>`;

Deno.test("confirm refusal: approve_actions is named when self-approval is on", async (t) => {
  const site = servePages({ "/login.html": LOGIN, "/welcome.html": WELCOME });
  const env = { BROWX_CONFIRM_REQUIRED: "submit", BROWX_TOOLSETS: "core,policy" };
  const self = await startStdio({
    env: { ...env, BROWX_CAPABILITIES: "read,navigation,action,self-approval" },
  });
  const plain = await startStdio({ env: { ...env, BROWX_CAPABILITIES: "read,navigation,action" } });
  const url = `${site.base}/login.html`;
  const send = (mcp: typeof self) => mcp.call("click", { selector: "text=Sign in", submits: true });
  try {
    await t.step(
      "self-approval on: the hint says to call approve_actions, which works",
      async () => {
        await self.ok("navigate", { url, snapshot: "none" });
        const r = await send(self);
        assertEquals(r.isError, true, textOf(r));
        const hint = String((r.structuredContent!.error as R).hint);
        assertIncludes(hint, 'self-approval is on: call approve_actions({ scopes: ["submit"] })');
        await self.ok("approve_actions", { scopes: ["submit"] });
        const again = await send(self);
        assertEquals(again.isError, undefined, textOf(again));
        assertIncludes(textOf(await self.call("snapshot")), "Welcome");
      },
    );

    await t.step("self-approval off: the agent is not told to call it", async () => {
      await plain.ok("navigate", { url, snapshot: "none" });
      const r = await send(plain);
      assertEquals(r.isError, true, textOf(r));
      const hint = String((r.structuredContent!.error as R).hint);
      assertTrue(!hint.includes("self-approval is on"), hint);
    });

    await t.step("bad input: approve_actions with an unknown scope is refused", async () => {
      const r = await self.call("approve_actions", { scopes: ["everything"] });
      assertEquals(r.isError, true);
      assertIncludes(textOf(r), "Cannot pre-approve");
    });
  } finally {
    await self.close();
    await plain.close();
    await site.close();
  }
});
