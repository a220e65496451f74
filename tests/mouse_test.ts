/**
 * `mouse` end to end over MCP on a map-like canvas: the wheel zooms (the page shows the
 * zoom level; Control held with `modifiers`), down, moves and up draw a stroke (the page
 * reports its path: the button stays held between calls), a click at coords drops a pin,
 * coords outside the viewport fail with its size.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { type McpHarness, textOf } from "./_mcp.ts";
import { actionOf, errorOf } from "./_results.ts";
import type { FixtureServer } from "./fixtures/server.ts";
import { sharedSiteCases } from "./_shared_cases.ts";

const ENV = {
  // sessions: each case's sessions are closed after it.
  BROWX_TOOLSETS: "core,sessions,debug,power",
  BROWX_CAPABILITIES: "read,navigation,action,eval",
};

// One server and fixture site for every case; each case starts in a fresh default session.
const cases = sharedSiteCases("mouse on a canvas, one server", { env: ENV });

async function withCanvas(fn: (mcp: McpHarness, fx: FixtureServer) => Promise<void>) {
  await cases.withPage("mouse-canvas.html", (mcp, _tree, fx) => fn(mcp, fx));
}

async function value(mcp: McpHarness, expression: string): Promise<unknown> {
  return (await mcp.ok("eval_js", { expression })).value;
}

/** The canvas's top-left corner in the viewport, CSS px. */
async function origin(mcp: McpHarness): Promise<{ x: number; y: number }> {
  const [x, y] = await value(
    mcp,
    `(() => { const r = document.getElementById("c").getBoundingClientRect(); return [r.left, r.top]; })()`,
  ) as number[];
  return { x: x!, y: y! };
}

cases.test("mouse: the wheel zooms a canvas; the result's delta shows the new level", async () => {
  await withCanvas(async (mcp) => {
    const o = await origin(mcp);
    let r = actionOf(
      await mcp.call("mouse", { action: "wheel", x: o.x + 100, y: o.y + 100, deltaY: -120 }),
    );
    assertEquals(r.ok, true, JSON.stringify(r));
    assertIncludes(JSON.stringify(r.snapshotDelta), "Zoom 110%");
    assertEquals(await value(mcp, "window.canvasLog.wheel"), [-120]);
    r = actionOf(
      await mcp.call("mouse", {
        action: "wheel",
        x: o.x + 100,
        y: o.y + 100,
        deltaY: 240,
        modifiers: ["Control"],
      }),
    );
    assertEquals(r.ok, true, JSON.stringify(r));
    assertEquals(
      await value(mcp, `document.getElementById("zoom").textContent`),
      "Zoom 100% (ctrl)",
    );
    assertEquals((r.action as Record<string, unknown>).deltaY, 240);
  });
});

cases.test("mouse: down, moves and up draw a stroke; click at coords drops a pin", async () => {
  await withCanvas(async (mcp) => {
    const o = await origin(mcp);
    const at = (x: number, y: number) => ({ x: o.x + x, y: o.y + y });
    let r = actionOf(await mcp.call("mouse", { action: "down", ...at(10, 10) }));
    assertEquals(r.ok, true, JSON.stringify(r));
    assertEquals((r as unknown as { pointer: unknown }).pointer, {
      ...at(10, 10),
      buttons: ["left"],
    });
    assertIncludes(r.warnings.join(" "), "left button held");
    await mcp.ok("mouse", { action: "move", ...at(60, 40) });
    await mcp.ok("mouse", { action: "move", ...at(120, 80) });
    r = actionOf(await mcp.call("mouse", { action: "up", ...at(200, 100) }));
    assertEquals((r as unknown as { pointer: { buttons: string[] } }).pointer.buttons, []);
    assertEquals(r.warnings, []);
    assertEquals(await value(mcp, "window.canvasLog.strokes"), [[
      [10, 10],
      [60, 40],
      [120, 80],
      [200, 100],
      [200, 100],
    ]]);
    assertIncludes(JSON.stringify(r.snapshotDelta), "Stroke of 5 points");
    // A move with no button held draws nothing.
    await mcp.ok("mouse", { action: "move", ...at(300, 200) });
    assertEquals(await value(mcp, "window.canvasLog.strokes.length"), 1);

    r = actionOf(
      await mcp.call("mouse", { action: "click", ...at(50, 60), modifiers: ["Shift"] }),
    );
    assertEquals(r.ok, true, JSON.stringify(r));
    assertEquals(
      await value(mcp, `document.getElementById("pins").textContent`),
      "Pin at 50,60 (shift)",
    );
  });
});

cases.test("mouse: coords outside the viewport fail with its size; bad input", async () => {
  await withCanvas(async (mcp) => {
    const size = await value(mcp, "[innerWidth, innerHeight]") as number[];
    const far = await mcp.call("mouse", { action: "click", x: size[0]! + 10, y: 5 });
    assertEquals(far.isError, true);
    assertEquals(errorOf(far).code, "invalid-argument");
    assertIncludes(textOf(far), "outside the viewport");
    assertTrue(/\d+x\d+ CSS px/.test(textOf(far)), textOf(far));
    const neg = await mcp.call("mouse", { action: "down", x: 5, y: -1 });
    assertIncludes(textOf(neg), "outside the viewport");
    const noDelta = await mcp.call("mouse", { action: "wheel", x: 5, y: 5, deltaY: 0 });
    assertIncludes(textOf(noDelta), "needs deltaX or deltaY");
    const count = await mcp.call("mouse", { action: "move", x: 5, y: 5, clickCount: 2 });
    assertIncludes(textOf(count), "clickCount is for");
    assertEquals(await value(mcp, "window.canvasLog.clicks.length"), 0);
  });
});
