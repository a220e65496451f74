/**
 * What a human approves is what is sent (red team s14 #2, five swaps past the s13 fix): with
 * BROWX_CONFIRM_REQUIRED=submit the person is asked about a donation of 5; while they read, the
 * page changes the submit button's own value, moves the button into its other form (`form`
 * attribute), or adds a `formdata`, `submit` or `pointerdown` listener that rewrites the data
 * as it is sent. After the yes nothing of it may reach the server: the facts read again (the
 * control's form, its submitter entry, the data) or the request held by the navigation guard
 * (method, URL and entries against the approved data) fail the call, `page-changed`. The
 * question shows the fields (a password as ••••). Unchanged forms (urlencoded, multipart,
 * text/plain, a textarea's line breaks) still go. The page swaps once the test's "person" is
 * asked (it polls): no fixed waits.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { errorOf } from "./_results.ts";
import { eventually, refOf } from "./_util.ts";
import { poll, swapPages } from "./_swap_pages.ts";

const DONATE = (extra = "") =>
  `<form id=f action=/donate method=post${extra}><input name=amount value=5><button id=go>Donate $5</button></form>`;
const PAGES: Record<string, string> = {
  "/btnvalue":
    `<form id=f action=/donate method=post><input name=note value=hi><button id=go name=amount value=5>Donate $5</button></form>` +
    poll(`go.value = "99999"`),
  "/formattr": DONATE() +
    `<form id=f2 action=/settings method=post><input name=email value=attacker@evil.example><input name=forward value=all></form>` +
    poll(`go.setAttribute("form", "f2")`),
  "/formdata": DONATE() +
    poll(
      `f.addEventListener("formdata", (e) => { e.formData.set("amount", "99999"); e.formData.append("to", "attacker"); })`,
    ),
  "/onsubmit": DONATE() +
    poll(`f.addEventListener("submit", () => { f.amount.value = "99999"; })`),
  "/pointerdown": DONATE() +
    poll(`go.addEventListener("pointerdown", () => { f.amount.value = "99999"; })`),
  "/still":
    `<form id=f action=/donate method=post><input name=note value=hi><input type=password name=pin value=PinValue77><textarea name=msg>two\nlines</textarea><button id=go name=amount value=5>Donate $5</button></form>` +
    poll(""),
  "/multi": DONATE(` enctype="multipart/form-data"`) + poll(""),
  "/plain": DONATE(` enctype="text/plain"`) + poll(""),
};

Deno.test("confirm: the data sent after the yes is the data approved", async (t) => {
  const pages = swapPages(PAGES);
  const { origin, asked } = pages;
  const mcp = await startStdio({
    env: { BROWX_CAPABILITIES: "read,navigation,action", BROWX_CONFIRM_REQUIRED: "submit" },
    elicit: pages.elicit,
  });
  /** Clicks the page's button by ref (the red team's way) with `submits`, the page swapping. */
  const attempt = async (path: string, swapping = true) => {
    const nav = await mcp.ok("navigate", { url: origin + path, snapshot: "full" });
    const ref = refOf((nav.snapshotDelta as { tree: string }).tree, /button "Donate[^"]*"/);
    return await pages.during(swapping, () => mcp.call("click", { ref, submits: true }));
  };
  /** The call failed page-changed, said `words`, quoted no value, and nothing was posted. */
  const held = (r: Awaited<ReturnType<typeof attempt>>, ...words: string[]) => {
    assertEquals(errorOf(r.r).code, "page-changed", textOf(r.r));
    for (const w of words) assertIncludes(textOf(r.r), w);
    // The error names fields, never their values (the snapshot delta shows the page as it is).
    const said = textOf(r.r).split("\n")[0]!;
    assertTrue(!/99999|attacker/.test(said), `a value quoted: ${said}`);
    assertEquals(r.sent(), []);
  };
  try {
    await t.step("the submit button's own value changed: nothing sent", async () => {
      const r = await attempt("/btnvalue");
      assertIncludes(asked.at(-1) ?? "", `form 1 by button#go "Donate $5": POST ${origin}/donate`);
      assertIncludes(asked.at(-1) ?? "", `(2 fields: "note": "hi", "amount": "5")`);
      held(r, `"amount" has another value`);
    });
    await t.step("the button moved into the other form: nothing sent", async () => {
      held(await attempt("/formattr"), "sends form 2, was form 1");
    });
    await t.step("a formdata listener added while asked: nothing sent", async () => {
      held(await attempt("/formdata"), `"amount" has another value`, `"to" added`);
    });
    for (const path of ["/onsubmit", "/pointerdown"]) {
      await t.step(`a ${path.slice(1)} listener rewrites it as it is sent: stopped`, async () => {
        const r = await attempt(path);
        held(r, "with other data than the human approved", `"amount" has another value`);
        const policy = r.r.structuredContent?.policy as { rule?: string };
        assertEquals(policy.rule, "unapproved-submit", textOf(r.r));
      });
    }
    await t.step("an unchanged form goes; the question masks a password", async () => {
      const { r, sent } = await attempt("/still", false);
      assertTrue(!r.isError, textOf(r));
      const q = asked.at(-1) ?? "";
      assertIncludes(q, String.raw`"note": "hi", "pin": ••••, "msg": "two\nlines", "amount": "5"`);
      assertTrue(!q.includes("PinValue77"), q);
      await eventually(() => sent().length === 1, 5000, "the POST");
      assertEquals(sent(), ["/donate note=hi&pin=PinValue77&msg=two%0D%0Alines&amount=5"]);
    });
    for (const path of ["/multi", "/plain"]) {
      await t.step(`an unchanged ${path.slice(1)} form goes`, async () => {
        const { r, sent } = await attempt(path, false);
        assertTrue(!r.isError, textOf(r));
        await eventually(() => sent().length === 1, 5000, "the POST");
        assertIncludes(sent()[0]!, "5");
      });
    }
  } finally {
    await mcp.close();
    await pages.close();
  }
});
