/**
 * `find` says what is true of a control shown only while its row is hovered (session 17,
 * new-user finding 2): the inbox's delete buttons (`.row:hover .del { visibility: visible }`)
 * are actionable, shown on hover of their row, with no "cannot be acted on" warning; clicking
 * the ref hovers the row and deletes the mail. A control hidden for good stays not actionable.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";

type R = Record<string, unknown>;

Deno.test("find: a row's delete button shown on hover is actionable on hover, and the click works", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio();
  try {
    await mcp.ok("navigate", { url: fx.url("nu17-inbox.html"), snapshot: "none" });
    const found = await mcp.ok("find", { query: "delete Bob" });
    const top = (found.candidates as R[])[0]!;
    assertEquals(top.name, "Delete Bob");
    assertEquals(top.actionable, true);
    assertIncludes(String(top.onHover), "div.row");
    assertIncludes(String(top.why), "shown on hover");
    assertEquals(String(top.why).includes("hidden"), false);
    assertEquals(JSON.stringify(found.warnings ?? []).includes("cannot be acted on"), false);
    const clicked = await mcp.ok("click", { ref: top.ref, snapshot: "none" });
    assertEquals(clicked.ok, true);
    const tree = String((await mcp.ok("snapshot", {})).tree);
    assertEquals(tree.includes("Bob"), false);
    assertIncludes(tree, "Inbox (2)");

    // Hidden for good (no :hover rule shows it): still not actionable, and said so.
    const purge = await mcp.ok("find", { query: "purge all button" });
    const p = (purge.candidates as R[]).find((c) => c.name === "Purge all")!;
    assertEquals(p.actionable, false);
    assertEquals(p.onHover, undefined);
    assertIncludes(String(p.why), "hidden");
  } finally {
    await mcp.close();
    await fx.close();
  }
});
