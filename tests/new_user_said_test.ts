/**
 * What new users were told, and should have been:
 * - a script or stylesheet answered 404 shows its status, not "canceled" (Chromium cancels
 *   such a body: the status is what went wrong);
 * - `find` marks a paragraph matched by its words not actionable (a button, a link, a
 *   clickable card are);
 * - a form sent into a new tab (`target=_blank`) the guard stopped says which tab it was to
 *   load in and where this tab stands, not "the tab has not moved ()";
 * - a fill of a 20 MB value that runs out of time blames the value's size, not a page script.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { errorOf } from "./_results.ts";
import { servePages } from "./_util.ts";

type R = Record<string, unknown>;

const PAGES: Record<string, string> = {
  "/missing": `<!doctype html><title>Missing</title><h1>Missing parts</h1>
<script src="/nope.js"></script><link rel=stylesheet href="/gone.css"><img src="/none.png" alt="x">`,
  "/find": `<!doctype html><title>Find</title><h1>Shipping policy</h1>
<p>Our shipping policy covers every order we send.</p>
<button>Read the shipping policy</button>
<div style="cursor: pointer" id="card">Shipping policy card</div>
<script>card.addEventListener("click", () => document.title = "card")</script>`,
  "/blank-form": `<!doctype html><title>Form</title>
<form action="/done" target="_blank"><input name=q aria-label=Query><button>Go</button></form>
<textarea aria-label=Big></textarea>`,
  "/done": `<!doctype html><title>Done</title><p>done</p>`,
};

Deno.test("new user: statuses, actionable, new-tab forms and huge fills are said right", async (t) => {
  const server = servePages(PAGES);
  const { base } = server;
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,power,debug" } });
  try {
    await t.step("a 404 script or stylesheet shows 404, not canceled", async () => {
      const nav = await mcp.ok("navigate", { url: `${base}/missing`, snapshot: "none" });
      const requests = ((nav.network as R).requests as R[]).filter((r) => r.status === 404);
      assertEquals(requests.length, 3, JSON.stringify(nav.network));
      for (const r of requests) {
        assertEquals([r.failed, r.errorText], [true, undefined], JSON.stringify(r));
      }
      const read = await mcp.ok("network_read");
      const entries = (read.entries as R[]).filter((e) => /nope|gone|none/.test(String(e.url)));
      assertEquals(entries.length, 3, JSON.stringify(read));
      assertTrue(entries.every((e) => e.status === 404 && !("errorText" in e)), "no errorText");
      const bad = await mcp.call("network_read", { since_seq: "yesterday" });
      assertEquals(errorOf(bad).code, "invalid-argument", textOf(bad));
    });

    await t.step(
      "find: a paragraph is not actionable; a button and a clickable card are",
      async () => {
        await mcp.ok("navigate", { url: `${base}/find`, snapshot: "none" });
        const found = await mcp.ok("find", { query: "shipping policy", limit: 5 });
        const by = (role: string) =>
          (found.candidates as R[]).find((c) => c.role === role || String(c.name).includes(role));
        const para = await mcp.ok("find", { query: "shipping policy covers every order" });
        const p = (para.candidates as R[])[0]!;
        assertEquals([p.role, p.actionable], ["paragraph", false], JSON.stringify(p));
        assertEquals(by("button")?.actionable, true, JSON.stringify(found));
        assertEquals(by("heading")?.actionable, false, JSON.stringify(found));
        const card = await mcp.ok("find", { query: "shipping policy card" });
        const c = (card.candidates as R[]).find((x) => x.role === "generic");
        assertEquals(c?.actionable, true, JSON.stringify(card));
        const bad = await mcp.call("find", { query: "" });
        assertEquals(bad.isError, true, textOf(bad));
      },
    );

    await t.step("a form stopped on its way into a new tab names that tab", async () => {
      await mcp.ok("navigate", { url: `${base}/blank-form`, snapshot: "none" });
      await mcp.ok("fill", { selector: "input", value: "hello", snapshot: "none" });
      const r = await mcp.call("click", { selector: "text=Go" });
      assertEquals(errorOf(r).code, "blocked-by-policy", textOf(r));
      const message = errorOf(r).message;
      assertIncludes(message, "it was to load in a new tab (tab 1, left blank and closed again)");
      assertIncludes(message, `this tab has not moved (${base}/blank-form)`);
      assertTrue(!message.includes("()"), message);
      assertEquals((r.structuredContent as R).openedTab, 1);
      // The result reads the tab acted on (the new one is gone), which is the active one still.
      assertTrue(!textOf(r).includes("snapshot failed"), textOf(r));
      assertEquals((await mcp.ok("get_url")).url, `${base}/blank-form`);
      const bad = await mcp.call("click", { selector: "text=Go", submits: "yes" });
      assertEquals(errorOf(bad).code, "invalid-argument", textOf(bad));
    });

    await t.step("a huge fill that runs out of time blames the value's size", async () => {
      // Over the cap (1 Mi characters): refused at once, saying the limit.
      const over = await mcp.call("fill", { selector: "textarea", value: "x".repeat(20_000_000) });
      assertEquals(errorOf(over).code, "invalid-argument", textOf(over).slice(0, 2000));
      assertIncludes(errorOf(over).message, "1048576");
      const value = "x".repeat(1_000_000);
      const r = await mcp.call("fill", { selector: "textarea", value, timeoutMs: 100 });
      assertEquals(errorOf(r).code, "timeout", textOf(r).slice(0, 2000));
      const message = errorOf(r).message;
      assertIncludes(message, "the value is 1,000,000 characters");
      assertTrue(!message.includes("a script was still running"), message);
      assertIncludes(errorOf(r).hint ?? "", "smaller value");
      const bad = await mcp.call("fill", { selector: "textarea", value: 42 });
      assertEquals(errorOf(bad).code, "invalid-argument", textOf(bad));
    });
  } finally {
    await mcp.close();
    await server.close();
  }
});
