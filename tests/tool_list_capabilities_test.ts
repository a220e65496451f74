/**
 * `tools/list` shows the tools the configuration lets the agent call: a tool
 * whose capability is off (`eval_js` without `eval`, `download_get` without
 * `file-io`, `approve_actions` without `self-approval`) is not listed, as a
 * policy tool is not under a read-only configuration. Called anyway, it is
 * refused with `requiredCapability` and does nothing.
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";

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
