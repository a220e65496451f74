/**
 * A page whose own dialog Chromium cannot answer (it opened over a frame's: see
 * dialog_policy_test "overlap") stops the page's script: every later read or action fails at
 * once saying so and what to do, instead of waiting out its time ("Internal error" from a
 * snapshot, 30 s of `find`, in a red team's run); `navigate` leaves it, and the tab works again.
 * Which of two racing dialogs Chromium loses is not for a test to pick: the lost answer is
 * played by a session that fails as Chromium does, on the real session and page.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startInProcess } from "./_in_process.ts";
import { textOf } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { eventually } from "./_util.ts";
import type { CdpSession } from "../cdp/connection.ts";

Deno.test("a page blocked by a dialog Chromium cannot answer: calls fail at once; navigate leaves", async () => {
  const fx = await startFixtureServer();
  const server = await startInProcess({ BROWX_CAPABILITIES: "read,navigation,action,eval" });
  try {
    const nav = await server.call("navigate", { url: fx.url("dialogs.html"), snapshot: "none" });
    assertEquals(nav.isError, undefined, textOf(nav));
    const session = await server.sessions.get("default");
    const page = session.activePage!;
    const lost = {
      send: () => Promise.reject(new Error("Protocol error: No dialog is showing")),
    } as unknown as CdpSession;
    session.dialogs.answer(page.target.targetId, {
      url: page.url,
      frameId: page.mainFrameId,
      message: "Confirm transfer code",
      type: "prompt",
      hasBrowserHandler: true,
      defaultPrompt: "",
    }, lost);
    // The failed answer marks the record a moment later: wait for the page to read as blocked.
    await eventually(() => session.dialogs.blockedNote(page.mainFrameId));
    for (
      const [tool, args] of [["snapshot", {}], ["find", { query: "Alert" }], ["click", {
        selector: "#alert",
      }]] as const
    ) {
      const r = await server.call(tool, args);
      assertEquals(r.isError, true, textOf(r));
      assertIncludes(
        textOf(r),
        'The page cannot answer: blocked by its prompt "Confirm transfer code"',
      );
      assertIncludes(textOf(r), "navigate to another URL");
    }
    const left = await server.call("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    assertEquals(left.isError, undefined, textOf(left));
    const snap = await server.call("snapshot", {});
    assertEquals(snap.isError, undefined, textOf(snap));
  } finally {
    await server.close();
    await fx.close();
  }
});
