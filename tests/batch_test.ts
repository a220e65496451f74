/**
 * `batch` runs its calls through the same gates as top-level calls: a
 * capability the server lacks, a confirm hook, the allowlist and the
 * navigation guard hold inside a batch exactly as outside.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio, type ToolResult } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";

const textOf = (r: ToolResult) => r.content.map((c) => c.text ?? "").join("\n");
type R = Record<string, unknown>;

Deno.test("batch: results in order, and no way around a gate", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({
    env: {
      BROWX_TOOLSETS: "core,sessions,debug,policy,power",
      BROWX_ALLOWED_ORIGINS: "127.0.0.1",
      BROWX_CONFIRM_REQUIRED: "submit",
    },
  });
  const guard = fx.url(`guard.html?cross=${encodeURIComponent(fx.crossOrigin)}`);
  const run = async (calls: R[], stopOnError?: boolean) => {
    const r = await mcp.call("batch", {
      calls,
      ...(stopOnError === undefined ? {} : { stopOnError }),
    });
    return { r, s: r.structuredContent! };
  };
  try {
    await t.step("calls run in order; labels come back", async () => {
      const { r, s } = await run([
        { tool: "navigate", args: { url: fx.url("basic.html"), snapshot: "none" } },
        { tool: "snapshot", label: "read" },
      ]);
      assertEquals(r.isError, undefined, textOf(r));
      assertEquals([s.completed, s.failedAt], [2, null]);
      const results = s.results as R[];
      assertEquals(results[1]!.label, "read");
      assertIncludes(String((results[1]!.result as R).tree), "# Basic page");
    });

    await t.step("a capability the server lacks is refused inside a batch", async () => {
      const { s } = await run([{ tool: "eval_js", args: { expression: "1" } }]);
      assertEquals(s.failedAt, 0);
      assertEquals((s.results as R[])[0]!.requiredCapability, "eval");
      const g = await run([{ tool: "approve_actions", args: { scopes: ["submit"] } }]);
      assertEquals((g.s.results as R[])[0]!.requiredCapability, "self-approval");
    });

    await t.step("the allowlist, a confirm hook and the guard hold inside a batch", async () => {
      const { s } = await run([
        { tool: "navigate", args: { url: fx.crossUrl("basic.html"), snapshot: "none" } },
        { tool: "navigate", args: { url: guard, snapshot: "none" } },
        { tool: "click", args: { selector: "#send" } },
        { tool: "click", args: { selector: "#send", submits: true } },
        { tool: "click", args: { selector: "#away" } },
      ], false);
      const codes = (s.results as R[]).map((x) => x.ok ? "ok" : (x.error as R).code);
      assertEquals(codes, [
        "blocked-by-policy",
        "ok",
        "blocked-by-policy",
        "blocked-by-policy",
        "blocked-by-policy",
      ]);
      assertEquals(s.failedAt, 0);
      assertEquals(fx.requests.filter((q) => q.path.startsWith("/api/echo")).length, 0);
      assertEquals(fx.requests.filter((q) => q.server === "cross").length, 0);
    });

    await t.step("stopOnError (default) halts at the first failure; no nesting", async () => {
      const { s } = await run([
        { tool: "click", args: { selector: "#nothing" } },
        { tool: "snapshot" },
      ]);
      assertEquals([s.completed, s.failedAt], [1, 0]);
      const nested = await mcp.call("batch", { calls: [{ tool: "batch", args: { calls: [] } }] });
      assertIncludes(textOf(nested), 'batch cannot run "batch"');
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
