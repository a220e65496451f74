/**
 * Screenshots under secrets masking against CSS that paints a copy of a secret away from
 * where its text is laid out (the red team's shot1/shot2): a reflection (`-webkit-box-reflect`)
 * and a `filter: drop-shadow` on the field (the page's CSS and the agent's own `styles_write`,
 * with a transparent background), on divs the page copies the value into, on an ancestor, and
 * a text shadow. Over MCP stdio with real Chromium. The oracle: two secrets of the same
 * length, shown in turn, give the same image byte for byte — the value's letters are drawn
 * nowhere but under the boxes.
 */
import { decode } from "fast-png";
import { join } from "node:path";
import { assertEquals, assertTrue } from "./_assert.ts";
import { type McpHarness, startStdio, textOf, type ToolResult } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";

const K1 = "Zq7-hunter-Wv3x";
const K2 = "Mm8+jumper+Ab5y";

function pngOf(r: ToolResult): ReturnType<typeof decode> {
  const img = r.content.find((c) => c.type === "image")!;
  return decode(Uint8Array.from(atob(img.data!), (c) => c.charCodeAt(0)));
}

Deno.test("secrets: a reflection, a drop shadow or a text shadow never paints a secret's letters in a screenshot", async () => {
  const fx = await startFixtureServer();
  const ws = await Deno.makeTempDir({ prefix: "browxai-shot-copies-" });
  const secrets = join(ws, "secrets.env");
  await Deno.writeTextFile(secrets, `K1=${K1}\nK2=${K2}\n`, { mode: 0o600 });
  let mcp: McpHarness | undefined;
  try {
    mcp = await startStdio({
      workspace: ws,
      env: {
        BROWX_CAPABILITIES: "read,navigation,action,eval,secrets",
        BROWX_SECRETS: secrets,
        BROWX_TOOLSETS: "all",
      },
    });
    const m = mcp;
    await m.ok("navigate", { url: fx.url("secret-copies.html"), snapshot: "none" });
    // The agent's own styles (shot2): no background, and a shadow of the field's text.
    await m.ok("styles_write", { selector: "#f", property: "background", value: "transparent" });
    await m.ok("styles_write", {
      selector: "#f",
      property: "filter",
      value: "drop-shadow(0 60px 0 rgb(255, 0, 0))",
    });
    const styleOf = async () =>
      (await m.ok("eval_js", { expression: `document.getElementById("f").getAttribute("style")` }))
        .value;
    const style = await styleOf();
    const shot = async (name: string) => {
      await m.ok("fill", { selector: "#f", value: `{{secret:${name}}}`, snapshot: "none" });
      const shown = await m.ok("eval_js", {
        expression:
          `document.activeElement.blur(), document.getElementById("ts").textContent.length`,
      });
      assertEquals(shown.value, K1.length, "the page copied the value");
      const r = await m.call("screenshot", {});
      assertTrue(!r.isError, textOf(r));
      assertTrue((r.structuredContent!.secretsCovered as number) >= 5, textOf(r));
      return pngOf(r);
    };
    const a = await shot("K1");
    const b = await shot("K2");
    const p = (await m.ok("eval_js", {
      expression: `(() => { const b = document.getElementById("plain").getBoundingClientRect();
        return { x: b.x + b.width / 2, y: b.y + b.height / 2, dpr: devicePixelRatio }; })()`,
    })).value as { x: number; y: number; dpr: number };
    const i = (Math.floor(p.y * p.dpr) * a.width + Math.floor(p.x * p.dpr)) * a.channels;
    assertEquals([...a.data.slice(i, i + 3)], [0, 128, 255], "the page shows");
    assertEquals([a.width, a.height], [b.width, b.height]);
    let differ = 0;
    for (let k = 0; k < a.data.length; k++) if (a.data[k] !== b.data[k]) differ++;
    assertEquals(differ, 0, "two secrets of one length leave the same image: no letters drawn");
    assertEquals(await styleOf(), style, "the field's styles are as the agent left them");
  } finally {
    await mcp?.close();
    await fx.close();
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});
