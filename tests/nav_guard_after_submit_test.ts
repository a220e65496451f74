/**
 * The navigation guard after a declared submission: what the earlier call
 * sent must not colour the next one. A `target=_blank` link clicked right
 * after `fill({ submit: true })` moved the page is an ordinary link, not an
 * undeclared form.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { startTwoOrigins } from "./_two_origins.ts";
import { act, actionOf } from "./_results.ts";
import { eventually } from "./_util.ts";

Deno.test("navigation guard: a target=_blank link right after a declared submit opens its tab", async (t) => {
  const srv = startTwoOrigins(() => ({
    "/f": `<title>f</title><form action="/res"><input id=q name=q></form>`,
    "/res": `<title>res</title><p>results</p><a id=l target=_blank href="/other">other</a>`,
    "/p": `<title>p</title><form method=post action="/res"><input id=q name=q></form>`,
    // An app's form: its script sends it and shows the results in place (history.pushState).
    "/spa": `<title>spa</title><form id=f action="/api"><input id=q name=q></form><main></main>` +
      `<script>f.addEventListener("submit", async (e) => { e.preventDefault();` +
      ` await fetch("/api", { method: "POST", body: new FormData(f) });` +
      ` history.pushState(null, "", "/spa/res");` +
      ` document.querySelector("main").innerHTML =` +
      ` '<p>results</p><a id=l target=_blank href="/other">other</a>' +` +
      ` '<button id=like onclick="fetch(\\'/like\\', { method: \\'POST\\' })">like</button>'; });` +
      `</script>`,
  }));
  const mcp = await startStdio();
  try {
    const forms = [["a GET form", "/f"], ["a POST form", "/p"], ["an app's form", "/spa"]];
    for (const [name, path] of forms) {
      await t.step(`${name}: the link is not a submission`, async () => {
        await mcp.ok("navigate", { url: `${srv.a}${path}`, snapshot: "none" });
        const f = await act(mcp, "fill", { selector: "#q", value: "cats", submit: true });
        assertEquals(f.submitted, true);
        assertIncludes(f.navigation.to, "res");
        const r = await mcp.call("click", { selector: "#l", snapshot: "none" });
        assertEquals(r.isError, undefined, textOf(r));
        const opened = actionOf(r).structure.newTabs;
        assertEquals(opened.length, 1, textOf(r));
        assertIncludes(opened[0]!.url, "/other");
        await mcp.ok("tabs", { action: "close", index: opened[0]!.index });
      });
    }

    await t.step("an app's write in the next call (no submit event) is not the form", async () => {
      await mcp.ok("navigate", { url: `${srv.a}/spa`, snapshot: "none" });
      await act(mcp, "fill", { selector: "#q", value: "dogs", submit: true });
      await act(mcp, "click", { selector: "#like", snapshot: "none" });
      await eventually(() => srv.seen("A").includes("POST /like"), 5000, "the like to be sent");
    });
  } finally {
    await mcp.close();
    await srv.close();
  }
});
