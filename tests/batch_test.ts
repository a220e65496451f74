/**
 * `batch` and `flake_check` run their calls through the same gates as
 * top-level calls: a capability the server lacks, a confirm hook, the
 * allowlist and the navigation guard hold inside them exactly as outside.
 * flake_check's roll-up is checked on a page that fails every second load.
 */
import { refOf } from "./_util.ts";
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

    await t.step("a ref named inside a batch is acted on by name", async () => {
      await mcp.ok("navigate", { url: fx.url("form.html"), snapshot: "none" });
      const field = refOf(String((await mcp.ok("snapshot")).tree), /textbox "Name"/);
      const { r, s } = await run([
        { tool: "name_ref", args: { name: "who", ref: field } },
        { tool: "fill", args: { named: "who", value: "Grace", snapshot: "none" } },
        { tool: "list_named_refs" },
      ]);
      assertEquals(r.isError, undefined, textOf(r));
      assertEquals(s.completed, 3);
      const listed = ((s.results as R[])[2]!.result as R).named as R[];
      assertEquals(listed.map((n) => [n.name, n.ref]), [["who", field]]);
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

    await t.step("flake_check: the step that flakes, and what every run agreed on", async () => {
      const r = await mcp.ok("flake_check", {
        n: 4,
        calls: [
          { tool: "navigate", args: { url: fx.url("flaky.html"), snapshot: "none" } },
          { tool: "click", args: { selector: "#always", snapshot: "none" }, label: "always" },
          { tool: "click", args: { selector: "#sometimes", snapshot: "none", timeoutMs: 1000 } },
        ],
      });
      assertEquals([r.runsCompleted, r.allGreen, r.firstDivergence], [4, false, 2]);
      const steps = r.steps as R[];
      assertEquals(steps.map((s) => s.ok), [4, 4, 2]);
      assertEquals(steps[2]!.successRate, 0.5);
      assertEquals((steps[2]!.errors as string[]).length, 1);
      const cached = r.cachedResolvers as R[];
      assertEquals(cached.map((c) => [c.step, c.selectorHint, c.agreedRuns]), [[1, "#always", 4]]);
    });

    await t.step("flake_check: every step failing in every run is an error", async () => {
      const r = await mcp.call("flake_check", {
        n: 3,
        calls: [
          { tool: "click", args: { selector: "#nothing", timeoutMs: 300, snapshot: "none" } },
          { tool: "hover", args: { selector: "#nothing-either", timeoutMs: 300 } },
        ],
      });
      assertEquals(r.isError, true, textOf(r));
      const text = textOf(r);
      assertIncludes(text, "flake_check: all 3 runs failed, every step in every run; step 0 said:");
      assertIncludes(text, "Next: fix step 0 (click) first");
      const s = r.structuredContent!;
      assertEquals([s.ok, s.runsCompleted, s.allGreen], [false, 3, false]);
      assertEquals((s.steps as R[]).map((x) => x.ok), [0, 0]);
    });

    await t.step("flake_check: gates hold in every run", async () => {
      const before = fx.requests.filter((q) => q.path.startsWith("/api/echo")).length;
      const res = await mcp.call("flake_check", {
        n: 3,
        calls: [
          { tool: "navigate", args: { url: guard, snapshot: "none" } },
          { tool: "click", args: { selector: "#send" } },
          { tool: "eval_js", args: { expression: "1" } },
        ],
      });
      // No run passed: an error, naming the steps that never passed.
      assertEquals(res.isError, true, textOf(res));
      assertIncludes(textOf(res), "all 3 runs failed; steps 1 (click), 2 (eval_js) failed");
      const r = res.structuredContent!;
      assertEquals([r.ok, (r.error as R).code], [false, "all-runs-failed"]);
      const steps = r.steps as R[];
      assertEquals(steps.map((s) => s.ok), [3, 0, 0]);
      assertIncludes(String((steps[1]!.errors as string[])[0]), "blocked-by-policy");
      assertIncludes(String((steps[2]!.errors as string[])[0]), "eval");
      assertEquals(fx.requests.filter((q) => q.path.startsWith("/api/echo")).length, before);
      const nested = await mcp.call("flake_check", { n: 3, calls: [{ tool: "flake_check" }] });
      assertIncludes(textOf(nested), 'flake_check cannot run "flake_check"');
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
