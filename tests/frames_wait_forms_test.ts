/**
 * `wait_for({ selector })`, `wait_for({ text })` and the form tools look in every frame, as actions
 * do (`browser/actions/frame_query.ts`): the main frame first, then child
 * frames in snapshot order (same-origin and out-of-process); the result names
 * the frame that matched (`frame: { url, ref? }`).
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { startTwoOrigins } from "./_two_origins.ts";

type R = Record<string, unknown>;

Deno.test("wait_for and the form tools find what is inside iframes", async (t) => {
  const srv = startTwoOrigins((_a, b) => ({
    "/top": `<title>top</title><h1>Top</h1>` +
      `<iframe id=same title="Late frame" src="/late"></iframe>` +
      `<iframe id=cross title="Form frame" src="${b}/form"></iframe>` +
      `<iframe id=ed title="Editor frame" src="${b}/editor"></iframe>`,
    "/late": `<title>late</title><p>soon</p><script>setTimeout(() => {` +
      ` const b = document.createElement("button"); b.id = "late"; b.textContent = "Late";` +
      ` document.body.append(b); }, 300);</script>`,
    "/form": `<title>form</title><form id=f action="/done">` +
      `<label>Name <input name=name></label>` +
      `<label>City <select name=city><option>Paris</option><option>Rome</option></select></label>` +
      `<button>Send</button></form>`,
    "/editor": `<title>editor</title><form action="/post"><div id=body contenteditable></div>` +
      `<input type=hidden name=body></form>`,
  }));
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,sessions,forms" } });
  try {
    await mcp.ok("navigate", { url: `${srv.a}/top`, snapshot: "none" });

    await t.step("wait_for a selector that appears in a same-origin iframe", async () => {
      const r = await mcp.ok("wait_for", { selector: "#late", timeoutMs: 5000 });
      assertEquals(r.ok, true, JSON.stringify(r));
      assertIncludes(String((r.frame as R).url), "/late");
    });

    await t.step("wait_for a selector inside an out-of-process iframe", async () => {
      const r = await mcp.ok("wait_for", { selector: "#f select", timeoutMs: 5000 });
      assertEquals(r.ok, true, JSON.stringify(r));
      assertEquals((r.frame as R).url, `${srv.b}/form`);
    });

    await t.step("wait_for a selector no frame has: ok false, says so", async () => {
      const r = await mcp.ok("wait_for", { selector: "#nowhere", timeoutMs: 300 });
      assertEquals(r.ok, false);
      assertEquals(r.lastSeen, "no match in any frame");
      const gone = await mcp.ok("wait_for", { selector: "#nowhere", state: "hidden" });
      assertEquals([gone.ok, gone.frame], [true, undefined]);
    });

    await t.step("wait_for text shown only inside an out-of-process iframe", async () => {
      // Was: the main frame's text only, so this timed out with the text on screen.
      const r = await mcp.ok("wait_for", { text: "City", timeoutMs: 5000 });
      assertEquals(r.ok, true, JSON.stringify(r));
      assertEquals((r.frame as R).url, `${srv.b}/form`);
      const gone = await mcp.ok("wait_for", { text: "City", state: "hidden", timeoutMs: 300 });
      assertEquals(gone.ok, false, JSON.stringify(gone));
      assertEquals(gone.lastSeen, `still shown (in the iframe showing ${srv.b}/form)`);
      const none = await mcp.ok("wait_for", { text: "in no frame at all", timeoutMs: 300 });
      assertEquals(none.ok, false);
      assertIncludes(String(none.lastSeen), "Top");
    });

    await t.step("read_form: the form inside the out-of-process iframe, and where", async () => {
      for (const args of [{}, { root: "#f" }]) {
        const r = await mcp.ok("read_form", args);
        assertEquals((r.frame as R).url, `${srv.b}/form`, JSON.stringify(r));
        const names = (r.fields as R[]).map((f) => f.name);
        assertEquals(names, ["name", "city"], JSON.stringify(r));
      }
    });

    await t.step("fill_form: fields by name and by selector, in that frame", async () => {
      const r = await mcp.ok("fill_form", {
        fields: [{ name: "name", value: "Ada" }, { selector: "#f select", value: "Rome" }],
        snapshot: "none",
      });
      assertEquals(r.ok, true, JSON.stringify(r));
      assertEquals((r.frame as R).url, `${srv.b}/form`);
      const form = await mcp.ok("read_form", { root: "#f" });
      assertEquals((form.fields as R[]).map((f) => f.value), ["Ada", "Rome"], JSON.stringify(form));
    });

    await t.step("set_editor with no target: the editor of a child frame", async () => {
      const r = await mcp.ok("set_editor", { text: "Hello there", snapshot: "none" });
      assertEquals(r.ok, true, JSON.stringify(r));
      assertIncludes(String((r.frame as R | undefined)?.url), "/editor", JSON.stringify(r));
      assertEquals(r.text, "Hello there");
    });
  } finally {
    await mcp.close();
    await srv.close();
  }
});
