/**
 * End-to-end attacks on the navigation guard through new tabs and
 * speculative loads: a click with Ctrl, Shift or the middle button (a link,
 * a form's submit button, an allowed link that redirects off the list) and
 * speculation rules (prerender, prefetch) must not reach an origin off the
 * allowlist, nor leave a tab there.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { type McpHarness, startStdio, type ToolResult } from "./_mcp.ts";
import { startTwoOrigins } from "./_two_origins.ts";

const textOf = (r: ToolResult) => r.content.map((c) => c.text ?? "").join("\n");
type R = Record<string, unknown>;

function blocked(r: ToolResult, rule: string): R {
  assertEquals(r.isError, true, textOf(r));
  const s = r.structuredContent!;
  assertEquals((s.error as R).code, "blocked-by-policy", textOf(r));
  assertEquals((s.policy as R).rule, rule, textOf(r));
  return s;
}

async function tabUrls(mcp: McpHarness): Promise<string[]> {
  return ((await mcp.ok("tabs", { action: "list" })).tabs as R[]).map((t) => String(t.url));
}

/** B's script reports that it ran: a request to /ran-<name>. */
const bPage = (b: string, name: string) =>
  `<title>B ${name}</title><script>fetch("${b}/ran-${name}", { mode: "no-cors" })</script>`;

Deno.test("navigation guard: modifier and middle clicks open no unguarded tab", async (t) => {
  const srv = startTwoOrigins((a, b) => ({
    "/f": `<title>f</title><form action="${b}/ff"><input name=q value=data>` +
      `<button id=s>send</button></form><a id=l href="${b}/ll">off</a>` +
      `<a id=r href="${a}/redir">redirects off</a><a id=ok href="${a}/fine">fine</a>`,
    "/kb": `<title>kb</title><a id=l href="${b}/ll">off</a><script>l.focus()</script>`,
    "/ff": bPage(b, "ff"),
    "/ll": bPage(b, "ll"),
    "/rr": bPage(b, "rr"),
    "/redir": () => new Response("", { status: 302, headers: { location: `${b}/rr` } }),
  }));
  const mcp = await startStdio({ env: { BROWX_ALLOWED_ORIGINS: "127.0.0.1" } });
  const page = `${srv.a}/f`;
  try {
    const cases: [string, R][] = [
      ["Ctrl on an off-list link", { selector: "#l", modifiers: ["Control"] }],
      ["Shift on an off-list link", { selector: "#l", modifiers: ["Shift"] }],
      ["the middle button on an off-list link", { selector: "#l", button: "middle" }],
      ["Ctrl on an allowed link that redirects off", { selector: "#r", modifiers: ["Control"] }],
      ["Alt on an off-list link (a download)", { selector: "#l", modifiers: ["Alt"] }],
      ["Ctrl on a form's submit button", { selector: "#s", modifiers: ["Control"] }],
      ["Ctrl on a submit button, declared", {
        selector: "#s",
        modifiers: ["Control"],
        submits: true,
      }],
      ["Shift on a form's submit button", { selector: "#s", modifiers: ["Shift"] }],
    ];
    for (const [name, args] of cases) {
      await t.step(`${name}: refused, no tab opened, nothing sent`, async () => {
        await mcp.ok("navigate", { url: page, snapshot: "none" });
        const s = blocked(await mcp.call("click", { ...args, snapshot: "none" }), "new-tab-click");
        assertIncludes(String((s.error as R).message), "new tab");
        assertEquals(await tabUrls(mcp), [page]);
        assertEquals(srv.seen("B"), []);
      });
    }

    await t.step("Ctrl+Enter on a focused link: refused too", async () => {
      await mcp.ok("navigate", { url: `${srv.a}/kb`, snapshot: "none" });
      blocked(await mcp.call("press", { key: "Control+Enter", snapshot: "none" }), "new-tab-click");
      assertEquals(await tabUrls(mcp), [`${srv.a}/kb`]);
      assertEquals(srv.seen("B"), []);
    });

    await t.step("a plain click on an allowed link still works", async () => {
      await mcp.ok("navigate", { url: page, snapshot: "none" });
      await mcp.ok("click", { selector: "#ok", snapshot: "none" });
      assertEquals(await tabUrls(mcp), [`${srv.a}/fine`]);
    });
  } finally {
    await mcp.close();
    await srv.close();
  }
  assertTrue(srv.seen("A").length > 0);
});
