/**
 * The red team's lost downloads (session 16), over MCP stdio against real Chromium: a download
 * the server named 150 × `€` (450 UTF-8 bytes: more than a file name may hold) or with U+2028
 * (which the path guard refuses) was dropped. Now each is saved under a safe name (cut by
 * UTF-8 bytes, U+2028 as `_`) with its bytes.
 */
import { join } from "node:path";
import { assertEquals, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";

type R = Record<string, unknown>;

const NAMES: Record<string, string> = {
  long: "€".repeat(150) + ".txt",
  sep: "report\u2028.txt",
  para: "a\u2029b\u0085c.txt",
};

Deno.test("downloads with over-long or separator names are saved, not dropped", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const key = new URL(req.url).pathname.slice(1);
    const name = NAMES[key];
    if (name) {
      return new Response(`DL:${key}`, {
        headers: {
          "content-type": "application/octet-stream",
          "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
        },
      });
    }
    return new Response(
      Object.keys(NAMES).map((k) => `<a id=${k} href="/${k}">${k}</a>`).join(" "),
      { headers: { "content-type": "text/html" } },
    );
  });
  const mcp = await startStdio({
    env: { BROWX_CAPABILITIES: "read,navigation,action,file-io", BROWX_TOOLSETS: "core,files" },
  });
  try {
    await mcp.ok("navigate", { url: `http://127.0.0.1:${server.addr.port}/`, snapshot: "none" });
    const want: Record<string, string> = {
      long: "€".repeat(65) + ".txt",
      sep: "report_.txt",
      para: "a_b_c.txt",
    };
    for (const key of Object.keys(NAMES)) {
      const r = await mcp.call("click", { selector: `#${key}`, download: true, snapshot: "none" });
      assertEquals(r.isError, undefined, textOf(r));
      const [d] = (r.structuredContent?.downloads ?? []) as R[];
      assertTrue(d, `${key}: no download in ${textOf(r)}`);
      assertEquals(d!.filename, want[key], textOf(r));
      assertTrue(new TextEncoder().encode(String(d!.filename)).length <= 255);
      assertEquals(await Deno.readTextFile(String(d!.path)), `DL:${key}`);
      assertEquals(String(d!.path), join(String(d!.path), "..", want[key]!));
    }
    const list = (await mcp.ok("downloads_list")).downloads as R[];
    assertEquals(list.map((d) => d.filename), Object.values(want));
  } finally {
    await mcp.close();
    await server.shutdown();
  }
});
