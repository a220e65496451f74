/**
 * An ad frame whose script loops forever: the page is still read, searched and acted on within
 * the call's time, the frame shown as not responding (a red team's snapshot took 22–30 s, each
 * time, find 35 s and failed, and a click's delta was skipped).
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { act } from "./_results.ts";
import { eventually } from "./_util.ts";

Deno.test("a busy cross-origin frame: snapshot, find and click answer, the frame noted", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({});
  try {
    const url = fx.url(`busy-frame.html?ad=${encodeURIComponent(fx.crossUrl("spin-frame.html"))}`);
    await mcp.ok("navigate", { url, snapshot: "none" });
    // The ad starts its loop 300 ms after it loads: read until it is seen busy (by time, not by a
    // count of reads: ten quick reads can all come before the loop starts).
    let text = "";
    await eventually(
      async () => (text = textOf(await mcp.call("snapshot", {}))).includes("(frame not responding"),
      20_000,
      "the ad frame read as busy",
    ).catch(() => {});
    assertIncludes(text, "(frame not responding: its script is busy; not read)");
    assertIncludes(text, 'button "Buy"');
    // find searches the page without the busy frame.
    const found = await mcp.ok("find", { query: "Buy button" });
    assertEquals((found.candidates as { name: string }[])[0]?.name, "Buy");
    const r = await act(mcp, "click", { selector: "#buy", timeoutMs: 8000 });
    assertEquals(r.timedOut ?? false, false, JSON.stringify(r));
    assertIncludes(JSON.stringify(r.snapshotDelta), "bought");
  } finally {
    await mcp.close();
    await fx.close();
  }
});
