/**
 * Snapshot lines say what a person sees on a control (red team, session 15, #5): a button
 * whose name is read from off-screen or clipped text while other words are drawn (CSS
 * generated text, `aria-hidden` text, a `role=img` with its own label, a name that holds the
 * drawn words and more) shows the drawn words after its name; ordinary controls (an icon with
 * `sr-only` text, a picture's alt, text split across inline elements) gain no text. Real
 * Chromium, MCP over stdio.
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { eventually, refOf } from "./_util.ts";

const OFF = `style="position:absolute;left:-9999px"`;
const SR = `style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)"`;
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lies</title>
<style>.gen::before{content:"Delete account B" / ""} .after::after{content:"Delete account K"}</style>
</head><body><h3>Close your account?</h3>
<button class=gen><span ${OFF}>Keep my account B</span></button>
<button><span role=img aria-label="Keep my account C">Delete account C</span></button>
<button><span style="display:inline-block;transform:scale(0)">Keep my account I</span><span aria-hidden=true>Delete account I</span></button>
<button class=after aria-label="Keep K"></button>
<button onclick="fetch('/delete',{method:'POST'})"><span ${OFF}>Do not delete my account</span><span aria-hidden=true style="text-transform:capitalize">delete my account</span></button>
<button><span aria-hidden=true>Delete account P</span><span ${OFF}>Keep my account P</span>${
  "<i></i>".repeat(210)
}</button>
<p>Ordinary controls:</p>
<button>Save</button>
<button><span ${SR}>Close</span><svg width=12 height=12 aria-hidden=true><path d="M0 0L12 12"/></svg></button>
<button><img alt="Cart" width=10 height=10 src="data:image/gif;base64,R0lGODlhAQABAAAAACw="> Cart (3)</button>
<button>Ed<b>it</b> item</button>
<button><span role=img aria-label="Warning">\u26a0</span> Retry</button>
<button>Read more<span ${SR}> about pricing</span></button>
</body></html>`;

Deno.test("snapshot: a control's line shows the words drawn on it when its name is others", async () => {
  const posts: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (req.method === "POST") posts.push(new URL(req.url).pathname);
    return new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
  });
  const mcp = await startStdio();
  try {
    const nav = await mcp.call("navigate", { url: `http://127.0.0.1:${server.addr.port}/` });
    const text = textOf(nav);
    const lines = text.split("\n").filter((l) => l.startsWith("- button"))
      .map((l) => l.replace(/ \[ref=e\d+\]/, ""));
    assertEquals(lines, [
      // CSS generated text (its alt text empty) drawn over an off-screen name.
      `- button "Keep my account B": Delete account B`,
      // A role=img's label is the name; its own text is what is drawn.
      `- button "Keep my account C": Delete account C`,
      // Scaled to nothing: not drawn.
      `- button "Keep my account I": Delete account I`,
      // An aria-label over generated text.
      `- button "Keep K": Delete account K`,
      // The name holds the drawn words and more ("Do not").
      `- button "Do not delete my account": delete my account`,
      // Padded past the nodes read: what was read is shown, cut.
      `- button "Keep my account P": Delete account P…`,
      `- button "Save"`,
      `- button "Close"`,
      `- button "Cart Cart (3)"`,
      `- button "Edit item"`,
      `- button "Warning Retry"`,
      // Clipped text in the name: the drawn words are shown (a person reads "Read more").
      `- button "Read more about pricing": Read more`,
    ]);
    // The ref still acts on the control the line describes.
    const ref = refOf(text, 'button "Do not delete my account"');
    const click = await mcp.call("click", { ref });
    assertTrue(!click.isError, textOf(click));
    await eventually(() => posts.length === 1);
    assertEquals(posts, ["/delete"]);
  } finally {
    await mcp.close();
    await server.shutdown();
  }
});
