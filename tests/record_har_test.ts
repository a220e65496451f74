/**
 * `har_save` over MCP stdio against real Chromium: the session's requests as HAR 1.2, secrets
 * masked, bodies gated by capability (the other recording tools: record_test.ts).
 */
import { join } from "node:path";
import { assertEquals, assertIncludes, assertNotIncludes, assertTrue } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { eventually } from "./_util.ts";
import { API_KEY, SECRET, startPages } from "./_record_pages.ts";

type R = Record<string, unknown>;

interface Har {
  log: {
    version: string;
    creator: { name: string };
    comment: string;
    pages: Array<{ id: string; title: string; startedDateTime: string }>;
    entries: Array<{
      pageref?: string;
      startedDateTime: string;
      time: number;
      request: {
        method: string;
        url: string;
        headers: Array<{ name: string; value: string }>;
        queryString: unknown[];
        cookies: unknown[];
        postData?: { text: string };
      };
      response: {
        status: number;
        headers: Array<{ name: string; value: string }>;
        content: { size: number; mimeType: string; text?: string; encoding?: string };
        redirectURL: string;
      };
      cache: unknown;
      timings: Record<string, number>;
    }>;
  };
}

/** Starts a server with `KEY` registered, loads /net.html and saves its HAR. */
async function harOf(capabilities: string): Promise<{ s: R; text: string; har: Har }> {
  const pages = startPages();
  const ws = await Deno.makeTempDir({ prefix: "browxai-har-ws-" });
  const secrets = join(ws, "secrets.env");
  await Deno.writeTextFile(secrets, `KEY=${SECRET}\n`, { mode: 0o600 });
  const mcp = await startStdio({
    workspace: ws,
    env: { BROWX_TOOLSETS: "all", BROWX_CAPABILITIES: capabilities, BROWX_SECRETS: secrets },
  });
  try {
    await mcp.ok("navigate", { url: pages.url("/net.html"), snapshot: "none" });
    await eventually(
      async () => (await mcp.ok("get_url", {})).title === "fetched",
      10_000,
      "the page's fetch and POST",
    );
    const s = await mcp.ok("har_save", { path: "net/run.har" });
    const text = await Deno.readTextFile(join(ws, "net/run.har"));
    if (Deno.env.get("SHOW_HAR")) console.log(text);
    return { s, text, har: JSON.parse(text) as Har };
  } finally {
    await mcp.close();
    await pages.close();
    await Deno.remove(ws, { recursive: true });
  }
}

function checkHarShape(har: Har): void {
  const log = har.log;
  assertEquals(log.version, "1.2");
  assertEquals(log.creator.name, "browxai");
  assertEquals(log.pages.length, 1);
  assertEquals(log.pages[0]!.title, "fetched");
  const byPath = (p: string) => log.entries.find((e) => new URL(e.request.url).pathname === p);
  for (const p of ["/net.html", "/img.png", "/api/data", "/api/save"]) {
    const e = byPath(p);
    assertTrue(e, `no entry for ${p}`);
    assertEquals(e.response.status, 200, p);
    assertEquals(e.pageref, log.pages[0]!.id);
    assertTrue(!Number.isNaN(Date.parse(e.startedDateTime)), e.startedDateTime);
    assertTrue(e.time >= 0 && Array.isArray(e.request.headers) && e.request.headers.length > 0);
    assertTrue(Array.isArray(e.request.queryString) && Array.isArray(e.request.cookies));
    for (const k of ["blocked", "dns", "connect", "send", "wait", "receive", "ssl"]) {
      assertEquals(typeof e.timings[k], "number", `${p} timings.${k}`);
    }
    for (const k of ["send", "wait", "receive"]) assertTrue(e.timings[k]! >= 0, `${p} ${k}`);
    assertTrue(e.cache && typeof e.response.content.size === "number");
  }
  assertEquals(byPath("/img.png")!.response.content.mimeType, "image/png");
  assertEquals(byPath("/api/save")!.request.method, "POST");
  // Cookies and credentials stay out of the file (sanitized, as DevTools exports).
  for (const e of log.entries) {
    for (const h of [...e.request.headers, ...e.response.headers]) {
      assertTrue(!/^(set-)?cookie$|^authorization$/i.test(h.name), h.name);
    }
  }
}

Deno.test("recording: har_save writes the session's requests as HAR 1.2, secrets masked, bodies gated", async (t) => {
  await t.step(
    "without network-body: no bodies, said so; a write's query values left out",
    async () => {
      const { s, text, har } = await harOf("read,navigation,action,secrets");
      assertEquals(s.path, "net/run.har");
      assertEquals(s.bodiesOmitted, true);
      assertEquals(s.requiredCapability, "network-body");
      assertTrue((s.entries as number) >= 4);
      checkHarShape(har);
      assertNotIncludes(text, SECRET);
      assertIncludes(text, "[secret:KEY]");
      assertNotIncludes(text, "abc123cookie");
      // Credential headers by name (red team: X-Api-Key went into the file): out, and counted.
      assertNotIncludes(text, API_KEY);
      const leftOut = s.headersLeftOut as Record<string, number>;
      assertTrue((leftOut["x-api-key"] ?? 0) >= 1, JSON.stringify(leftOut));
      assertTrue((leftOut["x-token"] ?? 0) >= 1, JSON.stringify(leftOut));
      assertIncludes(String(har.log.comment), "X-Api-Key");
      const save = har.log.entries.find((e) => e.request.url.includes("/api/save"))!;
      assertEquals(save.request.postData, undefined);
      assertIncludes(save.request.url, "draft=");
      assertNotIncludes(save.request.url, "draft=yes");
      assertIncludes(
        String((save.response.content as R).comment),
        "network-body",
      );
      assertIncludes(har.log.comment, "network-body");
    },
  );

  await t.step("with network-body: response and request bodies, still masked", async () => {
    const { s, text, har } = await harOf("read,navigation,action,secrets,network-body");
    assertEquals(s.bodiesOmitted, undefined);
    checkHarShape(har);
    assertNotIncludes(text, SECRET);
    const data = har.log.entries.find((e) => e.request.url.includes("/api/data"))!;
    assertIncludes(data.response.content.text ?? "", '"echoed":"[secret:KEY]"');
    const img = har.log.entries.find((e) => e.request.url.endsWith("/img.png"))!;
    assertEquals(img.response.content.encoding, "base64");
    const save = har.log.entries.find((e) => e.request.url.includes("/api/save"))!;
    assertEquals(save.request.postData?.text, "note=hello");
    assertIncludes(save.request.url, "draft=yes");
  });
});
