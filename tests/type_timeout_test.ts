/**
 * `type` cut short by its time on a page slow to take keys (each input handler runs 300 ms)
 * says how many characters it typed, and the page got at least that many (a red team's case:
 * the timeout error said nothing of what was typed).
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { errorOf } from "./_results.ts";

Deno.test("type out of time on a slow page: the error says how much was typed", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  try {
    await mcp.ok("navigate", { url: fx.url("slow-keys.html"), snapshot: "none" });
    await mcp.ok("click", { selector: "#q", snapshot: "none" });
    const text = "abcdefghijklmnopqrstuvwxyz0123";
    const r = await mcp.call("type", { text, timeoutMs: 2000, snapshot: "none" });
    assertEquals(errorOf(r).code, "timeout", textOf(r));
    const m = /Typed (\d+) of 30 characters before the timeout/.exec(textOf(r));
    assertTrue(m !== null, textOf(r));
    const typed = Number(m![1]);
    assertTrue(typed > 0 && typed < 30, textOf(r));
    assertIncludes(textOf(r), "a script was still running");
    // The page took at least what the error counts (a key in flight may land after).
    const value = (await mcp.ok("eval_js", {
      expression: "document.getElementById('q').value",
    })).value as string;
    assertTrue(value.length >= typed && text.startsWith(value), `${value} / ${typed}`);
  } finally {
    await mcp.close();
    await fx.close();
  }
});
