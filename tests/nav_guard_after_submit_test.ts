/**
 * The navigation guard after a declared submission: what the earlier call
 * sent must not colour the next one. A `target=_blank` link clicked right
 * after `fill({ submit: true })` moved the page is an ordinary link, not an
 * undeclared form.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { textOf, type ToolResult } from "./_mcp.ts";
import { sharedServerCases } from "./_shared_cases.ts";
import { startTwoOrigins } from "./_two_origins.ts";
import { act, actionOf } from "./_results.ts";
import { eventually } from "./_util.ts";

/**
 * The cases share one server (default configuration); each closes its sessions after it, so the
 * next starts on a fresh session as on a fresh server.
 */
const cases = sharedServerCases("navigation guard after a submit, one server");

cases.test("a target=_blank link right after a declared submit opens its tab", async (mcp, t) => {
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
    await srv.close();
  }
});

cases.test("after a refused form resend, the next move reports the real page", async (mcp, t) => {
  const srv = startTwoOrigins(() => ({
    // Cacheable: the back/forward cache may restore it (no request, no new response).
    "/p": () =>
      new Response(`<title>p</title><form method=post action="/res"><input id=q name=q></form>`, {
        headers: { "content-type": "text/html" },
      }),
    "/res": `<title>res</title><p>results</p>`,
  }));
  const refused = (r: ToolResult) => {
    assertEquals(r.isError, true, textOf(r));
    assertEquals((r.structuredContent!.policy as Record<string, unknown>).rule, "form-resend");
  };
  try {
    await mcp.ok("navigate", { url: `${srv.a}/p`, snapshot: "none" });
    await act(mcp, "fill", { selector: "#q", value: "cats", submit: true });

    await t.step("reload refused, then go_back: the form page's own status", async () => {
      refused(await mcp.call("reload", { snapshot: "none" }));
      const back = await act(mcp, "go_back", { snapshot: "none" });
      assertEquals(back.navigation.to, `${srv.a}/p`, JSON.stringify(back));
      assertEquals([back.httpStatus, back.contentType], [200, "text/html"], JSON.stringify(back));
    });

    await t.step("go_forward refused, then reload: the form page's own status", async () => {
      refused(await mcp.call("go_forward", { snapshot: "none" }));
      const again = await act(mcp, "reload", { snapshot: "none" });
      assertEquals(again.navigation.to, `${srv.a}/p`, JSON.stringify(again));
      assertEquals(
        [again.httpStatus, again.contentType],
        [200, "text/html"],
        JSON.stringify(again),
      );
    });
  } finally {
    await srv.close();
  }
});
