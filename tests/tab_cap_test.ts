/**
 * The popup storm (red team s14 #10): Chromium runs with `--disable-popup-blocking`, and one
 * click on a page that loops `window.open()` opened 178+ tabs (a snapshot then timed out). A
 * session keeps at most `MAX_TABS` tabs open: the extras are closed as soon as they open, and
 * the click's result says so; the session stays usable.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { startTwoOrigins } from "./_two_origins.ts";
import { eventually } from "./_util.ts";
import { MAX_TABS } from "../browser/sessions/tab_cap.ts";

const STORM = 30;

Deno.test("tab cap: a page's popup storm is cut at the session's cap", async () => {
  const srv = startTwoOrigins(() => ({
    "/": `<title>storm</title><button id=go onclick="` +
      `for (let i = 0; i < ${STORM}; i++) window.open('/p?' + i)">go</button>`,
  }));
  const mcp = await startStdio();
  try {
    await mcp.ok("navigate", { url: `${srv.a}/`, snapshot: "none" });
    // Each window.open() waits for its tab to attach (~0.2 s here): the loop takes seconds.
    const r = await mcp.call("click", { selector: "#go", snapshot: "none", timeoutMs: 30_000 });
    assertEquals(r.isError, undefined, textOf(r));
    const warnings = (r.structuredContent!.warnings ?? []) as string[];
    const said = warnings.find((w) => w.includes("more tab(s) than the"));
    assertTrue(said !== undefined, textOf(r));
    assertIncludes(said!, `the ${MAX_TABS} a session keeps open`);
    const tabs = async () => ((await mcp.ok("tabs", { action: "list" })).tabs as unknown[]).length;
    // The storm's first tabs (up to the cap, with the opener) stay; the rest were closed.
    assertEquals(Number(/open (\d+) more/.exec(said!)?.[1]), STORM - (MAX_TABS - 1), said);
    await eventually(async () => (await tabs()) === MAX_TABS, 10_000, "the capped tab count");
    // Usable: a snapshot answers.
    await mcp.ok("snapshot", {});
  } finally {
    await mcp.close();
    await srv.close();
  }
});
