/**
 * A page with a clock that ticks every 100 ms and a todo list (`ticking.html`): the delta of
 * adding a todo lists the todo and the new count, and sums the clock up in one short note
 * (seen ticking between the agent's last read and the action, with no input between), instead
 * of listing its old and new text as if the action had changed it.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio } from "./_mcp.ts";
import { eventually } from "./_util.ts";
import { act } from "./_results.ts";

Deno.test("a ticking clock is a note in an action's delta, the action's change is listed", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const ticks = async () =>
    Number((await mcp.ok("eval_js", { expression: "clock.dataset.ticks" })).value);
  try {
    await mcp.ok("navigate", { url: fx.url("ticking.html") });
    // The clock moves on after the agent's read (no input meanwhile).
    const at = await ticks();
    await eventually(async () => (await ticks()) > at, 3000, "the clock to tick");
    const filled = await act(mcp, "fill", { selector: "#new", value: "Eggs" });
    const tree = (r: typeof filled) => String(r.snapshotDelta?.tree ?? "");
    assertIncludes(tree(filled), "Eggs");
    const added = await act(mcp, "press", { key: "Enter", selector: "#new" });
    const t = tree(added);
    assertIncludes(t, "Eggs");
    assertIncludes(t, "2 items left");
    assertIncludes(t, "~ ticking on its own (not this action's doing): 1 line, e.g.");
    // The clock is not listed as a change of its own.
    const clockLines = t.split("\n").filter((l) => /^[+-] .*Time \d/.test(l));
    assertEquals(clockLines, [], t);
    assertTrue(t.split("\n").length <= 8, t);
    // A change the agent's own input made between reads is no tick: a todo added without a
    // delta, then another with one, lists the count as the action's change.
    await act(mcp, "fill", { selector: "#new", value: "Tea", snapshot: "none" });
    await act(mcp, "press", { key: "Enter", selector: "#new", snapshot: "none" });
    await act(mcp, "fill", { selector: "#new", value: "Jam" });
    // As above: the clock moves on after this read before the press (on a quiet machine the
    // press could come within one 100 ms tick, and then nothing was seen ticking).
    const jam = await ticks();
    await eventually(async () => (await ticks()) > jam, 3000, "the clock to tick");
    const again = tree(await act(mcp, "press", { key: "Enter", selector: "#new" }));
    assertIncludes(again, "+ 4 items left");
    assertIncludes(again, "ticking on its own");
  } finally {
    await mcp.close();
    await fx.close();
  }
});
