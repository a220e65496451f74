/**
 * The console's Control panel in a real browser (issue 15): a person picks an element on the
 * live view and the agent clicks it by its p ref; the person takes over, types into a field
 * through the live view (the field's value changes) while the agent's click is refused, and
 * hands back.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { type ConsoleViewer, openConsole, startConsoleStdio } from "./_console.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { eventually } from "./_util.ts";
import { Keyboard } from "../cdp/input.ts";

type R = Record<string, unknown>;

/** Where a point of the agent's page (CSS px) is on the console's live image. */
async function onLive(
  viewer: ConsoleViewer,
  page: { x: number; y: number; vw: number; vh: number },
): Promise<{ x: number; y: number }> {
  const r = await viewer.eval<{ left: number; top: number; width: number; height: number }>(
    `(() => { const r = document.querySelector(".live-img").getBoundingClientRect();
      return { left: r.left, top: r.top, width: r.width, height: r.height }; })()`,
  );
  return { x: r.left + page.x * r.width / page.vw, y: r.top + page.y * r.height / page.vh };
}

Deno.test("console control: pick an element the agent clicks by its p ref; take over, type, hand back", async () => {
  const fx = await startFixtureServer();
  const server = await startConsoleStdio({
    env: {
      BROWX_CAPABILITIES: "read,navigation,action,eval",
      BROWX_TOOLSETS: "core,sessions,debug,human",
    },
  });
  let viewer: ConsoleViewer | undefined;
  try {
    const mcp = server.mcp;
    await mcp.ok("navigate", { url: fx.url("control.html"), snapshot: "none" });
    /** The center of `selector` in the agent's page, with the viewport's size. */
    const center = async (selector: string) =>
      JSON.parse(String(
        (await mcp.ok("eval_js", {
          expression: `JSON.stringify((() => { const r = document.querySelector(${
            JSON.stringify(selector)
          }).getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2, vw: innerWidth, vh: innerHeight }; })())`,
        })).value,
      )) as { x: number; y: number; vw: number; vh: number };
    viewer = await openConsole(server.url);
    const v = viewer;
    await v.waitFor('[data-panel="control"][data-control="agent"]');
    await eventually(async () => (await v.frame()).count > 0, 15_000, "a live frame");

    // Pick: the hover hint names the element, the click hands the agent p1.
    await v.click("[data-pick-toggle]");
    const add = await onLive(v, await center("#add"));
    await v.page.send("Input.dispatchMouseEvent", { type: "mouseMoved", ...add });
    await eventually(
      async () =>
        (await v.eval<string | null>(
          `document.querySelector("[data-pick-hint]")?.dataset.pickHint ?? null`,
        )) === "button#add.primary.big",
      10_000,
      "the pick hint",
    );
    await v.clickAt(add.x, add.y);
    await v.waitFor('[data-pick="p1"]');
    const picked = await mcp.ok("picked");
    assertEquals(((picked.picks as R[])[0]!).ref, "p1");
    await mcp.ok("click", { ref: "p1" });
    assertIncludes(String((await mcp.ok("snapshot")).tree), "Count: 1");

    // Take over: the agent's click is refused (and its eval_js: measured before); the person
    // types into the field.
    const fieldAt = await center("#field");
    await v.click("[data-takeover]");
    await v.waitFor('[data-panel="control"][data-control="human"]');
    const refused = await mcp.call("click", { selector: "#add" });
    assertEquals(((refused.structuredContent as R).error as R).code, "human-has-control");
    const field = await onLive(v, fieldAt);
    await v.clickAt(field.x, field.y);
    await new Keyboard(v.page.session).type("hi");
    await eventually(
      async () => String((await mcp.ok("snapshot")).tree).includes(": hi"),
      10_000,
      "the typed text in the field",
    );
    assertIncludes(String((await mcp.ok("snapshot")).tree), "Count: 1");

    // Hand back: the agent acts again, and is told.
    await v.click("[data-handback]");
    await v.waitFor('[data-panel="control"][data-control="agent"]');
    const back = await mcp.ok("click", { selector: "#add" });
    assertEquals((back.sinceLastCall as R)?.control, { by: "agent" }, JSON.stringify(back));
    assertIncludes(String((await mcp.ok("snapshot")).tree), "Count: 2");
  } finally {
    await viewer?.close();
    await server.close();
    await fx.close();
  }
});
