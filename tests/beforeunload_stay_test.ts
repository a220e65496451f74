/**
 * A page whose `beforeunload` asks to stay, with the dialog dismissed: `reload`, `go_back` and
 * `navigate` say the tab did not leave, at once (a new user's reload waited its whole 10 s and
 * said `moved: true` while the document stayed), and a click on a link says so instead of "the
 * page was still loading". Armed to accept, the reload leaves.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { errorOf } from "./_results.ts";
import { startFixtureServer } from "./fixtures/server.ts";

const STAYED = "beforeunload handler asked to stay and the dialog was dismissed";

Deno.test("beforeunload dismissed: the tab stays and the result says so at once", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const session = "stay";
  const marker = async () =>
    (await mcp.ok("eval_js", { session, expression: "window.marker ?? null" })).value;
  try {
    await mcp.ok("open_session", { session, url: fx.url("basic.html"), dialogs: "dismiss" });
    await mcp.ok("navigate", { session, url: fx.url("dialogs.html"), snapshot: "none" });
    // A user gesture on the page, then the handler: leaving now raises the dialog.
    await mcp.ok("click", { session, selector: "#beforeunload-toggle", snapshot: "none" });
    await mcp.ok("eval_js", { session, expression: "window.marker = 1" });

    const reload = await mcp.ok("reload", { session, snapshot: "none", timeoutMs: 8000 });
    assertEquals([reload.moved, reload.timedOut], [false, false], JSON.stringify(reload));
    assertTrue((reload.warnings as string[]).some((w) => w.includes(STAYED)));
    assertEquals((reload.dialogs as { kind: string }[])[0]?.kind, "beforeunload");
    assertEquals(await marker(), 1);

    const back = await mcp.ok("go_back", { session, snapshot: "none", timeoutMs: 8000 });
    assertEquals(back.moved, false, JSON.stringify(back));
    assertTrue((back.warnings as string[]).some((w) => w.includes(STAYED)));
    assertEquals(await marker(), 1);

    const nav = await mcp.call("navigate", { session, url: fx.url("basic.html"), timeoutMs: 8000 });
    assertEquals(errorOf(nav).code, "navigation-failed");
    assertIncludes(textOf(nav), "the page stayed (its beforeunload dialog was dismissed)");
    assertIncludes(textOf(nav), "handle_dialog({ accept: true })");
    assertEquals(await marker(), 1);

    const click = await mcp.ok("click", { session, selector: "text=Leave page", timeoutMs: 8000 });
    const said = click.warnings as string[];
    assertTrue(said.some((w) => w.includes(STAYED)), JSON.stringify(said));
    assertTrue(!said.some((w) => w.includes("still loading")), JSON.stringify(said));
    assertEquals(await marker(), 1);

    await mcp.ok("handle_dialog", { session, accept: true });
    const left = await mcp.ok("reload", { session, snapshot: "none", timeoutMs: 8000 });
    assertEquals(left.moved, true);
    assertEquals(await marker(), null);
  } finally {
    await mcp.close();
    await fx.close();
  }
});
