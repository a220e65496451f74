/**
 * A `wait_for` whose condition never held answers `ok: false` (not an error); inside `batch`
 * and `flake_check` that is a failed step: batch stops there (the click after it never runs)
 * and flake_check scores it failed. NU finding 1: "wait for X, then buy" bought when X never came.
 */
import { servePages } from "./_util.ts";
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";

type R = Record<string, unknown>;

const PAGE = `<!doctype html><title>Cart</title>
<p>Total: $68.89</p>
<button id="apply" onclick="document.getElementById('out').textContent = 'Coupon applied'">Apply</button>
<p role="status" id="out"></p>`;

Deno.test("batch and flake_check: a timed-out wait_for is a failed step", async (t) => {
  const site = servePages({ "/cart.html": PAGE });
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,power" } });
  const url = `${site.base}/cart.html`;
  try {
    await mcp.ok("navigate", { url, snapshot: "none" });

    await t.step("batch stops at the wait; the click after it never runs", async () => {
      const r = await mcp.call("batch", {
        calls: [
          { tool: "wait_for", args: { text: "$999.99", timeoutMs: 400, snapshot: "none" } },
          { tool: "click", args: { selector: "#apply" } },
        ],
      });
      assertEquals(r.isError, true, textOf(r));
      const s = r.structuredContent!;
      assertEquals([s.completed, s.failedAt], [1, 0]);
      const step = (s.results as R[])[0]!;
      assertEquals([step.ok, (step.error as R).code], [false, "timeout"]);
      // What the wait last saw stays readable.
      assertIncludes(String((step.result as R).lastSeen), "Total: $68.89");
      assertIncludes(textOf(r), "1 of 2 steps run; step 1 failed");
      const snap = await mcp.ok("snapshot");
      assertEquals(String(snap.tree).includes("Coupon applied"), false, String(snap.tree));
    });

    await t.step("stopOnError: false goes on, still naming the wait as failed", async () => {
      const r = await mcp.call("batch", {
        stopOnError: false,
        calls: [
          { tool: "wait_for", args: { text: "$999.99", timeoutMs: 300, snapshot: "none" } },
          { tool: "wait_for", args: { text: "$68.89", timeoutMs: 2000, snapshot: "none" } },
        ],
      });
      const s = r.structuredContent!;
      assertEquals([s.completed, s.failedAt], [2, 0]);
      assertEquals((s.results as R[]).map((x) => x.ok), [false, true]);
    });

    await t.step("flake_check scores the timed-out wait as failed in every run", async () => {
      const r = await mcp.call("flake_check", {
        n: 3,
        calls: [
          { tool: "navigate", args: { url, snapshot: "none" } },
          { tool: "wait_for", args: { text: "$999.99", timeoutMs: 300, snapshot: "none" } },
        ],
      });
      const s = r.structuredContent!;
      assertEquals(s.allGreen, false, textOf(r));
      const steps = s.steps as R[];
      assertEquals(steps.map((x) => x.ok), [3, 0]);
      assertIncludes(String((steps[1]!.errors as string[])[0]), "timeout");
    });

    await t.step("bad input: a wait_for with no condition is refused in the batch", async () => {
      const r = await mcp.call("batch", {
        calls: [{ tool: "wait_for", args: { timeoutMs: 300 } }, {
          tool: "click",
          args: { selector: "#apply" },
        }],
      });
      assertEquals(r.isError, true);
      assertEquals(r.structuredContent!.failedAt, 0);
      assertEquals(r.structuredContent!.completed, 1);
    });
  } finally {
    await mcp.close();
    await site.close();
  }
});
