/**
 * An origin-bound secret typed or filled on its origin while the page moves
 * focus into a cross-origin frame (a keydown handler, a focus handler): the
 * keys stop at once and the call fails; the other origin's field gets none
 * of the value. Real Chromium, two origins, MCP over stdio.
 */
import { join } from "node:path";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, type ToolResult } from "./_mcp.ts";
import { startTwoOrigins } from "./_two_origins.ts";

const textOf = (r: ToolResult) => r.content.map((c) => c.text ?? "").join("\n");
type R = Record<string, unknown>;
const BOUND = "B0und-S3cret-Val";

/** The frame's field answers a message with its value (read without waiting on time). */
const STEAL = `<title>steal</title><input id=in autofocus>` +
  `<script>addEventListener('focus', () => document.getElementById('in').focus());` +
  `addEventListener('message', (e) => e.source.postMessage(document.getElementById('in').value, '*'));` +
  `</script>`;
const READ_FRAME =
  `new Promise((r) => { addEventListener('message', (e) => r(e.data), { once: true });
  document.querySelector('iframe').contentWindow.postMessage('value?', '*'); })`;

Deno.test("secrets: a bound secret stops when focus leaves its origin mid-typing", async (t) => {
  const srv = startTwoOrigins((_a, b) => ({
    // At the 4th key, the page moves focus into the other origin's frame.
    "/keys": `<title>keys</title><input id=top onkeydown="if (this.value.length === 3) ` +
      `document.querySelector('iframe').contentWindow.focus()">` +
      `<iframe src="${b}/steal" width=400 height=80></iframe>`,
    // As soon as the field takes focus, the page moves it into the other origin's frame.
    "/focus":
      `<title>focus</title><input id=top onfocus="document.querySelector('iframe').contentWindow.focus()">` +
      `<iframe src="${b}/steal" width=400 height=80></iframe>`,
    "/steal": STEAL,
  }));
  const ws = await Deno.makeTempDir({ prefix: "browxai-test-bound-focus-" });
  const secrets = join(ws, "secrets.env");
  await Deno.writeTextFile(secrets, `BOUND@${srv.a}=${BOUND}\n`, { mode: 0o600 });
  const mcp = await startStdio({
    workspace: ws,
    env: {
      BROWX_CAPABILITIES: "read,navigation,action,eval,secrets",
      BROWX_SECRETS: secrets,
      BROWX_TOOLSETS: "all",
    },
  });
  const loaded = async () => {
    // The frame answers once its script ran.
    assertEquals((await mcp.ok("eval_js", { expression: READ_FRAME })).value, "");
  };
  try {
    await t.step("type: refused at the key after focus left, the frame got nothing", async () => {
      await mcp.ok("navigate", { url: `${srv.a}/keys`, snapshot: "none" });
      await loaded();
      await mcp.ok("click", { selector: "#top", snapshot: "none" });
      const r = await mcp.call("type", { text: "{{secret:BOUND}}", snapshot: "none" });
      assertEquals(r.isError, true, textOf(r));
      const s = r.structuredContent as R;
      assertEquals((s.error as R).code, "refused", textOf(r));
      assertIncludes(textOf(r), "focus left the allowed origins");
      assertIncludes(textOf(r), `may be filled only on ${srv.a}`);
      assertTrue(!JSON.stringify(r).includes(BOUND), "masked");
      assertEquals((await mcp.ok("eval_js", { expression: READ_FRAME })).value, "");
      const top = await mcp.ok("eval_js", { expression: "document.getElementById('top').value" });
      // The keys before the move went into the field; the one whose keydown moved focus, nowhere.
      assertEquals(top.value, BOUND.slice(0, 3));
      assertEquals(s.typed, 4, "stopped before the 5th key");
    });

    await t.step("fill: refused when the field's focus handler moved focus away", async () => {
      await mcp.ok("navigate", { url: `${srv.a}/focus`, snapshot: "none" });
      await loaded();
      const r = await mcp.call("fill", {
        selector: "#top",
        value: "{{secret:BOUND}}",
        snapshot: "none",
      });
      assertEquals(r.isError, true, textOf(r));
      assertEquals(((r.structuredContent as R).error as R).code, "refused", textOf(r));
      assertIncludes(textOf(r), "focus left the allowed origins");
      assertEquals((await mcp.ok("eval_js", { expression: READ_FRAME })).value, "");
    });

    await t.step("a secret not moved away still types and fills", async () => {
      await mcp.ok("navigate", { url: `${srv.a}/steal`, snapshot: "none" });
      await mcp.ok("fill", { selector: "#in", value: "{{secret:BOUND}}", snapshot: "none" });
      await mcp.ok("fill", { selector: "#in", value: "", snapshot: "none" });
      await mcp.ok("type", { text: "{{secret:BOUND}}", snapshot: "none" });
      const v = await mcp.ok("eval_js", { expression: "document.getElementById('in').value" });
      assertEquals(v.value, "[secret:BOUND]");
    });
  } finally {
    await mcp.close();
    await srv.close();
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});
