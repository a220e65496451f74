/**
 * `press` by ref on a list whose framework re-uses its row nodes (red team): a re-render as the
 * element takes the focus fails `ref-gone` with no key sent; one the key's own handlers make is
 * said in a warning (the key may have acted on the item the row now shows), as it is for `fill`.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";

/** Five rows; `trigger` (a document capture listener) moves every item up one row, once. */
function listPage(trigger: string): string {
  return `<!doctype html><title>List</title><ul id=l></ul><script>
let items = ["Alice Adams", "Bob Brown", "Carol Cruz", "Dave Dunn", "Erin Evans"];
window.log = []; let shifted = false; const rows = [];
for (let i = 0; i < items.length; i++) {
  const li = document.createElement("li");
  li.innerHTML = "<span></span> <input aria-label=Note> <button>Delete</button>";
  l.appendChild(li); rows.push(li);
  li.querySelector("button").addEventListener("click", () => log.push("click " + items[i]));
}
const render = () => rows.forEach((li, i) => li.querySelector("span").textContent = items[i]);
render();
document.addEventListener(${JSON.stringify(trigger)}, (e) => {
  if (shifted || !e.target.closest?.("li")) return;
  shifted = true; items = items.slice(1).concat(["Zed Zulu"]); render();
}, true);
</script>`;
}

Deno.test("press by ref: a row re-used under it is refused or said", async (t) => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) =>
      new Response(listPage(new URL(req.url).searchParams.get("on") ?? "focus"), {
        headers: { "content-type": "text/html" },
      }),
  );
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const carolsDelete = async (on: string) => {
    await mcp.ok("navigate", { url: `http://127.0.0.1:${server.addr.port}/?on=${on}` });
    const tree = String((await mcp.ok("snapshot")).tree);
    // The third row's button (Carol's): rows in order, one Delete each.
    const refs = [...tree.matchAll(/button "Delete" \[ref=(e\d+)\]/g)].map((m) => m[1]!);
    assertIncludes(tree, "Carol Cruz");
    return refs[2]!;
  };
  const log = async () =>
    (await mcp.ok("eval_js", { expression: "JSON.stringify(window.log)" })).value;
  try {
    await t.step("re-used as it takes the focus: ref-gone, no key sent", async () => {
      const ref = await carolsDelete("focus");
      const r = await mcp.call("press", { ref, key: "Enter" });
      assertEquals(r.isError, true, textOf(r));
      assertEquals((r.structuredContent!.error as { code: string }).code, "ref-gone");
      assertIncludes(textOf(r), "no key was pressed");
      assertEquals(await log(), "[]");
    });
    await t.step("re-used by the key's own handler: a warning names the row", async () => {
      const ref = await carolsDelete("keydown");
      const r = await mcp.ok("press", { ref, key: "Enter" });
      const warned = (r.warnings as string[]).find((w) => w.includes("was re-used"));
      assertTrue(warned !== undefined, JSON.stringify(r.warnings));
      assertIncludes(String(warned), "Dave Dunn");
    });
    await t.step("fill: a row re-used by the field's input handler is said too", async () => {
      await carolsDelete("input");
      const tree = String((await mcp.ok("snapshot")).tree);
      const notes = [...tree.matchAll(/textbox "Note" \[ref=(e\d+)\]/g)].map((m) => m[1]!);
      const r = await mcp.ok("fill", { ref: notes[2]!, value: "VIP" });
      const warned = (r.warnings as string[]).find((w) => w.includes("was re-used"));
      assertIncludes(String(warned), "while the fill was handled");
      assertIncludes(String(warned), "Dave Dunn");
    });
    await t.step("a row left alone: pressed, nothing said", async () => {
      const ref = await carolsDelete("never");
      const r = await mcp.ok("press", { ref, key: "Enter" });
      assertEquals((r.warnings as string[]).filter((w) => w.includes("re-used")), []);
      assertEquals(await log(), '["click Carol Cruz"]');
    });
  } finally {
    await mcp.close();
    await server.shutdown();
  }
});
