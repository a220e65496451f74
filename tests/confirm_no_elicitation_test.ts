/**
 * `BROWX_CONFIRM_ELICITATION=0`: a hostile agent that runs its own MCP client declares
 * elicitation and answers every question `approve: true` (red team s17, INFO). With the switch
 * the client is never asked: hooks, site approvals and `release` go to the web console or the
 * DevTools console only, and with neither a hooked call is refused.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { servePages } from "./_util.ts";

/** A new site and leaving the allowlist both wait for a person's yes. */
const HOOKED = {
  BROWX_CAPABILITIES: "read,navigation,action,human",
  BROWX_CONFIRM_REQUIRED: "navigate_off_allowlist",
  BROWX_TOOLSETS: "core,policy",
};

/** The agent's client approves whatever it is asked; `asked` counts the questions. */
async function run(env: Record<string, string>) {
  const page = servePages({ "/": "<title>home</title><p>home" });
  const port = new URL(page.base).port;
  const asked: string[] = [];
  const mcp = await startStdio({
    env: { ...HOOKED, BROWX_ALLOWED_ORIGINS: `127.0.0.1:${port}`, ...env },
    elicit(params) {
      asked.push(params.message);
      return { action: "accept", content: { approve: true } };
    },
  });
  try {
    const home = await mcp.call("navigate", { url: `${page.base}/`, snapshot: "none" });
    const off = await mcp.call("navigate", { url: `http://localhost:${port}/`, snapshot: "none" });
    const config = await mcp.ok("get_config");
    return { home, off, asked, config };
  } finally {
    await mcp.close();
    await page.close();
  }
}

const code = (r: { structuredContent?: Record<string, unknown> }) =>
  (r.structuredContent?.error as { code?: string } | undefined)?.code;

Deno.test("BROWX_CONFIRM_ELICITATION=0: the agent's client cannot approve its own hooks", async () => {
  // The attack, as it runs by default: the client says yes to a new site and to leaving the list.
  const open = await run({});
  assertEquals(open.home.isError, undefined, textOf(open.home));
  assertEquals(open.off.isError, undefined, textOf(open.off));
  assertEquals(open.asked.length >= 2, true, JSON.stringify(open.asked));

  const shut = await run({ BROWX_CONFIRM_ELICITATION: "0" });
  assertEquals(shut.asked, [], "the client is never asked");
  assertEquals(code(shut.home), "blocked-by-policy", textOf(shut.home));
  assertEquals(code(shut.off), "blocked-by-policy", textOf(shut.off));
  assertIncludes(textOf(shut.off), "needs a human's yes");
  const gate = (shut.config as { humanGate?: { channelsNow?: string[]; warning?: string } })
    .humanGate;
  assertEquals(gate?.channelsNow, []);
});
