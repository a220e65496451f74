/**
 * `wait_for` says what appeared and went while it waited (one call, not wait_for + snapshot),
 * met or timed out; and in the text form a delta and a whole outline carry different labels,
 * so an agent never takes a few changed lines for the page.
 */
import { assertEquals, assertIncludes, assertNotIncludes, assertTrue } from "./_assert.ts";
import { ROOT, startStdio, textOf, type ToolResult } from "./_mcp.ts";
import { join } from "./_paths.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import type { SnapshotDelta } from "../browser/actions/action_result.ts";
import { DELTA_LABEL, FULL_LABEL } from "../browser/snapshot/labels.ts";

const deltaOf = (r: ToolResult) => r.structuredContent?.snapshotDelta as SnapshotDelta;

Deno.test("wait_for returns the delta of what changed while it waited", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio();
  const open = (query = "") =>
    mcp.ok("navigate", { url: fx.url(`wait-delta.html${query}`), snapshot: "none" });
  try {
    await t.step("met: what appeared and what went, labelled as a delta", async () => {
      await open();
      // The agent reads the page first, as it would.
      const snap = await mcp.call("snapshot");
      assertIncludes(textOf(snap), "Loading report");
      const r = await mcp.call("wait_for", { text: "Report ready" });
      assertEquals(r.isError, undefined, textOf(r));
      const d = deltaOf(r);
      assertEquals([r.structuredContent?.ok, d.mode], [true, "delta"], JSON.stringify(d));
      assertTrue(/^\+\s+## Report ready$/m.test(d.tree), d.tree);
      assertTrue(/^\+\s+- button "Download report" \[ref=e\d+\]$/m.test(d.tree), d.tree);
      assertTrue(/^-\s+Loading report/m.test(d.tree), d.tree);
      const text = textOf(r);
      assertIncludes(text, `\n${DELTA_LABEL}:\n`);
      assertNotIncludes(text, FULL_LABEL);
      // The JSON head leaves the tree out (it follows raw), and the default mode.
      assertNotIncludes(text.split("\n")[0]!, '"tree"');
      // The README's example is this very result (only the time it waited differs).
      const readme = await Deno.readTextFile(join(ROOT, "README.md"));
      const example = /<!-- delta example: [^>]*-->\s*```text\n([\s\S]*?)\n```/.exec(readme)?.[1];
      const timeless = (s: string) => s.replace(/"waitedMs":\d+/, '"waitedMs":N');
      assertEquals(timeless(text), timeless(example ?? "(no example in README.md)"));
    });

    await t.step("met at once: nothing changed while it waited", async () => {
      const r = await mcp.ok("wait_for", { text: "Report ready" });
      assertEquals(r.ok, true);
      assertEquals((r.snapshotDelta as SnapshotDelta).unchanged, true);
    });

    await t.step("timed out: the result still says what changed", async () => {
      await open();
      const r = await mcp.call("wait_for", { text: "Never on this page", timeoutMs: 3500 });
      assertEquals([r.structuredContent?.ok, r.structuredContent?.status], [false, "timeout"]);
      assertTrue(/^\+\s+## Report ready$/m.test(deltaOf(r).tree), deltaOf(r).tree);
      assertIncludes(textOf(r), `\n${DELTA_LABEL}:\n`);
    });

    await t.step('snapshot: "none" waits alone; "full" shows the page whole', async () => {
      await open();
      const none = await mcp.ok("wait_for", { text: "Report ready", snapshot: "none" });
      assertEquals([none.ok, "snapshotDelta" in none], [true, false]);
      const full = await mcp.call("wait_for", { text: "Report ready", snapshot: "full" });
      assertEquals(deltaOf(full).mode, "full");
      assertIncludes(deltaOf(full).tree, "# Reports");
      assertIncludes(textOf(full), `\n${FULL_LABEL}:\n`);
    });

    await t.step("a new document while it waited: the page whole", async () => {
      await open(`?go=${encodeURIComponent("/basic.html")}`);
      await mcp.ok("snapshot");
      const r = await mcp.call("wait_for", { url: "**/basic.html", timeoutMs: 8000 });
      assertEquals(r.structuredContent?.ok, true, textOf(r));
      assertEquals(deltaOf(r).mode, "full");
      assertIncludes(deltaOf(r).tree, "Basic page");
      assertIncludes(textOf(r), `\n${FULL_LABEL}:\n`);
    });

    await t.step("labels: snapshot is the full page or a subtree; an action's delta", async () => {
      await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
      const snap = await mcp.call("snapshot");
      assertIncludes(textOf(snap), `\n${FULL_LABEL}:\n`);
      const ref = /- button "Click me" \[ref=(e\d+)\]/.exec(textOf(snap))?.[1];
      assertTrue(ref, textOf(snap));
      const sub = await mcp.call("snapshot", { ref });
      assertIncludes(textOf(sub), `\nsnapshot (subtree of ${ref}):\n`);
      const click = await mcp.call("click", { ref });
      assertIncludes(textOf(click), `\n${DELTA_LABEL}:\n`);
      assertNotIncludes(textOf(click), FULL_LABEL);
      const nav = await mcp.call("navigate", { url: fx.url("form.html") });
      assertIncludes(textOf(nav), `\n${FULL_LABEL}:\n`);
      assertNotIncludes(textOf(nav), DELTA_LABEL);
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
