/**
 * The red team's audit attacks (session 16), over MCP stdio against real Chromium: a 9 KB
 * selector list ending in `#del` clicked "Delete account" and the audit kept only its first
 * 1000 chars, with no cut mark and no word of the element; `execute`'s inner click was logged
 * as `{"ref":"e3"}`. Now a cut string keeps its head and tail around a `…[cut N chars]…` mark,
 * the line says `argsCut: true`, and every acting call logs its resolved `target` (role,
 * accessible name, frame origin) — inner calls of `execute` and `batch` too.
 */
import { join } from "node:path";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";

type Line = Record<string, unknown> & { tool: string; phase?: string };

const PAGE = `<title>account</title><h1>Account</h1>
<button id=keep onclick="fetch('/keep',{method:'POST'})">Keep account</button>
<button id=del onclick="fetch('/delete-account',{method:'POST'})">Delete account</button>
<button id=locked aria-disabled=true>Locked action</button>
<section id=notes aria-label="Account notes" style="height:60px;overflow:auto">
<p style="height:300px">Notes</p></section>`;

async function auditLines(ws: string): Promise<Line[]> {
  let text = "";
  for await (const f of Deno.readDir(join(ws, "audit"))) {
    text += await Deno.readTextFile(join(ws, "audit", f.name));
  }
  return text.trim().split("\n").map((l) => JSON.parse(l) as Line)
    .filter((l) => l.phase !== "start");
}

Deno.test("audit: a cut selector keeps its tail and a cut mark; acting calls log what they hit", async () => {
  const posts: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (req.method === "POST") posts.push(new URL(req.url).pathname);
    return new Response(PAGE, { headers: { "content-type": "text/html" } });
  });
  const url = `http://127.0.0.1:${server.addr.port}/`;
  const mcp = await startStdio({
    env: { BROWX_TOOLSETS: "core,power", BROWX_CAPABILITIES: "read,navigation,action" },
  });
  try {
    await mcp.ok("navigate", { url, snapshot: "none" });
    const selector = Array.from({ length: 450 }, (_, i) => `#keep-not-here-${i}`).join(", ") +
      ", #del";
    assertTrue(selector.length > 8000 && selector.length < 10_000);
    await mcp.ok("click", { selector, snapshot: "none" });
    const plan = await mcp.ok("plan", { verb: "click", query: "Delete account button" });
    await mcp.ok("execute", { descriptor: plan });
    await mcp.ok("batch", { calls: [{ tool: "click", args: { selector: "#del" } }] });
    assertEquals(posts, ["/delete-account", "/delete-account", "/delete-account"]);

    const clicks = (await auditLines(mcp.workspace)).filter((l) => l.tool === "click");
    assertEquals(clicks.length, 3, JSON.stringify(clicks));
    const [cut, inner, batched] = clicks as [Line, Line, Line];
    const logged = String((cut.args as Record<string, unknown>).selector);
    assertTrue(logged.endsWith(", #del"), logged.slice(-80));
    assertIncludes(logged, "…[cut ");
    assertEquals(cut.argsCut, true);
    const origin = url.slice(0, -1);
    assertEquals(cut.target, {
      role: "button",
      name: "Delete account",
      matches: 1,
      frameOrigin: origin,
    });
    // execute's inner click: addressed by ref, logged with what the ref was.
    const t = inner.target as Record<string, unknown>;
    assertEquals([t.role, t.name, t.frameOrigin], ["button", "Delete account", origin]);
    assertTrue(typeof t.ref === "string", JSON.stringify(t));
    assertEquals((batched.target as Record<string, unknown>).name, "Delete account");
    assertEquals(batched.argsCut, undefined, "nothing cut, no mark");

    // A selector's role and name ride the actionability check's page call: a click the check
    // refuses (aria-disabled, at once) still logs what it was aimed at.
    const refused = await mcp.call("click", { selector: "#locked", snapshot: "none" });
    assertEquals(refused.isError, true, JSON.stringify(refused.structuredContent));
    // An action with no actionability check (scroll into view) asks the page for them itself.
    await mcp.ok("scroll", { selector: "#notes", snapshot: "none" });
    const lines = await auditLines(mcp.workspace);
    const locked = lines.filter((l) => l.tool === "click").at(-1)!;
    assertEquals(locked.target, {
      role: "button",
      name: "Locked action",
      matches: 1,
      frameOrigin: origin,
    });
    const scrolled = lines.filter((l) => l.tool === "scroll").at(-1)!;
    assertEquals(scrolled.target, {
      role: "region",
      name: "Account notes",
      matches: 1,
      frameOrigin: origin,
    });
  } finally {
    await mcp.close();
    await server.shutdown();
  }
});
