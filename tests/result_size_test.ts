/**
 * One result never outgrows one MCP message: a page or an expression that would make a result
 * bigger than a client reads in one message gets `result-too-large` (the client's connection,
 * with every session, stays up); artifacts read back whole in pages.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, type ToolResult } from "./_mcp.ts";

type R = Record<string, unknown>;
const errorOf = (r: ToolResult) => r.structuredContent?.error as R;

Deno.test("results: a result over one MCP message is refused, and the client stays connected", async () => {
  // The test's client is the TypeScript SDK's: it drops its connection on a message over 10 MiB.
  const mcp = await startStdio({
    env: { BROWX_CAPABILITIES: "read,navigation,action,eval", BROWX_TOOLSETS: "all" },
  });
  try {
    await mcp.ok("navigate", { url: "data:text/html,<p>big</p>" });
    // A million short strings: every string is under the per-field cap, the whole is not.
    for (const expression of ["new Array(1e6).fill('xx')", "new Array(3e6).fill('abc')"]) {
      const r = await mcp.call("eval_js", { expression });
      assertTrue(r.isError === true, expression);
      assertEquals(errorOf(r).code, "result-too-large", expression);
      assertIncludes(String(errorOf(r).hint), "return less");
    }
    // Still connected, same session: a small result arrives.
    const small = await mcp.ok("eval_js", { expression: "new Array(3).fill('xx')" });
    assertEquals(small.value, ["xx", "xx", "xx"]);
    const sessions = await mcp.ok("list_sessions");
    assertEquals((sessions.sessions as R[]).length, 1);
  } finally {
    await mcp.close();
  }
});

Deno.test("results: artifact_get pages a big artifact; the pages join to the bytes saved", async () => {
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,sessions,storage" } });
  try {
    // 2.5 MB of text with multi-byte characters straddling page ends.
    const text = "añ€𝄞 ".repeat(250_000);
    const saved = await mcp.ok("artifact_save", { name: "big.txt", content: text });
    const size = Number(saved.size);
    let offset = 0;
    let joined = "";
    let pages = 0;
    for (;;) {
      const page = await mcp.ok("artifact_get", { name: "big.txt", offset });
      joined += String(page.content);
      pages++;
      if (page.nextOffset === undefined) break;
      assertTrue(Number(page.nextOffset) > offset, "pages move on");
      offset = Number(page.nextOffset);
    }
    assertTrue(pages > 1, `paged (${pages})`);
    assertEquals(joined.length, text.length);
    assertTrue(joined === text, "the pages join to the text saved");
    const past = await mcp.call("artifact_get", { name: "big.txt", offset: size + 1 });
    assertEquals(errorOf(past).code, "invalid-argument");
    assertIncludes(String(errorOf(past).message), "past the end");
  } finally {
    await mcp.close();
  }
});
