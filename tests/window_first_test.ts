/**
 * A page's own capture listeners on `window`, added by its scripts, run after browxai's first
 * listeners (put in browxai's isolated world at each document's start), so a page that stops
 * events there cannot hide them from browxai's checks (red team):
 *
 * - the press guard: a cover raised after the last hit test still gets no press, though the
 *   page's window listener stops every press event and sends the click on to what is under
 *   the pointer itself (an untrusted click, which the guard's check never saw);
 * - the typing check: a page that stops `input` events at the window and moves the focus to
 *   "Buy now" a task later gets no Enter;
 * - a click the page swallows at the window (every press event stopped): the result says the
 *   element got no click, where it read as done.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { refOf } from "./_util.ts";

const PRESS_EVENTS = `["pointerdown", "mousedown", "pointerup", "mouseup", "click"]`;

const PAGES: Record<string, string> = {
  // "Keep" gets a "Delete" cover on a Shift keydown (after the last hit test, before the press);
  // the page's own dispatcher on the window stops every trusted press event and clicks what is
  // under the pointer itself.
  "/cover": `<title>cover</title><body style="margin:0">
<div id=box style="position:absolute;left:50px;top:50px"><button id=t onclick="hits.push('KEEP')"
 style="width:200px;height:60px">Keep</button></div><script>
window.hits = [];
for (const t of ${PRESS_EVENTS}) addEventListener(t, (e) => {
  if (!e.isTrusted) return;
  e.stopImmediatePropagation();
  if (t === "click") document.elementFromPoint(e.clientX, e.clientY)?.click();
}, true);
addEventListener("keydown", (e) => {
  if (e.key !== "Shift") return;
  const b = document.createElement("button");
  b.textContent = "Delete";
  b.onclick = () => hits.push("DELETE");
  b.style.cssText = "width:200px;height:60px;position:absolute;left:0;top:0;z-index:9";
  box.append(b);
});
</script>`,
  // Typing in #q: the page stops the input event at the window and moves the focus to "Buy now"
  // a task later; Enter on it buys.
  "/type": `<title>type</title><input id=q aria-label=Query>
<button id=buy onclick="hits.push('BUY')">Buy now</button><script>
window.hits = [];
addEventListener("input", (e) => {
  e.stopImmediatePropagation();
  setTimeout(() => buy.focus(), 0);
}, true);
q.addEventListener("keydown", (e) => { if (e.key === "Enter") hits.push("SEARCH"); });
</script>`,
  // ?stop: every press event is stopped at the window before the button's handler.
  "/swallow": `<title>swallow</title><button id=b onclick="hits.push('BUY')">Buy</button>
<label>Subscribe <input type=checkbox id=cb onclick="hits.push('CB')"></label><script>
window.hits = [];
if (location.search.includes("stop")) {
  for (const t of ${PRESS_EVENTS}) addEventListener(t, (e) => {
    e.stopImmediatePropagation();
    e.preventDefault();
  }, true);
}
</script>`,
};

Deno.test("a page's window listeners added first cannot hide a press or typing", async (t) => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const page = PAGES[new URL(req.url).pathname];
    return page
      ? new Response(`<!doctype html>${page}`, { headers: { "content-type": "text/html" } })
      : new Response("not found", { status: 404 });
  });
  const url = (path: string) => `http://127.0.0.1:${server.addr.port}${path}`;
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const hits = async () =>
    (await mcp.ok("eval_js", { expression: "JSON.stringify(window.hits)" })).value;
  try {
    await t.step("the press guard still stops a press that goes to a cover", async () => {
      await mcp.ok("navigate", { url: url("/cover"), snapshot: "none" });
      const tree = String((await mcp.ok("snapshot")).tree);
      const r = await mcp.call("click", {
        ref: refOf(tree, /button "Keep"/),
        modifiers: ["Shift"],
        timeoutMs: 5000,
      });
      assertEquals(r.isError, true, textOf(r));
      assertEquals((r.structuredContent!.error as { code: string }).code, "covered");
      assertIncludes(textOf(r), 'button "Delete"');
      assertIncludes(textOf(r), "the press was stopped");
      assertEquals(await hits(), "[]");
    });

    await t.step("typing: no Enter once the page moved the focus", async () => {
      await mcp.ok("navigate", { url: url("/type"), snapshot: "none" });
      await mcp.ok("click", { selector: "#q", snapshot: "none" });
      const r = await mcp.call("type", { text: "shoes\n", snapshot: "none" });
      assertEquals(r.isError, true, textOf(r));
      assertIncludes(textOf(r), "Enter was not pressed");
      assertIncludes(textOf(r), '"Buy now"');
      assertEquals(await hits(), "[]");
    });

    await t.step("a click the page swallows at the window is said", async () => {
      await mcp.ok("navigate", { url: url("/swallow?stop"), snapshot: "none" });
      const r = await mcp.ok("click", { selector: "#b", snapshot: "none" });
      const warned = (r.warnings as string[] | undefined ?? []).find((w) =>
        w.includes("swallowed")
      );
      assertTrue(warned !== undefined, JSON.stringify(r));
      assertIncludes(String(warned), "the element got no click event");
      assertEquals(await hits(), "[]");
    });

    await t.step("clicks that reach the element (a label's too) say nothing of it", async () => {
      await mcp.ok("navigate", { url: url("/swallow"), snapshot: "none" });
      const tree = String((await mcp.ok("snapshot")).tree);
      const button = await mcp.ok("click", { selector: "#b", snapshot: "none" });
      assertEquals(button.warnings ?? [], [], JSON.stringify(button));
      // The checkbox by its label's text: the label forwards the click.
      const label = await mcp.ok("click", { selector: "text=Subscribe", snapshot: "none" });
      assertEquals(label.warnings ?? [], [], JSON.stringify(label));
      const box = await mcp.ok("click", { ref: refOf(tree, /checkbox "Subscribe"/) });
      assertEquals(box.warnings ?? [], [], JSON.stringify(box));
      assertEquals(await hits(), '["BUY","CB","CB"]');
    });
  } finally {
    await mcp.close();
    await server.shutdown();
  }
});
