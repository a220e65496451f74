/**
 * After a human's yes only the approved send goes out (red team s15 #4): with
 * BROWX_CONFIRM_REQUIRED=submit the person is asked about a donation of 5; while they read, the
 * page adds a `submit` listener that cancels the form and sends other data itself — `fetch` to
 * the same URL (amount=99999), `fetch` to /settings, `navigator.sendBeacon`. Each such write is
 * refused by the navigation guard (method, URL and entries against the approved data): the
 * server gets nothing and the call fails, saying so. A listener sending exactly the approved
 * data still goes. The page swaps once the test's "person" is asked (it polls): no fixed waits.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { errorOf } from "./_results.ts";
import { eventually, refOf } from "./_util.ts";
import { poll, swapPages } from "./_swap_pages.ts";

const FORM =
  `<form id=f action=/donate method=post><input name=amount value=5><input name=note value=hi><button id=go>Donate $5</button></form>`;
/** A submit listener, added while the person reads, that cancels the form and runs `send`. */
const listener = (send: string) =>
  // `onsubmit`, set twice when two polls see the swap, is one listener.
  FORM + poll(`f.onsubmit = (e) => { e.preventDefault(); ${send}; }`);
const URLENC = `headers: { "content-type": "application/x-www-form-urlencoded" }`;
const PAGES: Record<string, string> = {
  "/fetchsame": listener(
    `fetch("/donate", { method: "POST", ${URLENC}, body: "amount=99999&note=hi" })`,
  ),
  "/fetchother": listener(
    `fetch("/settings", { method: "POST", body: new URLSearchParams({ email: "attacker@evil.example", forward: "all" }) })`,
  ),
  "/beacon": listener(
    `navigator.sendBeacon("/donate", new URLSearchParams({ amount: "99999", note: "hi" }))`,
  ),
  // The approved data sent twice: the second is another send.
  "/twice": listener(
    `for (let i = 0; i < 2; i++) fetch("/donate", { method: "POST", ${URLENC}, body: "amount=5&note=hi" })`,
  ),
  // A legitimate send: the page it loads posts on its own (not the approved document's write).
  "/getform":
    `<form id=f action=/thanks method=get><input name=amount value=5><button id=go>Donate $5</button></form>` +
    poll(""),
  "/thanks": `<p>thanks</p><script>fetch("/track", { method: "POST", body: "seen" })</script>`,
  "/fetchexact": listener(
    `fetch("/donate", { method: "POST", ${URLENC}, body: "amount=5&note=hi" })`,
  ),
};

Deno.test("confirm: after the yes a page's own write with other data is refused", async (t) => {
  const pages = swapPages(PAGES);
  const { origin } = pages;
  const mcp = await startStdio({
    env: { BROWX_CAPABILITIES: "read,navigation,action", BROWX_CONFIRM_REQUIRED: "submit" },
    elicit: pages.elicit,
  });
  const attempt = async (path: string) => {
    const nav = await mcp.ok("navigate", { url: origin + path, snapshot: "full" });
    const ref = refOf((nav.snapshotDelta as { tree: string }).tree, /button "Donate[^"]*"/);
    return await pages.during(true, () => mcp.call("click", { ref, submits: true }));
  };
  try {
    for (
      const [path, words] of [
        ["/fetchsame", `"amount" has another value`],
        ["/fetchother", `not where the human approved the form to send (POST ${origin}/donate)`],
        ["/beacon", `"amount" has another value`],
      ] as const
    ) {
      await t.step(`${path.slice(1)}: refused, nothing sent, the result says so`, async () => {
        const { r, sent } = await attempt(path);
        assertEquals(errorOf(r).code, "page-changed", textOf(r));
        assertIncludes(textOf(r), "after the human's yes the page sent a request of its own");
        assertIncludes(textOf(r), words);
        assertTrue(!/99999|attacker/.test(textOf(r).split("\n")[0]!), textOf(r));
        const policy = r.structuredContent?.policy as { rule?: string };
        assertEquals(policy.rule, "unapproved-submit", textOf(r));
        // Refused at the request, which the call's result waited for.
        assertEquals(sent(), []);
      });
    }
    await t.step("a listener sending exactly the approved data goes", async () => {
      const { r, sent } = await attempt("/fetchexact");
      assertTrue(!r.isError, textOf(r));
      await eventually(() => sent().length === 1, 5000, "the POST");
      assertEquals(sent(), ["/donate amount=5&note=hi"]);
    });
    await t.step("the approved data sent twice: the second is refused", async () => {
      const { r, sent } = await attempt("/twice");
      assertEquals(errorOf(r).code, "page-changed", textOf(r));
      assertIncludes(textOf(r), "again, after the approved send had gone");
      assertEquals(sent(), ["/donate amount=5&note=hi"]);
    });
    await t.step("the page the approved form loads may post on its own", async () => {
      const { r, sent } = await attempt("/getform");
      assertTrue(!r.isError, textOf(r));
      await eventually(() => sent().length === 1, 5000, "the new page's POST");
      assertEquals(sent(), ["/track seen"]);
    });
  } finally {
    await mcp.close();
    await pages.close();
  }
});
