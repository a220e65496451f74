/**
 * `fill` and `select` aimed at a label (a `text=` selector for the name the snapshot shows)
 * act on the control it labels, and say so; a label that labels nothing is still refused.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { act } from "./_results.ts";
import { startFixtureServer } from "./fixtures/server.ts";

Deno.test("fill and select on a label act on its control", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const value = async (id: string) =>
    (await mcp.ok("eval_js", {
      expression: `document.getElementById(${JSON.stringify(id)}).value`,
    }))
      .value;
  try {
    await mcp.ok("navigate", { url: fx.url("form.html"), snapshot: "none" });
    const filled = await act(mcp, "fill", { selector: "text=Email", value: "ada@example.com" });
    assertEquals(filled.ok, true);
    assertIncludes(filled.warnings.join("\n"), "acted on the control it labels");
    assertEquals(await value("email"), "ada@example.com");

    const plan = await act(mcp, "select", { selector: "text=Plan", index: 1 });
    assertEquals(plan.ok, true);
    assertIncludes(plan.warnings.join("\n"), "acted on the control it labels");
    assertEquals(await value("plan"), "pro");

    // A heading is no label: still "not a text field", with what it is.
    const r = await mcp.call("fill", { selector: "h1", value: "x", timeoutMs: 1000 });
    assertEquals(r.isError, true);
    assertIncludes(textOf(r), "not a text field");
  } finally {
    await mcp.close();
    await fx.close();
  }
});
