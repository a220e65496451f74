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

    // A heading is no label: still "not a text field", with what it is, the article going with
    // its role (was "a link a "Active"", "a heading h1 …").
    const notText: Array<[string, string]> = [
      ["h1", 'a heading "Form" (<h1>) is not a text field'],
      ["#submit", 'a button "Sign up" (<button#submit>) is not a text field'],
      ["#agree", 'a checkbox "I agree" (<input#agree>) is not a text field'],
    ];
    for (const [selector, says] of notText) {
      const r = await mcp.call("fill", { selector, value: "x", timeoutMs: 1000 });
      assertEquals(r.isError, true);
      assertIncludes(textOf(r), `The element cannot be filled: ${says}`);
    }
    await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    for (
      const [selector, says] of [
        ["#about-link", 'a link "About us" (<a#about-link>)'],
        ["#logo", 'an img "Company logo" (<img#logo>)'],
      ]
    ) {
      const r = await mcp.call("fill", { selector, value: "x", timeoutMs: 1000 });
      assertIncludes(textOf(r), `The element cannot be filled: ${says} is not a text field`);
    }
  } finally {
    await mcp.close();
    await fx.close();
  }
});
