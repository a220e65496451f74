/**
 * A navigate whose load one slow image holds (session 17, new-user finding 6): the result
 * names the request it waited on and says how not to wait for it (waitUntil
 * "domcontentloaded"), which then answers without that advice.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";

Deno.test("navigate: a load held by a slow image names it and the way around it", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio();
  try {
    const url = fx.url("nu17-slowimg.html");
    // The browser starts first: its start counts against a call's timeoutMs, and on a busy
    // machine it alone can take the 3 s the navigate below gets.
    await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    const r = await mcp.ok("navigate", { url, timeoutMs: 3000, snapshot: "none" });
    const w = (r.warnings as string[]).find((x) => x.startsWith("the page was still loading"));
    assertIncludes(String(w), `it waited on image ${fx.url("slow?ms=8000")} (no answer after`);
    assertIncludes(String(w), 'navigate with waitUntil: "domcontentloaded"');
    const quick = await mcp.ok("navigate", {
      url,
      waitUntil: "domcontentloaded",
      snapshot: "none",
    });
    // Still named (it was still loading), and no advice to do what it just did.
    assertEquals(
      (quick.warnings as string[]).some((x) => x.includes("waitUntil")),
      false,
      JSON.stringify(quick.warnings),
    );
  } finally {
    await mcp.close();
    await fx.close();
  }
});
