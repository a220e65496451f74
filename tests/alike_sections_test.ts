/**
 * Matches alike that sit in sections, not rows (NU s17 finding 3): three `button "Buy"`, one
 * under each plan's heading, were refused with bare refs. Each is named by what names its
 * section (its nearest heading, or its section's own label), the refs act at once, and rows
 * still name theirs.
 */
import { servePages } from "./_util.ts";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { act, errorOf } from "./_results.ts";

const buy = (plan: string) =>
  `<button onclick="document.getElementById('status').textContent = '${plan}'">Buy</button>`;
const PAGE = `<!doctype html><title>Plans</title><h1>Plans</h1><p id=status>none</p>
<div class=plans>${
  ["Pro", "Team", "Enterprise"].map((p) => `<div><h2>${p}</h2><p>Good plan</p>${buy(p)}</div>`)
    .join("")
}</div>
<h2>Add-ons</h2>
${
  ["Storage", "Support"].map((a) =>
    `<div aria-label="${a} add-on"><span>Extra</span> <button>Add</button></div>`
  ).join("")
}
<div><button>Compare</button><h3>Heading after Alpha</h3></div>
<div><button>Compare</button><h3>Heading after Beta</h3></div>`;

Deno.test("matches alike in sections are listed by their sections' names", async (t) => {
  const site = servePages({ "/plans.html": PAGE });
  const mcp = await startStdio({
    env: { BROWX_CAPABILITIES: "read,navigation,action,eval", BROWX_TOOLSETS: "core,debug" },
  });
  const status = async () =>
    (await mcp.ok("eval_js", { expression: "document.getElementById('status').textContent" }))
      .value;
  try {
    await mcp.ok("navigate", { url: `${site.base}/plans.html`, snapshot: "none" });

    await t.step("by text: each Buy under its plan's heading, the ref acts", async () => {
      const r = await mcp.call("click", { selector: "text=Buy", snapshot: "none" });
      assertEquals(errorOf(r).code, "invalid-argument", textOf(r));
      assertIncludes(textOf(r), '3 elements alike (each a button "Buy")');
      const team = /(e\d+) under heading "Team"/.exec(textOf(r))?.[1];
      assertTrue(team !== undefined, textOf(r));
      assertIncludes(textOf(r), 'under heading "Pro"');
      assertIncludes(textOf(r), 'under heading "Enterprise"');
      assertEquals(await status(), "none");
      await act(mcp, "click", { ref: team, snapshot: "none" });
      assertEquals(await status(), "Team");
    });

    await t.step("by CSS: the same", async () => {
      const r = await mcp.call("click", { selector: ".plans button", snapshot: "none" });
      assertEquals(errorOf(r).code, "invalid-argument", textOf(r));
      assertIncludes(textOf(r), 'under heading "Pro"');
      const candidates = r.structuredContent?.candidates as Array<Record<string, string>>;
      assertEquals(candidates.map((c) => c.where), [
        'heading "Pro"',
        'heading "Team"',
        'heading "Enterprise"',
      ]);
    });

    await t.step("a labelled section is named by its label", async () => {
      const r = await mcp.call("click", { selector: "text=Add", snapshot: "none" });
      assertEquals(errorOf(r).code, "invalid-argument", textOf(r));
      assertIncludes(textOf(r), 'in "Storage add-on"');
      assertIncludes(textOf(r), 'in "Support add-on"');
    });

    await t.step("a section's heading after the button names it too", async () => {
      const r = await mcp.call("click", { selector: "text=Compare", snapshot: "none" });
      assertIncludes(textOf(r), 'under heading "Heading after Alpha"');
      assertIncludes(textOf(r), 'under heading "Heading after Beta"');
    });
  } finally {
    await mcp.close();
    await site.close();
  }
});
