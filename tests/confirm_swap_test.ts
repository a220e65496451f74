/**
 * What a human approves is what runs (red team s13 #2): with BROWX_CONFIRM_REQUIRED=submit the
 * person is asked about "POST /donate?amount=5"; while they read, the page rewrites its form
 * (action and amount, or a button's own formaction) or goes to another page with another form.
 * After the yes nothing may be sent, by ref or by selector: the call fails saying what changed.
 * An unchanged form still goes after the yes. The page swaps when the test's "person" tells it
 * to (it polls), and the person answers once the page says it swapped: no fixed waits.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { errorOf } from "./_results.ts";
import { eventually, refOf } from "./_util.ts";
import { poll, swapPages } from "./_swap_pages.ts";

const DONATE =
  `<form id=f action="/donate?amount=5" method=post><input name=amount value=5><button id=go>Donate $5</button></form>`;
const PAGES: Record<string, string | ((port: number) => string)> = {
  "/rewrite": DONATE + poll(`f.action = "/transfer-all?to=attacker"; f.amount.value = "99999"`),
  "/formaction": DONATE + poll(`go.formAction = "/transfer-all"`),
  "/nav":
    `<form id=f action=/ok method=post><input name=q value=x><button id=go>Send</button></form>` +
    poll(`location.href = "/nav2"`),
  "/nav2":
    `<form id=f action=/evil-form method=post><input name=wire value=all><button id=go>Send</button></form><script>fetch("/swapped")</script>`,
  "/still": DONATE + poll(""),
  // Inputs named like the form's own members shadow them (f.action is the input, in every world).
  "/shadow":
    `<form id=f action="/donate?amount=5" method=post><input type=hidden name=action value=x><input type=hidden name=method value=z><input name=amount value=5><button id=go>Donate $5</button></form>` +
    poll(`f.setAttribute("action", "/transfer-all")`),
  "/shadow2":
    `<form id=f action="/donate?amount=5" method=post><input type=hidden name=hasAttribute value=y><input type=hidden name=getAttribute value=z><input name=amount value=5><button id=go>Donate $5</button></form>` +
    poll(`f.setAttribute("action", "/transfer-all")`),
  // The page's click handler changes the form as it is sent, after the question was answered.
  "/onclick": DONATE +
    `<script>go.onclick = () => { f.action = "/transfer-all?to=attacker"; f.amount.value = "99999"; };</script>`,
  "/get":
    `<form id=f action="/find?in=docs"><input name=q value=cats><button id=go>Find</button></form>`,
  // A frame's form, rewritten while the person reads (same-origin here; /xframed: cross-origin).
  "/inner": DONATE + poll(`f.action = "/transfer-all?to=attacker"; f.amount.value = "99999"`),
  "/framed": `<p>Donate below</p><iframe src="/inner"></iframe>`,
  // The same server under another host name is another origin (and site: an OOPIF).
  "/xframed": (port) => `<p>Donate below</p><iframe src="http://localhost:${port}/inner"></iframe>`,
  "/inner-onclick": DONATE +
    `<script>go.onclick = () => { f.action = "/transfer-all?to=attacker"; f.amount.value = "99999"; };</script>`,
  "/framed-onclick": `<p>Donate below</p><iframe src="/inner-onclick"></iframe>`,
  "/inner-still": DONATE + poll(""),
  "/framed-still": `<p>Donate below</p><iframe src="/inner-still"></iframe>`,
};

Deno.test("confirm: the page changing while the human reads sends nothing", async (t) => {
  const pages = swapPages(PAGES);
  const { origin, asked } = pages;
  const mcp = await startStdio({
    env: { BROWX_CAPABILITIES: "read,navigation,action", BROWX_CONFIRM_REQUIRED: "submit" },
    elicit: pages.elicit,
  });
  const attempt = async (path: string, by: "ref" | "selector", swapping = true) => {
    const nav = await mcp.ok("navigate", { url: origin + path, snapshot: "full" });
    const ref = by === "ref"
      ? refOf((nav.snapshotDelta as { tree: string }).tree, /button "[^"]*"/)
      : undefined;
    return await pages.during(
      swapping,
      () =>
        mcp.call(
          "click",
          by === "ref" ? { ref, submits: true } : { selector: "#go", submits: true },
        ),
    );
  };
  try {
    for (const by of ["selector", "ref"] as const) {
      await t.step(`the form rewritten (action, amount), by ${by}: nothing sent`, async () => {
        const { r, sent } = await attempt("/rewrite", by);
        assertIncludes(asked.at(-1) ?? "", "/donate?amount=5");
        assertEquals(errorOf(r).code, "page-changed", textOf(r));
        assertIncludes(textOf(r), "sent to POST " + origin + "/donate?amount=5, now POST");
        assertIncludes(textOf(r), "/transfer-all?to=attacker");
        assertIncludes(textOf(r), `"amount" has another value`);
        assertTrue(!textOf(r).includes("99999"), "a field's value is never quoted");
        assertEquals(sent(), []);
      });
      await t.step(
        `inputs shadow the form's members, by ${by}: still told, still held`,
        async () => {
          const { r, sent } = await attempt("/shadow", by);
          assertIncludes(asked.at(-1) ?? "", `(its forms send to: POST ${origin}/donate?amount=5)`);
          assertEquals(errorOf(r).code, "page-changed", textOf(r));
          assertIncludes(textOf(r), `now POST ${origin}/transfer-all`);
          assertEquals(sent(), []);
        },
      );
      await t.step(`a button's formaction rewritten, by ${by}: nothing sent`, async () => {
        const { r, sent } = await attempt("/formaction", by);
        assertEquals(errorOf(r).code, "page-changed", textOf(r));
        assertIncludes(textOf(r), "/transfer-all");
        assertEquals(sent(), []);
      });
      await t.step(`the page navigated to another form, by ${by}: nothing sent`, async () => {
        const { r, sent } = await attempt("/nav", by);
        assertTrue(r.isError, textOf(r));
        if (by === "selector") {
          assertEquals(errorOf(r).code, "page-changed", textOf(r));
          assertIncludes(textOf(r), `another document (was ${origin}/nav, now ${origin}/nav2)`);
        }
        assertEquals(sent(), []);
      });
    }
    for (const path of ["/framed", "/xframed"]) {
      await t.step(`a frame's form rewritten (${path}), by ref: nothing sent`, async () => {
        const { r, sent } = await attempt(path, "ref");
        assertIncludes(asked.at(-1) ?? "", "/donate?amount=5 (a frame's form)");
        assertEquals(errorOf(r).code, "page-changed", textOf(r));
        assertIncludes(textOf(r), "/transfer-all?to=attacker");
        assertIncludes(textOf(r), "in the frame");
        assertEquals(sent(), []);
      });
    }
    await t.step("a frame's click handler rewrites its form as it is sent: stopped", async () => {
      const { r, sent } = await attempt("/framed-onclick", "ref", false);
      assertEquals(errorOf(r).code, "blocked-by-policy", textOf(r));
      assertEquals((r.structuredContent?.policy as { rule?: string }).rule, "unapproved-submit");
      assertEquals(sent(), []);
    });
    await t.step("an unchanged form still goes after the yes", async () => {
      const { r, sent } = await attempt("/still", "ref", false);
      assertTrue(!r.isError, textOf(r));
      await eventually(() => sent().length === 1, 5000, "the POST");
      assertEquals(sent(), ["/donate?amount=5 amount=5"]);
    });
    await t.step("an unchanged frame's form still goes after the yes", async () => {
      const { r, sent } = await attempt("/framed-still", "ref", false);
      assertTrue(!r.isError, textOf(r));
      await eventually(() => sent().length === 1, 5000, "the POST");
      assertEquals(sent(), ["/donate?amount=5 amount=5"]);
    });
    await t.step("a field named hasAttribute, getAttribute: still told, still held", async () => {
      const { r, sent } = await attempt("/shadow2", "selector");
      assertIncludes(asked.at(-1) ?? "", `(its forms send to: POST ${origin}/donate?amount=5)`);
      assertEquals(errorOf(r).code, "page-changed", textOf(r));
      assertEquals(sent(), []);
    });
    await t.step("the click handler rewrites the form as it is sent: stopped", async () => {
      const { r, sent } = await attempt("/onclick", "selector", false);
      assertEquals(errorOf(r).code, "blocked-by-policy", textOf(r));
      assertEquals((r.structuredContent?.policy as { rule?: string }).rule, "unapproved-submit");
      assertIncludes(textOf(r), `not where the human approved it to send (POST ${origin}/donate`);
      assertEquals(sent(), []);
    });
    await t.step("an approved GET form goes with its fields in the query", async () => {
      const { r } = await attempt("/get", "selector", false);
      assertTrue(!r.isError, textOf(r));
      assertIncludes(JSON.stringify(r.structuredContent?.navigation), "/find?q=cats");
    });
    await t.step("bad input: submits must be a boolean", async () => {
      const r = await mcp.call("click", { selector: "#go", submits: "yes" });
      assertEquals(r.isError, true, textOf(r));
    });
  } finally {
    await mcp.close();
    await pages.close();
  }
});
