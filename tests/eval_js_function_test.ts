/**
 * `eval_js` given a function (`() => document.title`, the form @playwright/mcp's
 * browser_evaluate takes) calls it and returns its value with a `note`, over MCP stdio against
 * real Chromium and a page served here; a plain expression is unchanged.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";

Deno.test("eval_js: a function expression is called (arrow, async arrow); a plain expression is not", async (t) => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () =>
    new Response(
      `<!doctype html><title>Eval page</title><ul><li>a</li><li>b</li></ul>
<script>window.seen = 0;</script>`,
      { headers: { "content-type": "text/html" } },
    ));
  const mcp = await startStdio({
    env: { BROWX_TOOLSETS: "all", BROWX_CAPABILITIES: "read,navigation,action,eval" },
  });
  try {
    await mcp.ok("navigate", {
      url: `http://127.0.0.1:${server.addr.port}/`,
      snapshot: "none",
    });

    await t.step("an arrow function is called with no arguments", async () => {
      const s = await mcp.ok("eval_js", { expression: "() => document.title" });
      assertEquals(s.value, "Eval page");
      assertIncludes(String(s.note), "function");
      // Objects come back as JSON, as before.
      const o = await mcp.ok("eval_js", {
        expression:
          "() => ({ items: [...document.querySelectorAll('li')].map((l) => l.textContent) })",
      });
      assertEquals(o.value, { items: ["a", "b"] });
    });

    await t.step("an async arrow function is called and awaited", async () => {
      const s = await mcp.ok("eval_js", {
        expression:
          "async () => { await new Promise((r) => setTimeout(r, 10)); return ++window.seen; }",
      });
      assertEquals(s.value, 1);
      assertIncludes(String(s.note), "function");
    });

    await t.step("a throwing function is an eval-error", async () => {
      const r = await mcp.call("eval_js", { expression: "() => { throw new Error('boom'); }" });
      assertEquals(r.isError, true);
      assertEquals((r.structuredContent?.error as Record<string, unknown>).code, "eval-error");
    });

    await t.step("plain expressions are unchanged, without a note", async () => {
      for (
        const [expression, value] of [
          ["document.title", "Eval page"],
          ["window.seen + 1", 2],
          ["Promise.resolve([1, 2])", [1, 2]],
          ["({ a: { b: 'c' } })", { a: { b: "c" } }],
          ["let x = 40; x + 2", 42],
          ["undefined", null],
        ] as const
      ) {
        const s = await mcp.ok("eval_js", { expression });
        assertEquals(s.value, value, expression);
        assertEquals(s.note, undefined, expression);
      }
    });
  } finally {
    await mcp.close();
    await server.shutdown();
  }
});
