/**
 * `drag` end to end over MCP: an HTML5 sortable (draggable items reordered through drag
 * interception and a drop), dropping on a zone, a sortable of mouse events only, a native
 * range input and an ARIA slider driven by the pointer, drag by coordinates, a destination
 * scrolled into view (and one that cannot share the viewport with its source), a drag the
 * page ignores (the delta says nothing changed), the same element twice, a drag inside a
 * same-origin iframe, one inside a cross-origin (out-of-process) iframe, and one across
 * frames (refused).
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { type McpHarness, textOf } from "./_mcp.ts";
import { actionOf, type ActionResult, errorOf } from "./_results.ts";
import { eventually, refOf } from "./_util.ts";
import { sharedSiteCases } from "./_shared_cases.ts";

const ENV = {
  // sessions: close_session ends each case's default session.
  BROWX_TOOLSETS: "core,sessions,debug,power",
  BROWX_CAPABILITIES: "read,navigation,action,eval",
};

// One server and fixture site for every case; each case runs in a fresh default session.
const cases = sharedSiteCases("drag: sortables, sliders, frames, one server", { env: ENV });
const withPage = cases.withPage;

async function value(mcp: McpHarness, expression: string): Promise<unknown> {
  return (await mcp.ok("eval_js", { expression })).value;
}

const ORDER = `[...document.querySelectorAll("#list li")].map((li) => li.textContent).join(",")`;

type Drag = { from: { x: number; y: number }; to: { x: number; y: number }; via: string };

function dragOf(r: ActionResult): Drag {
  return (r as unknown as { drag: Drag }).drag;
}

cases.test("drag: HTML5 sortable reorders through a drop; the delta shows it", async () => {
  await withPage("drag-html5.html", async (mcp, tree) => {
    const r = actionOf(
      await mcp.call("drag", {
        from: { ref: refOf(tree, /listitem.*Alpha/) },
        to: { ref: refOf(tree, /listitem.*Charlie/) },
      }),
    );
    assertEquals(r.ok, true, JSON.stringify(r));
    assertEquals(dragOf(r).via, "html5");
    assertEquals(await value(mcp, ORDER), "Bravo,Charlie,Alpha,Delta");
    const log = await value(mcp, "window.dragLog.join(' ')") as string;
    assertIncludes(log, "dragstart:a");
    assertIncludes(log, "drop:c");
    assertIncludes(log, "dragend:a");
    // The move and the status line are in the delta.
    assertEquals((r.snapshotDelta as unknown as Record<string, unknown>).moved, 1);
    assertIncludes(JSON.stringify(r.snapshotDelta), "Moved Alpha");
    assertEquals((r.action as Record<string, unknown>).type, "drag");
  });
});

cases.test("drag: onto a drop zone by selector; a destination scrolled into view", async () => {
  await withPage("drag-html5.html", async (mcp) => {
    let r = actionOf(
      await mcp.call("drag", { from: { selector: "#d" }, to: { selector: "#bin" } }),
    );
    assertEquals(r.ok, true, JSON.stringify(r));
    assertEquals(await value(mcp, ORDER), "Alpha,Bravo,Charlie");
    assertIncludes(JSON.stringify(r.snapshotDelta), "Binned Delta in bin");
    // A zone below the fold, near enough to share the viewport with the source: scrolled in.
    const height = await value(mcp, "innerHeight") as number;
    await mcp.ok("eval_js", {
      expression: `document.getElementById("far").style.setProperty("--far", "${
        Math.round(height * 0.6)
      }px"), scrollTo(0, 0)`,
    });
    r = actionOf(await mcp.call("drag", { from: { selector: "#c" }, to: { selector: "#far" } }));
    assertEquals(r.ok, true, JSON.stringify(r));
    assertEquals(await value(mcp, ORDER), "Alpha,Bravo");
    assertTrue(dragOf(r).to.y < height, "dropped inside the viewport");
    // A zone below the fold of its own scroll container: the container scrolls it in.
    await mcp.ok("eval_js", {
      expression:
        `document.getElementById("far").style.setProperty("--far", "0px"), scrollTo(0, 0)`,
    });
    r = actionOf(await mcp.call("drag", { from: { selector: "#b" }, to: { selector: "#deep" } }));
    assertEquals(r.ok, true, JSON.stringify(r));
    assertEquals(await value(mcp, ORDER), "Alpha");
    assertIncludes(JSON.stringify(r.snapshotDelta), "Binned Bravo in deep");
    // Too far to share the viewport with the source: refused before anything is pressed.
    await mcp.ok("eval_js", {
      expression: `document.getElementById("far").style.setProperty("--far", "${
        height * 3
      }px"), scrollTo(0, 0)`,
    });
    const far = await mcp.call("drag", { from: { selector: "#a" }, to: { selector: "#far" } });
    assertEquals(far.isError, true);
    assertEquals(errorOf(far).code, "not-actionable");
    assertIncludes(textOf(far), "outside the viewport");
    assertEquals(await value(mcp, ORDER), "Alpha");
    assertEquals(
      await value(mcp, "window.dragLog.filter((e) => e.startsWith('dragstart')).length"),
      3,
    );
  });
});

cases.test("drag: a drag the page ignores says nothing changed; same element is refused", async () => {
  await withPage("drag-html5.html", async (mcp, tree) => {
    const r = actionOf(
      await mcp.call("drag", { from: { selector: "#still" }, to: { selector: "h1" } }),
    );
    assertEquals(r.ok, true, JSON.stringify(r));
    assertEquals(dragOf(r).via, "pointer");
    assertEquals(r.snapshotDelta?.unchanged, true, JSON.stringify(r.snapshotDelta));
    assertIncludes(JSON.stringify(r.warnings), "The drag changed nothing");
    const ref = refOf(tree, /listitem.*Bravo/);
    const same = await mcp.call("drag", { from: { ref }, to: { selector: "#b" } });
    assertEquals(errorOf(same).code, "invalid-argument");
    assertIncludes(textOf(same), "same element");
    const none = await mcp.call("drag", { from: {}, to: { x: 5, y: 5 } });
    assertIncludes(textOf(none), 'Missing target for "from"');
    const half = await mcp.call("drag", { from: { ref }, to: { x: 5 } });
    assertIncludes(textOf(half), "needs both x and y");
    assertEquals(await value(mcp, ORDER), "Alpha,Bravo,Charlie,Delta");
    // batch may run a drag.
    const batch = await mcp.ok("batch", {
      calls: [{ tool: "drag", args: { from: { selector: "#a" }, to: { selector: "#b" } } }],
    });
    assertEquals((batch.results as Array<{ ok: boolean }>)[0]!.ok, true, JSON.stringify(batch));
    assertEquals(await value(mcp, ORDER), "Bravo,Alpha,Charlie,Delta");
    // The mouse is free again: a click still works.
    await mcp.ok("click", { selector: "#b" });
  });
});

cases.test("drag: a pointer-events sortable, a range input and an ARIA slider", async () => {
  await withPage("drag-pointer.html", async (mcp, tree) => {
    let r = actionOf(
      await mcp.call("drag", {
        from: { ref: refOf(tree, /listitem.*One/) },
        to: { ref: refOf(tree, /listitem.*Three/) },
      }),
    );
    assertEquals(r.ok, true, JSON.stringify(r));
    assertEquals(dragOf(r).via, "pointer");
    const rows = `[...document.querySelectorAll(".row")].map((e) => e.textContent).join(",")`;
    assertEquals(await value(mcp, rows), "Two,Three,One");
    assertTrue((await value(mcp, "window.moves") as number) >= 5, "moves while pressed");
    assertIncludes(JSON.stringify(r.snapshotDelta), "One");

    // The range input: from its thumb (value 0, the left end) to a point near its right end.
    const box = await value(
      mcp,
      `(() => { const r = document.getElementById("range").getBoundingClientRect();
        return [r.left, r.top + r.height / 2, r.right]; })()`,
    ) as number[];
    r = actionOf(
      await mcp.call("drag", {
        from: { x: box[0]! + 6, y: box[1]! },
        to: { x: box[2]! - 2, y: box[1]! },
      }),
    );
    assertEquals(r.ok, true, JSON.stringify(r));
    assertTrue(Number(await value(mcp, "range.value")) >= 95, "range near its maximum");
    assertEquals(
      await value(mcp, `document.getElementById("range-out").textContent`),
      await value(mcp, "range.value"),
    );

    // The ARIA slider: its thumb (an element) to coords in the middle of its track.
    const track = await value(
      mcp,
      `(() => { const r = document.getElementById("aria").getBoundingClientRect();
        return [r.left + r.width / 2, r.top + r.height / 2]; })()`,
    ) as number[];
    r = actionOf(
      await mcp.call("drag", {
        from: { selector: "#thumb" },
        to: { x: track[0]!, y: track[1]! },
      }),
    );
    assertEquals(r.ok, true, JSON.stringify(r));
    const now = Number(await value(mcp, `aria.getAttribute("aria-valuenow")`));
    assertTrue(now >= 45 && now <= 55, `slider near the middle: ${now}`);
    assertIncludes(JSON.stringify(r.snapshotDelta), "Brightness");
  });
});

cases.test("drag: inside a same-origin iframe; across frames is refused", async () => {
  await withPage("drag-frames.html", async (mcp, tree) => {
    const inner = `document.getElementById("inner").contentDocument`;
    const order =
      `[...${inner}.querySelectorAll("#list li")].map((li) => li.textContent).join(",")`;
    const r = actionOf(
      await mcp.call("drag", {
        from: { ref: refOf(tree, /listitem.*Delta/) },
        to: { ref: refOf(tree, /listitem.*Alpha/) },
      }),
    );
    assertEquals(r.ok, true, JSON.stringify(r));
    assertEquals(dragOf(r).via, "html5");
    assertEquals(await value(mcp, order), "Delta,Alpha,Bravo,Charlie");
    const across = await mcp.call("drag", {
      from: { ref: refOf(tree, /listitem.*Bravo/) },
      to: { selector: "#outside" },
    });
    assertEquals(errorOf(across).code, "invalid-argument");
    assertIncludes(textOf(across), "different frames");
    assertEquals(await value(mcp, order), "Delta,Alpha,Bravo,Charlie");
  });
});

cases.test("drag: inside a cross-origin iframe (out of process), HTML5", async ({ fx, mcp }) => {
  const cross = fx.crossUrl("drag-html5.html");
  await mcp.ok("navigate", {
    url: fx.url(`iframes.html?cross=${encodeURIComponent(cross)}`),
    snapshot: "none",
  });
  const tree = await eventually(async () => {
    const t = String((await mcp.ok("snapshot")).tree);
    return /listitem.*Bravo/.test(t) && t;
  });
  const r = actionOf(
    await mcp.call("drag", {
      from: { ref: refOf(tree, /listitem.*Bravo/) },
      to: { ref: refOf(tree, /listitem.*Alpha/) },
    }),
  );
  assertEquals(r.ok, true, JSON.stringify(r));
  assertEquals(dragOf(r).via, "html5");
  assertIncludes(JSON.stringify(r.snapshotDelta), "Moved Bravo");
  const after = String((await mcp.ok("snapshot")).tree);
  assertTrue(
    after.indexOf("Bravo") < after.indexOf("Alpha"),
    `Bravo before Alpha in the frame:\n${after}`,
  );
});
