/**
 * A table the page re-renders whole (`innerHTML`) on every change, as many admin pages do:
 * deleting one row gives a delta of that row (the others named as re-created, matched by their
 * content, not their position), even when a count elsewhere on the page changed too; a delta is
 * never longer than the page it stands for (sorting re-creates every row: the page comes whole
 * instead); a sorted column says so (`[sort=ascending]`). Over MCP stdio against real Chromium.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { refOf, servePages } from "./_util.ts";

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Users</title></head><body>
<main><h1>Users</h1>
<table aria-label="Users"><thead><tr>
<th id="h-name"><button onclick="sortBy()">Name</button></th><th>Email</th><th>Actions</th>
</tr></thead><tbody id="rows"></tbody></table>
<p id="count"></p></main>
<script>
const first = ["Alice","Bob","Carol","Dave","Erin","Frank","Grace","Heidi","Ivan","Judy","Mallory",
  "Niaj","Olivia","Peggy","Rupert","Sybil","Trent","Uma","Victor","Walter","Xena","Yuri","Zoe",
  "Amos","Bea"];
let users = first.map((f, i) => ({ name: f + " " + ["Ford","Green","Adams","Clark"][i % 4] }))
  .reverse();
function render() {
  document.getElementById("rows").innerHTML = users.map((u, i) =>
    "<tr><td>" + u.name + "</td><td>" + u.name.split(" ")[0].toLowerCase() + "@example.com</td>" +
    "<td><button onclick='del(" + i + ")'>Delete</button></td></tr>").join("");
  document.getElementById("count").textContent = users.length + " users";
}
function del(i) { users.splice(i, 1); render(); }
function sortBy() {
  users.sort((a, b) => a.name.localeCompare(b.name));
  document.getElementById("h-name").setAttribute("aria-sort", "ascending");
  render();
}
render();
</script></body></html>`;

type Delta = { mode: string; tree: string; scope?: string; moved?: number };

Deno.test("table re-rendered whole: one deleted row is a delta of one row; sorting shows the sort", async (t) => {
  const pages = servePages({ "/users.html": PAGE });
  const mcp = await startStdio();
  try {
    await mcp.ok("navigate", { url: `${pages.base}/users.html`, snapshot: "none" });
    const page = String((await mcp.ok("snapshot")).tree);
    assertTrue(!page.includes("[sort="), "no column is sorted yet");

    await t.step("deleting one row: that row goes, the others are re-created", async () => {
      const del = refOf(page, /\| Judy Green \|.*button "Delete" \[ref=(e\d+)\]/);
      const r = await mcp.ok("click", { ref: del });
      const delta = r.snapshotDelta as Delta;
      assertEquals(delta.mode, "delta", JSON.stringify(delta));
      assertIncludes(delta.tree, "- ");
      const gone = delta.tree.split("\n").filter((l) => l.startsWith("- "));
      assertEquals(gone.length, 2, delta.tree); // the row, and the old count
      assertIncludes(gone[0]!, "| Judy Green |");
      assertTrue(/^\+ +24 users$/m.test(delta.tree), delta.tree);
      assertIncludes(delta.tree, "the page re-created them as");
      const after = String((await mcp.ok("snapshot")).tree);
      assertTrue(delta.tree.length < after.length / 2, `${delta.tree.length} vs ${after.length}`);
    });

    await t.step("sorting: the header says so, the result is no longer than the page", async () => {
      const now = String((await mcp.ok("snapshot")).tree);
      const r = await mcp.ok("click", { ref: refOf(now, /button "Name" \[ref=(e\d+)\]/) });
      const delta = r.snapshotDelta as Delta;
      const after = String((await mcp.ok("snapshot")).tree);
      assertIncludes(after, 'button "Name" [ref=');
      assertTrue(/button "Name" \[ref=e\d+\] \[sort=ascending\] \| Email/.test(after), after);
      assertTrue(delta.tree.length <= after.length, `${delta.tree.length} > ${after.length}`);
      assertIncludes(delta.tree, "[sort=ascending]");
      // The rows moved, each shown once, `~ ` in its new (alphabetical) order; none removed.
      assertEquals(delta.mode, "delta", JSON.stringify(delta));
      assertTrue(!/^- /m.test(delta.tree), delta.tree);
      const moved = delta.tree.split("\n").filter((l) => l.startsWith("~     | "))
        .map((l) => l.split(" | ")[0]!.replace(/^~ +\| /, ""));
      assertTrue(moved.length >= 20, delta.tree);
      assertEquals(moved, [...moved].sort((x, y) => x.localeCompare(y)), delta.tree);
      assertEquals(delta.moved, moved.length);
    });

    await t.step("bad input: a ref that was never given is refused", async () => {
      const r = await mcp.call("click", { ref: "e99999" });
      assertEquals(r.isError, true, JSON.stringify(r));
    });
  } finally {
    await mcp.close();
    await pages.close();
  }
});
