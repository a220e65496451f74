/**
 * flake_check and the state its runs start from (NU s14 finding 5): a page that keeps its list
 * in localStorage passed run 1 and failed runs 2 and 3, which read as a flake. Without `fresh`
 * the result says run 1 changed the storage later runs started with; with `fresh` each run is a
 * new session seeded with `default`'s cookies and storage as they were, and `default` is left
 * as it was.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { servePages } from "./_util.ts";

type R = Record<string, unknown>;

// A list kept in localStorage; "?login=ada" stores a user (a logged-in state to carry).
const APP = `<!doctype html><title>Saved list</title>
<p id=user></p><p id=count></p><button id=add>Add</button>
<script>
const q = new URLSearchParams(location.search);
if (q.get("login")) localStorage.setItem("user", q.get("login"));
const items = JSON.parse(localStorage.getItem("items") || "[]");
const show = () => {
  count.textContent = "Count: " + items.length;
  user.textContent = "User: " + (localStorage.getItem("user") || "nobody");
};
add.onclick = () => { items.push("Flaky?"); localStorage.setItem("items", JSON.stringify(items)); show(); };
show();
</script>`;

Deno.test("flake_check: runs that share storage say so; fresh runs start alike", async (t) => {
  const pages = servePages({ "/app": APP });
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,sessions,power" } });
  const url = `${pages.base}/app`;
  const calls = [
    { tool: "navigate", args: { url, snapshot: "none" } },
    { tool: "wait_for", args: { text: "User: ada", timeoutMs: 1000, snapshot: "none" } },
    { tool: "click", args: { selector: "#add", snapshot: "none" } },
    { tool: "wait_for", args: { text: "Count: 1", timeoutMs: 1000, snapshot: "none" } },
  ];
  try {
    // default is logged in: every run should start so.
    await mcp.ok("navigate", { url: `${url}?login=ada`, snapshot: "none" });

    await t.step("fresh: every run passes, seeded with default's storage", async () => {
      const r = await mcp.ok("flake_check", { n: 3, calls, fresh: true });
      assertEquals([r.allGreen, r.runsCompleted, r.warnings], [true, 3, undefined]);
      // default was not touched by the runs; their sessions are gone.
      await mcp.ok("navigate", { url, snapshot: "none" });
      const tree = String((await mcp.ok("snapshot")).tree);
      assertIncludes(tree, "Count: 0");
      const sessions = await mcp.ok("list_sessions");
      assertEquals((sessions.sessions as R[]).map((s) => s.session), ["default"]);
    });

    await t.step("shared: run 1's storage fails runs 2 and 3, and the result says so", async () => {
      const r = await mcp.ok("flake_check", { n: 3, calls });
      assertEquals(r.allGreen, false);
      assertEquals((r.steps as R[])[3]!.ok, 1);
      const warnings = (r.warnings as string[]).join(" ");
      assertIncludes(warnings, `run 1 changed cookies or localStorage (${pages.base})`);
      assertIncludes(warnings, "fresh: true");
    });

    await t.step("bad input: fresh must be a boolean", async () => {
      const r = await mcp.call("flake_check", { n: 3, calls, fresh: "yes" });
      assertEquals(r.isError, true);
      assertIncludes(textOf(r), "fresh");
    });
  } finally {
    await mcp.close();
    await pages.close();
  }
});
