/**
 * `tools/list` shows the tools the configuration lets the agent call: a tool
 * whose capability is off (`eval_js` without `eval`, `download_get` without
 * `file-io`, `approve_actions` without `self-approval`) is not listed, as a
 * policy tool is not under a read-only configuration. Called anyway, it is
 * refused with `requiredCapability` and does nothing.
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { startHttp, startStdio } from "./_mcp.ts";

Deno.test("tools/list: a tool whose capability is off is not listed; called, it names the capability", async (t) => {
  const off = await startStdio({ env: { BROWX_TOOLSETS: "all" } });
  const on = await startStdio({
    env: { BROWX_TOOLSETS: "all", BROWX_CAPABILITIES: "read,navigation,action,eval,file-io" },
  });
  try {
    const gated = ["eval_js", "download_get", "approve_actions"];
    await t.step("default capabilities: the gated tools are not listed", async () => {
      const names = (await off.client.listTools()).tools.map((x) => x.name);
      for (const n of gated) assertTrue(!names.includes(n), `${n} is listed`);
      assertTrue(names.includes("snapshot") && names.includes("click"), names.join(","));
    });
    await t.step("called anyway: refused with the capability that enables it", async () => {
      const r = await off.call("eval_js", { expression: "1" });
      assertEquals(r.isError, true);
      assertEquals(r.structuredContent!.requiredCapability, "eval");
    });
    await t.step(
      "get_config names what the capabilities leave out, never a listed tool",
      async () => {
        const names = (await off.client.listTools()).tools.map((x) => x.name);
        const hidden = (await off.ok("get_config")).notListed as Record<string, string[]>;
        assertEquals(hidden.eval?.includes("eval_js"), true);
        assertEquals(hidden["self-approval"]?.includes("approve_actions"), true);
        for (const n of Object.values(hidden).flat()) assertTrue(!names.includes(n), n);
      },
    );
    await t.step("with the capability on: listed", async () => {
      const names = (await on.client.listTools()).tools.map((x) => x.name);
      assertTrue(names.includes("eval_js") && names.includes("download_get"), names.join(","));
      assertTrue(!names.includes("approve_actions"), "self-approval is still off");
    });
  } finally {
    await off.close();
    await on.close();
  }
});

Deno.test("tools/list over --http: the same filter as stdio", async () => {
  const server = await startHttp({ env: { BROWX_TOOLSETS: "all" } });
  try {
    const client = await server.connect();
    const names = (await client.client.listTools()).tools.map((x) => x.name);
    for (const n of ["eval_js", "download_get", "approve_actions"]) {
      assertTrue(!names.includes(n), `${n} is listed`);
    }
    assertTrue(names.includes("snapshot"), names.join(","));
    const r = await client.call("eval_js", { expression: "1" });
    assertEquals(r.structuredContent!.requiredCapability, "eval");
  } finally {
    await server.close();
  }
});
