/**
 * `BROWX_CAPABILITIES=all` stays usable (issue 17): without a human channel it leaves out
 * `human` (a gate nobody could open would refuse every navigation) and says why, at start and
 * in get_config; an explicit `human` without a channel stays on, and the start warning,
 * get_config and the refusal all say what is wrong and what to do.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startHttp, startStdio, textOf } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";

Deno.test("capabilities: all without a human channel leaves the human gate off and says why", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "all", BROWX_TOOLSETS: "all" } });
  try {
    assertIncludes(mcp.stderr(), 'BROWX_CAPABILITIES=all leaves out "human"');
    const nav = await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    assertEquals(nav.httpStatus, 200);
    const c = await mcp.ok("get_config");
    const caps = c.capabilities as string[];
    assertTrue(!caps.includes("human") && caps.includes("eval"), caps.join(","));
    const gate = c.humanGate as Record<string, unknown>;
    assertEquals([gate.on, gate.channelsNow], [false, []]);
    assertIncludes(gate.why as string, "nobody could approve");
    assertEquals(c.warnings, undefined);
    // What the gate's absence hides is said too, and not listed.
    assertEquals((c.notListed as Record<string, string[]>).human?.includes("takeover"), true);
    const names = (await mcp.client.listTools()).tools.map((t) => t.name);
    assertTrue(!names.includes("takeover") && names.includes("eval_js"), names.join(","));
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("capabilities: an explicit human without a channel warns, and the refusal says what to do", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({
    env: { BROWX_CAPABILITIES: "read,navigation,action,human", BROWX_TOOLSETS: "core,policy" },
  });
  try {
    assertIncludes(mcp.stderr(), '"human" is on but no human channel is configured');
    assertIncludes(mcp.stderr(), "every navigation to a new site");
    const c = await mcp.ok("get_config");
    assertEquals((c.humanGate as Record<string, unknown>).on, true);
    const warnings = c.warnings as string[];
    assertEquals(warnings.length, 1);
    assertIncludes(
      warnings[0]!,
      "every navigation to a new site and every confirm hook is refused",
    );
    const r = await mcp.call("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    assertEquals(r.isError, true);
    const error = r.structuredContent!.error as { code: string; hint: string };
    assertEquals(error.code, "blocked-by-policy");
    assertIncludes(error.hint, "elicitation");
    assertIncludes(error.hint, "drops `human` from BROWX_CAPABILITIES");
    assertIncludes(textOf(r), "no human channel");
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("capabilities: all over --http keeps the gate (the web console can answer)", async () => {
  const server = await startHttp({ env: { BROWX_CAPABILITIES: "all", BROWX_TOOLSETS: "all" } });
  try {
    const client = await server.connect();
    const c = await client.ok("get_config");
    const gate = c.humanGate as Record<string, unknown>;
    assertEquals([gate.on, gate.channels], [true, ["console"]]);
    assertTrue((c.capabilities as string[]).includes("human"));
    // Nobody has the console open yet: get_config says so.
    assertIncludes((c.warnings as string[])[0]!, "no human channel can answer now");
    const names = (await client.client.listTools()).tools.map((t) => t.name);
    assertTrue(names.includes("takeover") && names.includes("eval_js"), names.join(","));
  } finally {
    await server.close();
  }
});
