/**
 * The snapshot's two guards, end to end over MCP (the way an agent meets
 * them): secret fields' values never reach a tool result, and a ref whose
 * node a framework recycled for another list item fails with `ref-gone`
 * instead of clicking the other item.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { refOf } from "./_util.ts";

const SECRET = /SECRET_\w*|hunter2|PIN_4711|NEW_\w*/;

Deno.test("snapshot guards over MCP: secrets and recycled nodes", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const js = async (expression: string) => (await mcp.ok("eval_js", { expression })).value;
  try {
    await t.step("secret values appear in no snapshot, before or after new values", async () => {
      const nav = await mcp.call("navigate", { url: fx.url("secrets.html"), snapshot: "full" });
      assertTrue(!SECRET.test(JSON.stringify(nav)), textOf(nav));
      const snap = await mcp.call("snapshot");
      const tree = String(snap.structuredContent!.tree);
      assertTrue(!SECRET.test(JSON.stringify(snap)), tree);
      assertIncludes(tree, 'checkbox "Remember ••••"');
      await js(`refill("X")`);
      const again = await mcp.call("snapshot");
      assertTrue(!SECRET.test(JSON.stringify(again)), textOf(again));
      // An action's delta is a snapshot too.
      const clicked = await mcp.call("click", { ref: refOf(tree, /checkbox "Remember/) });
      assertEquals(clicked.isError, undefined, textOf(clicked));
      assertTrue(!SECRET.test(JSON.stringify(clicked)), textOf(clicked));
    });

    await t.step("a ref of a recycled row fails; the other item is never clicked", async () => {
      await mcp.ok("navigate", { url: fx.url("recycle.html"), snapshot: "none" });
      const tree = String((await mcp.ok("snapshot")).tree);
      const lines = tree.split("\n");
      const row = lines.indexOf("  Buy milk");
      const del = refOf(lines.slice(row, row + 3).join("\n"), /button "Delete"/);
      const toggle = refOf(lines.slice(row - 1, row).join("\n"), /checkbox "Done"/);
      // A toggle leaves the row's text alone: the refs keep working, with or without a delta.
      await mcp.ok("click", { ref: toggle, snapshot: "none" });
      await mcp.ok("click", { ref: toggle, snapshot: "none" });
      assertEquals(await js(`document.getElementById("log").textContent`), "Toggled Buy milk");
      await js(`dropFirst()`);
      const stale = await mcp.call("click", { ref: del });
      assertEquals(stale.isError, true);
      const error = stale.structuredContent!.error as Record<string, unknown>;
      assertEquals(error.code, "ref-gone");
      assertIncludes(textOf(stale), `("Walk dog" instead of "Buy milk")`);
      assertEquals(await js(`itemTexts().join()`), "Walk dog,Pay rent");
      assertEquals(await js(`document.getElementById("log").textContent`), "Toggled Buy milk");
      const fresh = String((await mcp.ok("snapshot")).tree);
      const at = fresh.split("\n").indexOf("  Walk dog");
      const now = refOf(fresh.split("\n").slice(at, at + 3).join("\n"), /button "Delete"/);
      await mcp.ok("click", { ref: now });
      assertEquals(await js(`itemTexts().join()`), "Pay rent");
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
