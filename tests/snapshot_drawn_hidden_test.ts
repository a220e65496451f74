/**
 * The name's words hidden by a style while other words are drawn (red team, session 16): for
 * each way of hiding text, a button named "Save" drawing "Delete" and a link named "Home"
 * drawing "evil.example" show the drawn words on their lines, and only them (the hidden
 * words are not counted as drawn). Links are compared only when a cheap pre-check cannot clear
 * them (two texts, `aria-hidden` or `role` content, generated text, a name from a label); the
 * page's own rules are read though it loads a style sheet of another origin, which cannot be.
 * Ordinary links stay inline. Real Chromium, MCP over stdio.
 */
import { assertEquals } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";

// Each hides the text of its span; `display:inline-block` where the trick needs a box.
const TRICKS: Record<string, string> = {
  "font-size 0": "font-size:0",
  "font-size 1px": "font-size:1px",
  "opacity 0": "opacity:0",
  "opacity 0.05": "opacity:0.05",
  "zero width": "display:inline-block;width:0;overflow:hidden",
  "clip-path inset": "clip-path:inset(100%)",
  "clip-path circle": "display:inline-block;clip-path:circle(0)",
  "clip-path polygon": "display:inline-block;clip-path:polygon(0 0,0 0,0 0)",
  "transparent": "color:transparent",
  "alpha 0.05": "color:rgb(0 0 0 / 5%)",
  "scale 0": "display:inline-block;transform:scale(0)",
  "text-indent": "display:inline-block;width:3em;overflow:hidden;text-indent:-9999px",
  "off the box": "position:absolute;left:-9999px",
  "filter": "filter:opacity(0)",
  "content-visibility": "display:inline-block;content-visibility:hidden",
};

const hidden = (style: string, text: string) => `<span style="${style}">${text}</span>`;
const PAGE = (origin: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hidden names</title>
<style>.gen::after{content:"Delete" / ""} .lgen::after{content:"evil.example" / "";font-size:16px}
.arrow::after{content:"\\2197"}</style>
<link rel="stylesheet" href="${origin}/far.css"></head><body>
${
    Object.entries(TRICKS).map(([k, style]) =>
      `<p>${k}: <button>${hidden(style, "Save")}<span aria-hidden=true>Delete</span></button>
<button class=gen>${hidden(style, "Save")}</button>
<a href="https://evil.example/">${
        hidden(style, "Home")
      }<span aria-hidden=true>evil.example</span></a></p>`
    ).join("\n")
  }
<p>own text: <button style="font-size:0">Save<span aria-hidden=true style="font-size:16px">Delete</span></button>
<a class=lgen href="https://evil.example/" style="font-size:0">Home</a>
<a aria-label="Home" href="https://evil.example/">evil.example</a>
<a href="https://evil.example/"><span style="font-size:0">Do not go to </span>evil.example</a></p>
<p>Ordinary: <a href="/a">Home</a>, <a href="/b">Read <em>more</em></a>, <a class=arrow href="/c">Out</a>,
<a href="/d"><img alt="Logo" width=8 height=8 src="data:image/gif;base64,R0lGODlhAQABAAAAACw="> Start</a>.</p>
</body></html>`;

Deno.test("snapshot: a name hidden by a style, other words drawn: the line shows the drawn words", async () => {
  let port = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const css = new URL(req.url).pathname === "/far.css";
    return new Response(
      css ? `.far::before{content:"Far"}` : PAGE(`http://localhost:${port}`),
      { headers: { "content-type": css ? "text/css" : "text/html; charset=utf-8" } },
    );
  });
  port = server.addr.port;
  const mcp = await startStdio();
  try {
    const url = `http://127.0.0.1:${server.addr.port}/`;
    const text = textOf(await mcp.call("navigate", { url }));
    const lines = text.split("\n").filter((l) => /^- (?:button|link)|\]\(/.test(l))
      .map((l) => l.replace(/ ?\[ref=e\d+\]/g, ""));
    const perTrick = Object.keys(TRICKS).flatMap(() => [
      `- button "Save": Delete`,
      `- button "Save": Delete`,
      `- link "Home" https://evil.example/: evil.example`,
    ]);
    assertEquals(lines, [
      ...perTrick,
      // The button's own text at size 0; generated text over a link's own text at size 0; a
      // label over drawn text; a name holding the drawn words and more.
      `- button "Save": Delete`,
      `- link "Home" https://evil.example/: evil.example`,
      `- link "Home" https://evil.example/: evil.example`,
      `- link "Do not go to evil.example" https://evil.example/: evil.example`,
      `Ordinary: [Home](/a), [Read more](/b), [Out](/c), [Logo Start](/d).`,
    ]);
  } finally {
    await mcp.close();
    await server.shutdown();
  }
});
