/**
 * Small things a new user (coming from @playwright/mcp) tripped over, through
 * MCP against `nufix.html`: a gone ref names its row by the text the outline
 * showed it by, one-line list items keep their bullet, a file input says it is one.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { textOf } from "./_mcp.ts";
import { errorOf } from "./_results.ts";
import { eventually, refOf } from "./_util.ts";
import { sharedServerCases } from "./_shared_cases.ts";

// One server for these cases; each case ends with its sessions closed.
const cases = sharedServerCases("new user, one server");

cases.test("new user: ref-gone rows by label, list bullets, file inputs", async (mcp, t) => {
  const fx = await startFixtureServer();
  try {
    await mcp.ok("navigate", { url: fx.url("nufix.html"), snapshot: "none" });
    const tree = String((await mcp.ok("snapshot")).tree);

    await t.step('a re-rendered bare row is named by its text, not listitem ""', async () => {
      assertIncludes(tree, "- listitem [ref=");
      const alpha = refOf(tree, /- listitem \[ref=(e\d+)\]: Alpha/);
      await mcp.ok("click", { ref: refOf(tree, /- button "Rerender" \[ref=(e\d+)\]/) });
      // Re-created with the same text: the one Alpha row is hovered, and the note names it.
      const again = await mcp.call("hover", { ref: alpha });
      assertEquals(again.isError, undefined, textOf(again));
      assertIncludes(
        JSON.stringify(again.structuredContent),
        `acted on the same listitem \\"Alpha\\"`,
      );
    });

    await t.step("a one-line list item keeps its bullet, like an item of several lines", () => {
      assertIncludes(
        tree,
        "* One line\n* Two parts here\n* [A link item][ref=",
      );
      assertIncludes(tree, "\n* First para\n  Second para\n");
    });

    await t.step("a file input says it is one: [file]", () => {
      assertTrue(/^- button "Avatar" \[ref=e\d+\] \[file\]$/m.test(tree), tree);
      assertTrue(/^- button "Resume" \[ref=e\d+\] \[file\]$/m.test(tree), tree);
      assertTrue(/^- button "Rerender" \[ref=e\d+\]$/m.test(tree), tree);
    });

    await t.step("a ref from another tab says which tab to switch to", async () => {
      const now = String((await mcp.ok("snapshot")).tree);
      const button = refOf(now, /- button "Rerender" \[ref=(e\d+)\]/);
      await mcp.ok("tabs", { action: "new" });
      const other = await mcp.call("click", { ref: button });
      assertEquals(other.isError, true);
      assertEquals(errorOf(other).code, "ref-gone");
      assertIncludes(errorOf(other).hint ?? "", `tabs({ action: "switch", index: 0 })`);
      assertIncludes(textOf(other), "belongs to tab 0");
      await mcp.ok("tabs", { action: "switch", index: 0 });
      await mcp.ok("click", { ref: button });
      await mcp.ok("tabs", { action: "close", index: 1 });
    });
  } finally {
    await fx.close();
  }
});

cases.test("new user: a sandboxed document's blocked script is reported once", async (mcp) => {
  // Chromium blocks browxai's own init scripts in a document sandboxed without allow-scripts and
  // says so, a message plain Chromium never shows: only the page's own blocked script counts.
  const fx = await startFixtureServer();
  try {
    await mcp.ok("navigate", { url: fx.url("sandboxed.html"), snapshot: "none" });
    const blocked = (e: { text: string }) => e.text.startsWith("Blocked script execution");
    const read = async () =>
      ((await mcp.ok("console_read")).entries as Array<{ text: string }>).filter(blocked);
    // The child's own message comes after browxai's (init scripts run first).
    const entries = await eventually(async () => {
      const e = await read();
      return e.some((x) => x.text.includes("sandboxed-child.html")) ? e : undefined;
    });
    assertEquals(entries.map((e) => e.text.match(/in '[^']*\/([^'/]+)'/)?.[1]), [
      "sandboxed-child.html",
    ]);
  } finally {
    await fx.close();
  }
});
