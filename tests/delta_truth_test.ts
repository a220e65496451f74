/**
 * The action result's delta tells the truth where lines repeat and where sections share a
 * landmark (a new user's findings 3 and 4, session 15): a list of Apple, Banana, Cherry, Banana
 * re-rendered whole on a delete shows Apple gone and each Banana's new button paired with its own
 * old one (checked against the snapshot after, and by deleting with the ref it named); a change
 * in the second section of `<main>` is shown under that section's heading, not the first one's.
 * Over MCP stdio against real Chromium.
 */
import { assertEquals, assertIncludes, assertNotIncludes, assertTrue } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { refOf, servePages } from "./_util.ts";

const FRUITS = `<!doctype html><html><head><title>Fruits</title></head><body>
<h1>Fruits</h1><ul id="l"></ul><p id="log"></p>
<script>let items = ["Apple", "Banana", "Cherry", "Banana"];
function render() {
  l.innerHTML = "";
  items.forEach((t, i) => {
    const li = document.createElement("li");
    li.append(t + " ");
    const b = document.createElement("button");
    b.textContent = "Delete";
    b.onclick = () => { log.textContent = "deleted " + t + " at " + i; items.splice(i, 1); render(); };
    li.append(b);
    l.append(li);
  });
}
render();
</script></body></html>`;

const SECTIONS = `<!doctype html><html><head><title>Trip</title></head><body><main>
<section><h2>Book a trip</h2><button>Book now</button></section>
<section><h2>Trip notes</h2><textarea aria-label="Trip notes"></textarea></section>
<section><h2>Status</h2><p id="s">Idle</p><button onclick="s.textContent='Saved'">Save</button></section>
</main></body></html>`;

type Delta = { mode: string; tree: string };

/** The refs of the Delete buttons in a snapshot, in page order, with the row each stands in. */
function rows(tree: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let row = "";
  for (const line of tree.split("\n")) {
    const item = /^\* (\w+)/.exec(line);
    if (item) row = item[1]!;
    const ref = /button "Delete" \[ref=(e\d+)\]/.exec(line)?.[1];
    if (ref) out.push([row, ref]);
  }
  return out;
}

Deno.test("delta with repeated rows: each re-created ref is paired with its own row", async () => {
  const pages = servePages({ "/fruits.html": FRUITS });
  const mcp = await startStdio();
  try {
    await mcp.ok("navigate", { url: `${pages.base}/fruits.html`, snapshot: "none" });
    const before = rows(String((await mcp.ok("snapshot")).tree));
    assertEquals(before.map(([r]) => r), ["Apple", "Banana", "Cherry", "Banana"]);
    const r = await mcp.ok("click", { ref: before[0]![1] });
    const delta = r.snapshotDelta as Delta;
    assertEquals(delta.mode, "delta", JSON.stringify(delta));
    const after = rows(String((await mcp.ok("snapshot")).tree));
    assertEquals(after.map(([x]) => x), ["Banana", "Cherry", "Banana"]);
    // Apple went with its button; the others were re-created, each as its own row's new button.
    const lines = delta.tree.split("\n");
    assertEquals(lines.filter((l) => l.startsWith("- ")), [
      "- * Apple",
      `-   - button "Delete" [ref=${before[0]![1]}]`,
    ]);
    assertEquals(lines.filter((l) => /^\s+\* Banana/.test(l)), [], delta.tree);
    const renewed = /~ (.+) are gone: the page re-created them as (.+) \(same content\)/
      .exec(delta.tree);
    assertTrue(renewed !== null, delta.tree);
    assertEquals(renewed![1]!.split(", "), before.slice(1).map(([, ref]) => ref));
    assertEquals(renewed![2]!.split(", "), after.map(([, ref]) => ref));
    // The second Banana's old ref leads to the second Banana's new button (the one the delta
    // named): deleting with it removes the Banana at index 2, not the first one.
    const stale = await mcp.call("click", { ref: before[3]![1] });
    assertTrue(stale.isError === true, "a ref of a re-created node is refused");
    const said = stale.content.map((c) => c.text ?? "").join("\n");
    assertIncludes(said, `use ${after[2]![1]}`);
    const del = await mcp.ok("click", { ref: after[2]![1] });
    assertIncludes(String((del.snapshotDelta as Delta).tree), "+ deleted Banana at 2");
  } finally {
    await mcp.close();
    await pages.close();
  }
});

Deno.test("delta in <main> with several sections: a change is shown under its own heading", async () => {
  const pages = servePages({ "/trip.html": SECTIONS });
  const mcp = await startStdio();
  try {
    await mcp.ok("navigate", { url: `${pages.base}/trip.html`, snapshot: "none" });
    const page = String((await mcp.ok("snapshot")).tree);
    const typed = await mcp.ok("fill", {
      ref: refOf(page, /textbox "Trip notes"/),
      value: "Hello",
    });
    const notes = String((typed.snapshotDelta as Delta).tree);
    assertIncludes(notes, '## Trip notes\n+   - textbox "Trip notes"');
    assertNotIncludes(notes, "Book a trip");
    const saved = await mcp.ok("click", { ref: refOf(page, /button "Save"/) });
    const status = String((saved.snapshotDelta as Delta).tree);
    assertIncludes(status, "## Status\n-   Idle\n+   Saved");
    assertNotIncludes(status, "Book a trip");
  } finally {
    await mcp.close();
    await pages.close();
  }
});
