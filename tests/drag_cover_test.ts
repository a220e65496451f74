/**
 * `drag` and what covers its ends, end to end over MCP (a new user's finding, session 15): a
 * drop point under a fixed cookie banner is scrolled clear as a click's target is (and a
 * covered source too); a destination no scroll clears fails as `covered` before anything is
 * pressed; a point source is not scrolled away from; a drag that dropped nothing and changed
 * nothing says so in a warning (HTML5 and pointer-only).
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { textOf } from "./_mcp.ts";
import { actionOf, type ActionResult, errorOf } from "./_results.ts";
import { sharedSiteCases } from "./_shared_cases.ts";
import type { McpHarness } from "./_mcp.ts";

const ENV = {
  BROWX_TOOLSETS: "core,sessions,debug",
  BROWX_CAPABILITIES: "read,navigation,action,eval",
};

const cases = sharedSiteCases("drag: covered ends, drops that did nothing", { env: ENV });
const withPage = cases.withPage;

async function value(mcp: McpHarness, expression: string): Promise<unknown> {
  return (await mcp.ok("eval_js", { expression })).value;
}

const ORDER = `document.getElementById("order").textContent`;
/** What is at the center of the list's nth row (its text, or the cover's id). */
const AT_ROW = (n: number) =>
  `(() => { const r = document.querySelector("#dnd li:nth-child(${n})").getBoundingClientRect();
    const el = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return el.closest("[id]")?.id === "banner" ? "banner" : el.textContent; })()`;

function warningsOf(r: ActionResult): string {
  return JSON.stringify((r as unknown as { warnings?: string[] }).warnings ?? []);
}

cases.test("drag: a drop point under a fixed banner is scrolled clear; a covered source too", async () => {
  await withPage("drag-banner.html", async (mcp) => {
    // As the new user found it: the last row lies under the cookie bar.
    assertEquals(await value(mcp, AT_ROW(4)), "banner");
    let r = actionOf(
      await mcp.call("drag", {
        from: { selector: "#dnd li:nth-child(1)" },
        to: { selector: "#dnd li:nth-child(4)" },
      }),
    );
    assertEquals(r.ok, true, JSON.stringify(r));
    assertEquals(await value(mcp, ORDER), "Order: B, C, D, A");
    const to = (r as unknown as { drag: { to: { y: number }; via: string } }).drag;
    assertEquals(to.via, "html5");
    assertTrue(to.to.y < (await value(mcp, "innerHeight - 90") as number), "dropped clear");
    assertEquals(warningsOf(r), "[]");
    // Now the source is the covered one (A, last again at the top of the page).
    await value(mcp, "scrollTo(0, 0)");
    assertEquals(await value(mcp, AT_ROW(4)), "banner");
    r = actionOf(
      await mcp.call("drag", {
        from: { selector: "#dnd li:nth-child(4)" },
        to: { selector: "#dnd li:nth-child(1)" },
      }),
    );
    assertEquals(r.ok, true, JSON.stringify(r));
    assertEquals(await value(mcp, ORDER), "Order: B, A, C, D");
  });
});

cases.test("drag: a destination no scroll clears is refused as covered; a point source is not scrolled", async () => {
  await withPage("drag-banner.html", async (mcp) => {
    // A fixed sidebar over the drop zone: no vertical scroll clears it.
    await value(mcp, `document.getElementById("side").style.display = "block"`);
    const side = await mcp.call("drag", {
      from: { selector: "#dnd li:nth-child(1)" },
      to: { selector: "#zone" },
    });
    assertEquals(side.isError, true, textOf(side));
    assertEquals(errorOf(side).code, "covered");
    assertIncludes(textOf(side), "Did not drag: the destination is covered by");
    assertIncludes(textOf(side), "Help panel");
    assertTrue(!textOf(side).includes("press Enter"), textOf(side));
    assertEquals(await value(mcp, `document.getElementById("zone").textContent`), "Drop here");
    // Without it the zone takes the drop.
    await value(mcp, `document.getElementById("side").style.display = "none"`);
    const ok = actionOf(
      await mcp.call("drag", {
        from: { selector: "#dnd li:nth-child(2)" },
        to: { selector: "#zone" },
      }),
    );
    assertEquals(ok.ok, true, JSON.stringify(ok));
    assertEquals(await value(mcp, `document.getElementById("zone").textContent`), "Dropped B");
    // A point source: scrolling would move what it names, so a covered destination fails.
    await value(mcp, "scrollTo(0, 0)");
    const [x, y] = await value(
      mcp,
      `(() => { const r = document.querySelector("#dnd li").getBoundingClientRect();
        return [r.left + r.width / 2, r.top + r.height / 2]; })()`,
    ) as number[];
    const point = await mcp.call("drag", {
      from: { x: x!, y: y! },
      to: { selector: "#dnd li:nth-child(4)" },
    });
    assertEquals(errorOf(point).code, "covered", textOf(point));
    assertIncludes(textOf(point), "Cookie consent");
    assertEquals(await value(mcp, "scrollY"), 0);
    assertEquals(await value(mcp, ORDER), "Order: A, B, C, D");
  });
});

cases.test("drag: a drag that dropped nothing and changed nothing says so", async () => {
  await withPage("drag-html5.html", async (mcp) => {
    const ORDER5 = `[...document.querySelectorAll("#list li")].map((li) => li.id).join("")`;
    // An HTML5 drag onto text that takes no drops: no drop event, nothing changed.
    let r = actionOf(
      await mcp.call("drag", { from: { selector: "#a" }, to: { selector: "#still" } }),
    );
    assertEquals(r.ok, true, JSON.stringify(r));
    assertIncludes(warningsOf(r), "Nothing was dropped");
    assertEquals(await value(mcp, ORDER5), "abcd");
    // Mouse events only, on text nobody drags.
    r = actionOf(
      await mcp.call("drag", { from: { selector: "#still" }, to: { selector: "#bin" } }),
    );
    assertEquals(r.ok, true, JSON.stringify(r));
    assertIncludes(warningsOf(r), "The drag changed nothing");
    // A drop that did something: no such warning.
    r = actionOf(await mcp.call("drag", { from: { selector: "#a" }, to: { selector: "#c" } }));
    assertEquals(await value(mcp, ORDER5), "bcad");
    assertTrue(!warningsOf(r).includes("Nothing was dropped"), warningsOf(r));
  });
});
