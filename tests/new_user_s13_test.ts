/**
 * Smaller things a new user met (session 13, #18 and the label around a progress bar):
 * - a read-only field and an aria-disabled control are refused at once, with a hint that fits
 *   (they waited out the 2 s fail-fast budget for a generic one);
 * - a switch that is off says so (`[checked=false]`), as one that is on says `[checked]`;
 * - a `<label>` around a `<progress>` or `<meter>` keeps the bar, named by the label;
 * - `get_url` runs inside `batch`.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { errorOf } from "./_results.ts";
import { refOf, servePages } from "./_util.ts";

const PAGES: Record<string, string> = {
  "/page": `<!doctype html><title>Settings</title><h1>Settings</h1>
<label>Upload <progress value="30" max="100"></progress></label>
<label>Battery <meter value="0.6"></meter></label>
<div role="switch" aria-checked="false" tabindex="0" id="dark">Dark mode</div>
<label><input type="checkbox" role="switch" id="wifi"> Wifi</label>
<label>Date <input readonly id="date" value="2026-01-01"></label>
<button aria-disabled="true" id="locked">Export</button>
<script>
  dark.onclick = () => dark.setAttribute("aria-checked", String(dark.ariaChecked !== "true"));
</script>`,
};

Deno.test("new user, session 13: quick refusals, switch states, labelled bars, get_url in batch", async (t) => {
  const server = servePages(PAGES);
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,power" } });
  try {
    const tree = textOf(await mcp.call("navigate", { url: `${server.base}/page` }));

    await t.step("a labelled progress bar and meter keep their lines and names", () => {
      assertIncludes(tree, '- progressbar "Upload": 30/100');
      assertIncludes(tree, '- meter "Battery": 0.6/1');
    });

    await t.step("a switch that is off says [checked=false]; on, [checked]", async () => {
      assertIncludes(tree, 'switch "Dark mode" [ref=');
      const dark = refOf(tree, 'switch "Dark mode"');
      assertIncludes(tree.split("\n").find((l) => l.includes(dark))!, "[checked=false]");
      assertIncludes(tree.split("\n").find((l) => l.includes('"Wifi"'))!, "[checked=false]");
      const on = await mcp.call("click", { ref: dark });
      assertIncludes(textOf(on), `switch "Dark mode" [ref=${dark}] [checked]`);
    });

    await t.step(
      "read-only and aria-disabled are refused at once, with their own hints",
      async () => {
        let started = Date.now();
        const ro = await mcp.call("fill", { selector: "#date", value: "2026-12-24" });
        const roMs = Date.now() - started;
        assertEquals(errorOf(ro).code, "not-editable");
        assertIncludes(errorOf(ro).message, "read-only");
        assertIncludes(errorOf(ro).hint ?? "", "calendar or picker button");
        started = Date.now();
        const locked = await mcp.call("click", { selector: "#locked" });
        const lockedMs = Date.now() - started;
        assertEquals(errorOf(locked).code, "not-enabled");
        assertIncludes(errorOf(locked).message, 'aria-disabled="true"');
        // The fail-fast budget they waited out before is 2 s (2.1 s measured by the user).
        assertTrue(roMs < 1900 && lockedMs < 1900, `refused after ${roMs} ms and ${lockedMs} ms`);
      },
    );

    await t.step("get_url runs inside batch; a tool batch refuses still says so", async () => {
      const b = await mcp.ok("batch", { calls: [{ tool: "get_url" }] });
      assertEquals(b.completed, 1);
      assertIncludes(JSON.stringify(b.results), `${server.base}/page`);
      const bad = await mcp.call("batch", { calls: [{ tool: "open_session" }] });
      assertEquals(bad.isError, true);
      assertIncludes(textOf(bad), 'batch cannot run "open_session"');
    });
  } finally {
    await mcp.close();
    await server.close();
  }
});
