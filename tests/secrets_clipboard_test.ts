/**
 * The red team's sec2: a secret bound to origin A, filled there, selected and copied with
 * Control+C, then pasted with Control+V on origin B, reached B's page (the origin check runs
 * where values are filled, not where the clipboard goes). `press` refuses copy and cut
 * shortcuts while the focused field or the selection holds a secret; other copies still work.
 * Over MCP stdio with real Chromium, two loopback origins.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { textOf, type ToolResult } from "./_mcp.ts";
import { startTwoOrigins } from "./_two_origins.ts";
import { startWithBoundSecret } from "./_bound_secret.ts";
import { eventually } from "./_util.ts";

const SECRET = "Zq7-hunter-Wv3x";

Deno.test("secrets: a bound secret cannot be copied to the clipboard and pasted on another origin", async (t) => {
  const srv = startTwoOrigins(() => ({
    "/a": `<title>A</title><input id=pw aria-label=pw><input id=other aria-label=other>` +
      `<p id=note>plain words</p>`,
    // B reports what a paste brings (the value base64-encoded: the guard cannot read it).
    "/b": `<title>B</title><input id=in aria-label=in><script>
      document.addEventListener("paste", (e) =>
        fetch("/pasted?v=" + btoa(e.clipboardData.getData("text"))));
    </script>`,
  }));
  const { mcp, close } = await startWithBoundSecret(srv.a, SECRET);
  const pasted = () =>
    srv.hits.filter((h) => h.path.startsWith("/pasted")).map((h) =>
      atob(decodeURIComponent(h.path.slice("/pasted?v=".length)))
    );
  const refused = (r: ToolResult) => {
    assertEquals(r.isError, true, textOf(r));
    const s = r.structuredContent!;
    assertEquals((s.error as Record<string, unknown>).code, "blocked-by-policy", textOf(r));
    assertEquals((s.policy as Record<string, unknown>).rule, "secret-copy", textOf(r));
    assertIncludes(textOf(r), "holds a secret");
  };
  try {
    await mcp.ok("navigate", { url: `${srv.a}/a`, snapshot: "none" });
    await mcp.ok("fill", { selector: "#pw", value: "{{secret:PW}}", snapshot: "none" });

    await t.step("copy and cut shortcuts on the field holding the secret are refused", async () => {
      await mcp.ok("press", { selector: "#pw", key: "Control+a", snapshot: "none" });
      for (const key of ["Control+c", "Control+x", "Control+Insert", "Shift+Delete", "Meta+c"]) {
        refused(await mcp.call("press", { key, snapshot: "none" }));
      }
      // Focus elsewhere, the secret's text still selected in the page: refused too.
      refused(await mcp.call("press", { selector: "#pw", key: "Control+c", snapshot: "none" }));
    });

    await t.step("pasted on origin B: the secret never arrives", async () => {
      await mcp.ok("navigate", { url: `${srv.b}/b`, snapshot: "none" });
      await mcp.ok("press", { selector: "#in", key: "Control+v", snapshot: "none" });
      await eventually(() => pasted().length > 0, 10_000, "B's paste handler reporting");
      assertTrue(!pasted().some((v) => v.includes(SECRET)), `B got ${pasted()}`);
    });

    await t.step("copying text without a secret still works", async () => {
      await mcp.ok("navigate", { url: `${srv.a}/a`, snapshot: "none" });
      await mcp.ok("fill", { selector: "#other", value: "just words", snapshot: "none" });
      await mcp.ok("press", { selector: "#other", key: "Control+a", snapshot: "none" });
      await mcp.ok("press", { key: "Control+c", snapshot: "none" });
      await mcp.ok("navigate", { url: `${srv.b}/b`, snapshot: "none" });
      const before = pasted().length;
      await mcp.ok("press", { selector: "#in", key: "Control+v", snapshot: "none" });
      await eventually(() => pasted().length > before, 10_000, "the second paste");
      assertEquals(pasted().at(-1), "just words");
    });
  } finally {
    await close();
    await srv.close();
  }
});
