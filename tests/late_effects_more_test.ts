/**
 * Effects an action starts by other means than `setTimeout` are the action's too: an interval's
 * first run, a CSS transition or animation and what its end event does, a Web Animation's
 * `finished`, a chain of animation frames, a `scheduler.postTask` with a delay, a
 * MessageChannel loop, and what a cross-origin child frame does a moment after the parent's
 * message (a dialog, a popup, a top navigation). Each shows 150–250 ms after the click, past
 * the window's quiet moment: it is in the click's own result, not the next call's
 * `sinceLastCall`. The page runs its own frame loop and an endless spinner meanwhile, which
 * no action waits for.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { act } from "./_results.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { sharedServerCases } from "./_shared_cases.ts";

// One server for these cases; each case ends with its sessions closed.
const cases = sharedServerCases("late effects (default capabilities), one server");

const shown = (r: unknown) => JSON.stringify(r);

Deno.test("late effects: an action's intervals, animations, frames and tasks are in its result", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const open = () => mcp.ok("navigate", { url: fx.url("late-more.html"), snapshot: "none" });
  const click = async (id: string, args: Record<string, unknown> = {}) => {
    await open();
    return await act(mcp, "click", { selector: "#" + id, ...args });
  };
  try {
    await t.step("an interval's first run renders", async () => {
      const r = await click("interval");
      assertIncludes(shown(r.snapshotDelta), "Interval done");
    });
    await t.step("an interval's first run raises an alert", async () => {
      const r = await click("interval-alert", { snapshot: "none" });
      assertEquals(r.dialogs?.map((d) => d.message), ["Interval alert"]);
      assertEquals(r.sinceLastCall, undefined);
    });
    await t.step("an interval that never stops opens a tab on its first run", async () => {
      const r = await click("interval-popup", { snapshot: "none" });
      assertIncludes(shown(r.structure?.newTabs ?? []), "basic.html#popup");
      await mcp.ok("close_session", { session: "default" });
    });
    await t.step("an interval's first run opens a file chooser", async () => {
      const r = await click("interval-chooser", { snapshot: "none" });
      assertEquals(r.fileChooser, true);
    });
    await t.step("a CSS transition's end renders", async () => {
      const r = await click("transition");
      assertIncludes(shown(r.snapshotDelta), "Transition done");
    });
    await t.step("a CSS transition's end sends a POST, then renders", async () => {
      const r = await click("transition-post");
      assertIncludes(shown(r.network?.mutations ?? []), "saved");
      assertIncludes(shown(r.snapshotDelta), "Saved after transition");
    });
    await t.step("a CSS animation's end renders", async () => {
      const r = await click("animation");
      assertIncludes(shown(r.snapshotDelta), "Animation done");
    });
    await t.step("a Web Animation's finished promise renders", async () => {
      const r = await click("waapi");
      assertIncludes(shown(r.snapshotDelta), "Web animation done");
    });
    await t.step("a transition's end in a closed shadow tree renders", async () => {
      const r = await click("shadow-transition");
      assertIncludes(shown(r.snapshotDelta), "Shadow transition done");
    });
    await t.step("a Web Animation's end in a closed shadow tree renders", async () => {
      const r = await click("shadow-waapi");
      assertIncludes(shown(r.snapshotDelta), "Shadow web animation done");
    });
    await t.step("the wrapped built-ins look and behave as the browser's own", async () => {
      await open();
      const looks = await mcp.ok("eval_js", {
        expression: `(() => {
          const port1 = Object.getOwnPropertyDescriptor(MessageChannel.prototype, "port1").get;
          const c = new MessageChannel();
          return [
            String(setInterval), setInterval.name, setInterval.length,
            String(requestAnimationFrame), requestAnimationFrame.length,
            String(scheduler.postTask), String(MessagePort.prototype.postMessage),
            String(port1), port1.name, c.port1 instanceof MessagePort, c.port1 === c.port1,
            String(Element.prototype.attachShadow), String(Element.prototype.animate),
            "prototype" in requestAnimationFrame,
          ];
        })()`,
      });
      assertEquals(looks.value, [
        "function setInterval() { [native code] }",
        "setInterval",
        1,
        "function requestAnimationFrame() { [native code] }",
        1,
        "function postTask() { [native code] }",
        "function postMessage() { [native code] }",
        "function get port1() { [native code] }",
        "get port1",
        true,
        true,
        "function attachShadow() { [native code] }",
        "function animate() { [native code] }",
        false,
      ]);
    });
    await t.step("a chain of twelve animation frames renders", async () => {
      const r = await click("raf");
      assertIncludes(shown(r.snapshotDelta), "Frames done");
    });
    await t.step("a chain of ten animation frames navigates", async () => {
      const r = await click("raf-nav", { snapshot: "none" });
      assertEquals(r.navigation?.changed, true);
      assertIncludes(r.navigation?.to ?? "", "/basic.html");
    });
    await t.step("a task posted with a delay renders", async () => {
      const r = await click("posttask");
      assertIncludes(shown(r.snapshotDelta), "Task done");
    });
    await t.step("a MessageChannel loop renders when it ends", async () => {
      const r = await click("msgloop");
      assertIncludes(shown(r.snapshotDelta), "Messages done");
    });
    await t.step(
      "with nothing pending, the page's frame loop and spinner hold nothing",
      async () => {
        const r = await click("count");
        assertIncludes(shown(r.snapshotDelta), "Count 1");
        assertEquals(r.warnings ?? [], []);
      },
    );
    // The watch counting nothing for the page's own frame loop, a spinner, a colour change:
    // asked from inside in tests/timer_watch_test.ts (the page cannot reach the watch).
  } finally {
    await mcp.close();
    await fx.close();
  }
});

cases.test(
  "late effects: what a cross-origin child frame does a moment after the click",
  async (mcp, t) => {
    const fx = await startFixtureServer();
    const child = fx.crossUrl(`late-frame-child.html?back=${encodeURIComponent(fx.origin)}`);
    const open = () =>
      mcp.ok("navigate", {
        url: fx.url(`late-frame.html?child=${encodeURIComponent(child)}`),
        snapshot: "none",
      });
    try {
      await t.step("the child's alert", async () => {
        await open();
        const r = await act(mcp, "click", { selector: "#alert", snapshot: "none" });
        assertEquals(r.dialogs?.map((d) => d.message), ["Child alert"]);
        assertEquals(r.sinceLastCall, undefined);
      });
      await t.step("the child's popup", async () => {
        await open();
        const r = await act(mcp, "click", { selector: "#open", snapshot: "none" });
        assertIncludes(shown(r.structure?.newTabs ?? []), "from=child");
        await mcp.ok("close_session", { session: "default" });
      });
      await t.step("the child moves the top page", async () => {
        await open();
        const r = await act(mcp, "click", { selector: "#top", snapshot: "none" });
        assertEquals(r.navigation?.changed, true);
        assertIncludes(r.navigation?.to ?? "", "top=1");
      });
    } finally {
      await fx.close();
    }
  },
);

cases.test("late effects: a poll a page starts at load does not hold the navigation", async (mcp) => {
  const fx = await startFixtureServer();
  try {
    // The page's render 200 ms in is the navigation's (a short timer of its start); that the
    // watch counts nothing of the 500 ms poll then is asked in tests/timer_watch_test.ts (the
    // page cannot reach the watch any more).
    const r = await act(mcp, "navigate", { url: fx.url("load-poll.html"), snapshot: "full" });
    assertEquals(r.ok, true);
    assertIncludes(shown(r.snapshotDelta), "Rendered");
  } finally {
    await fx.close();
  }
});
