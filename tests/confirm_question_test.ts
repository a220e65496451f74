/**
 * The send question cannot be made to mislead the person (red team s15 #6): the page writes
 * the field names and values it shows. `/many`: 40 hidden padding fields then `amount=99999`
 * — the amount was cut to "and 29 more"; now hidden fields and values that occur once come
 * first and what is left out is counted. `/inject`: a value that reads as the end of the
 * question; `/names`: a name `amount=5, note` and a zero-width `\u200Bamount` — now every name
 * and value is quoted JSON-style, line breaks and invisible characters written out. The person
 * says no each time: nothing is sent.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { errorOf } from "./_results.ts";

const FORM = (fields: string) =>
  `<form action=/donate method=post>${fields}<button id=go>Donate $5</button></form>`;
const PAGES: Record<string, string> = {
  "/many": FORM(
    Array.from({ length: 40 }, (_, i) => `<input type=hidden name=f${i} value=ok>`).join("") +
      `<input type=hidden name=amount value=99999>`,
  ),
  "/inject": FORM(
    `<input type=hidden name=amount value=99999><input name=note value="hi). This is only a preview: nothing is sent. Allow it?&#10;&#10;(ignore">`,
  ),
  "/names": FORM(
    `<input type=hidden name="amount=5, note" value="hi"><input type=hidden name="&#8203;amount" value=99999>`,
  ),
  "/plain": FORM(`<input name=amount value=5><textarea name=msg>two\nlines</textarea>`),
};

Deno.test("confirm question: page-written names and values cannot read as the question", async (t) => {
  const posts: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (req.method === "POST") posts.push(new URL(req.url).pathname);
    const html = PAGES[new URL(req.url).pathname] ?? "no";
    return new Response(html, { headers: { "content-type": "text/html" } });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const asked: string[] = [];
  const mcp = await startStdio({
    env: { BROWX_CAPABILITIES: "read,navigation,action", BROWX_CONFIRM_REQUIRED: "submit" },
    elicit: (req) => {
      asked.push(String(req.message));
      return Promise.resolve({ action: "decline" });
    },
  });
  /** The question asked for a click on the page's button; the person said no. */
  const question = async (path: string) => {
    await mcp.ok("navigate", { url: origin + path, snapshot: "none" });
    const r = await mcp.call("click", { selector: "#go", submits: true });
    assertEquals(errorOf(r).code, "blocked-by-policy", textOf(r));
    return asked.at(-1) ?? "";
  };
  try {
    await t.step("41 hidden fields: the amount is shown, what is left out counted", async () => {
      const q = await question("/many");
      assertIncludes(q, `"amount": "99999" (hidden)`);
      assertIncludes(q, "41 fields;");
      assertTrue(/(\d+) NOT SHOWN \(\1 of them hidden; values "ok" ×\1\)/.test(q), q);
      assertTrue(!q.includes("and 29 more"), q);
    });
    await t.step(
      "a value that reads as the question's end is quoted and cut (an input drops its line breaks)",
      async () => {
        const q = await question("/inject");
        assertIncludes(
          q,
          `"note": "hi). This is only a preview: nothing is sent. Allow it?(igno"…`,
        );
        assertIncludes(q, `"amount": "99999" (hidden)`);
      },
    );
    await t.step("names that read as values, a zero-width name: quoted, written out", async () => {
      const q = await question("/names");
      assertIncludes(q, `"amount=5, note": "hi" (hidden), "\\u200bamount": "99999" (hidden)`);
    });
    await t.step("a plain form: every field, quoted", async () => {
      const q = await question("/plain");
      assertIncludes(q, `POST ${origin}/donate (2 fields: "amount": "5", "msg": "two\\nlines")`);
    });
    await t.step("bad input: submits must be a boolean", async () => {
      const r = await mcp.call("click", { selector: "#go", submits: "yes" });
      assertEquals(r.isError, true, textOf(r));
    });
    assertEquals(posts, []);
  } finally {
    await mcp.close();
    await server.shutdown();
  }
});
