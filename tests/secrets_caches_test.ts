/**
 * The red team's sec1 "caches bin": a page stores a filled secret in a Cache Storage entry
 * with a binary content type; `caches_get` returned it as base64, where text masking cannot
 * see it. The value's bytes are masked before the body is encoded. Over MCP stdio with real
 * Chromium, a page served on 127.0.0.1 by the test.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startTwoOrigins } from "./_two_origins.ts";
import { startWithBoundSecret } from "./_bound_secret.ts";
import { eventually } from "./_util.ts";

const SECRET = "Zq7-hunter-Wv3x";

Deno.test("secrets: caches_get masks a secret inside a binary cache entry", async () => {
  const srv = startTwoOrigins(() => ({
    "/p": `<title>p</title><input id=pw aria-label=pw><script>
      document.getElementById("pw").oninput = async (e) => {
        const v = new TextEncoder().encode(e.target.value);
        const c = await caches.open("c1");
        await c.put("/bin", new Response(new Blob([new Uint8Array([0, 255, 7]), v, new Uint8Array([9])]),
          { headers: { "content-type": "application/octet-stream" } }));
        document.title = "stored";
      };
    </script>`,
  }));
  const { mcp, close } = await startWithBoundSecret(srv.a, SECRET, ["network-body"]);
  try {
    await mcp.ok("navigate", { url: `${srv.a}/p`, snapshot: "none" });
    await mcp.ok("fill", { selector: "#pw", value: "{{secret:PW}}", snapshot: "none" });
    await eventually(async () => (await mcp.ok("get_url", {})).title === "stored", 10_000);
    const r = await mcp.ok("caches_get", { cacheName: "c1", url: "/bin" });
    assertEquals(r.kind, "binary");
    const body = atob(r.contentBase64 as string);
    assertTrue(!body.includes(SECRET), "the value's bytes are not in the body");
    assertIncludes(body, "[secret:PW]");
    assertEquals([...body.slice(0, 3)].map((c) => c.charCodeAt(0)), [0, 255, 7]);
  } finally {
    await close();
    await srv.close();
  }
});
