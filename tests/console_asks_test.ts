/**
 * ask_human and highlight with the web console over MCP against real Chromium (the viewer
 * played through the hub, `_in_process.ts`): without a viewer watching, both answer
 * `unattended` at once; once a viewer watches the session, highlight's box and note are in the
 * `highlights` slice, ask_human answers `awaiting_user` and its instruction shows in the `asks`
 * slice until the person marks it done — then the client gets a log notification and the
 * session's next result carries `sinceLastCall.asksDone`, once.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { eventually, refOf } from "./_util.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startInProcess } from "./_in_process.ts";
import type { Viewer } from "../mcp/console/hub.ts";
import type { AskView, HighlightView } from "../mcp/console/human_asks.ts";

type R = Record<string, unknown>;

Deno.test("console asks: unattended without a watcher; shown, done and reported with one", async () => {
  const fx = await startFixtureServer();
  const server = await startInProcess({ BROWX_TOOLSETS: "core,sessions,human" });
  const { hub, call, sessions } = server;
  const viewer: Viewer = { id: 1, send: () => {} };
  try {
    await call("navigate", { url: fx.url("form.html"), snapshot: "none" });
    const ref = refOf(String((await call("snapshot")).structuredContent?.tree), "Sign up");
    // A console is open, but nobody watches this session: still unattended.
    hub.addViewer(viewer);
    const alone = await call("ask_human", { instruction: "Log in" });
    assertEquals((alone.structuredContent?.error as R).code, "unattended");
    assertEquals(hub.state().asks, []);

    // The viewer watches the session (what the live socket's `watch` does).
    const session = sessions.list().find((s) => s.id === "default")!;
    session.human.addViewer(1);
    const h = await call("highlight", { ref, note: "press this" });
    assertEquals(h.isError, undefined, JSON.stringify(h.content));
    const [shown] = hub.state().highlights as HighlightView[];
    assertEquals([shown!.client, shown!.session, shown!.ref, shown!.note], [
      "stdio",
      "default",
      ref,
      "press this",
    ]);
    assertTrue(shown!.box!.width > 0 && shown!.box!.height > 0, JSON.stringify(shown!.box));

    const asked = await call("ask_human", { instruction: "Solve the CAPTCHA", ref });
    assertEquals(asked.structuredContent?.status, "awaiting_user");
    const id = String(asked.structuredContent?.ask);
    const [ask] = hub.state().asks as AskView[];
    assertEquals([ask!.id, ask!.instruction, ask!.status, ask!.ref], [
      id,
      "Solve the CAPTCHA",
      "awaiting_user",
      ref,
    ]);

    // The person marks it done.
    assertEquals(await hub.handle({ type: "ask-done", id }, viewer), { type: "ask-done", id });
    assertEquals((hub.state().asks as AskView[])[0]!.status, "done");
    const note = await eventually(
      () => server.logs.find((l) => (l.data as R)?.event === "ask-done"),
      5000,
      "the ask-done notification",
    );
    assertEquals(note.level, "info");
    assertEquals((note.data as R).ask, id);
    const next = await call("get_url");
    assertEquals(
      (next.structuredContent?.sinceLastCall as R | undefined)?.asksDone,
      [{ id, instruction: "Solve the CAPTCHA" }],
    );
    const after = await call("get_url");
    assertEquals(after.structuredContent?.sinceLastCall, undefined, "carried once");
    // Done already: an error reply.
    const again = await hub.handle({ type: "ask-done", id }, viewer);
    assertIncludes(String(again?.error), "no pending ask");
  } finally {
    hub.removeViewer(viewer);
    await server.close();
    await fx.close();
  }
});
