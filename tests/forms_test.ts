/**
 * The forms toolset against a small CMS served by the test (`cms.html`,
 * `fixtures/cms.ts`): read_form, fill_form, set_editor on a contenteditable
 * and on a CKEditor-style iframe editor, review_form, save_draft and
 * publish — checked against what the server actually stored.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import type { CmsItem } from "./fixtures/cms.ts";
import { type FixtureServer, startFixtureServer } from "./fixtures/server.ts";
import { type McpHarness, startStdio, textOf } from "./_mcp.ts";

type R = Record<string, unknown>;
const CAPS = "read,navigation,action,eval";
const PUBLIC = "input[name=is_draft][value='0']";

async function items(fx: FixtureServer): Promise<CmsItem[]> {
  return await (await fetch(fx.url("/cms/items.json"))).json();
}

async function evalJs(mcp: McpHarness, expression: string): Promise<unknown> {
  return (await mcp.ok("eval_js", { expression })).value;
}

/** Everything a user could see or change in the form, and where the focus is. */
const FINGERPRINT = `JSON.stringify({
  fields: [...document.querySelectorAll("input, select, textarea")].map((e) =>
    [e.name, e.value, e.checked, e.files ? [...e.files].map((f) => f.name) : null]),
  body: document.getElementById("body_ifr").contentDocument.body.innerHTML,
  summary: document.getElementById("summary-editor").innerHTML,
  focus: document.activeElement?.id ?? null,
  url: location.href,
})`;

Deno.test("forms: read, fill, editors, review, save_draft and publish on a CMS form", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: CAPS, BROWX_TOOLSETS: "all" } });
  const field = (form: R, name: string) => (form.fields as R[]).find((f) => f.name === name) ?? {};
  try {
    await t.step("read_form: fields, usable, secrets, drafts, editors, submitText", async () => {
      await mcp.ok("navigate", { url: fx.url("cms.html"), snapshot: "none" });
      const form = await mcp.ok("read_form");
      assertEquals((form.form as R).selector, "#news");
      assertEquals(field(form, "title").required, true);
      assertEquals(field(form, "title").usable, true);
      // The event section stays hidden until an event-like category is chosen.
      assertEquals(field(form, "event_country").usable, false);
      assertEquals(
        (field(form, "category").options as R[]).map((o) => o.label),
        ["Choose…", "News", "Event", "Deal/Offer"],
      );
      assertEquals((field(form, "tags").options as R[]).map((o) => o.value), [
        "local",
        "politics",
        "sport",
      ]);
      assertEquals(field(form, "pin").secret, true);
      assertEquals(field(form, "body").editor, "#body_ifr");
      assertEquals(form.hiddenInputs, 2);
      assertTrue(!JSON.stringify(form).includes("tok-123"), "hidden values are not listed");
      assertEquals((form.submitText as R[])[0]!.text, "Submit");
      const drafts = form.drafts as R[];
      assertEquals(drafts.length, 1);
      assertEquals(drafts[0]!.name, "is_draft");
      assertEquals(drafts[0]!.state, "draft");
      assertEquals(
        (drafts[0]!.options as R[]).map((o) => [o.value, o.means]),
        [["1", "draft"], ["0", "public"]],
      );
      assertEquals(form.draftState, "draft");
      const editors = form.editors as R[];
      assertEquals(editors.map((e) => [e.kind, e.postsAs]), [
        ["contenteditable", "summary"],
        ["iframe", "body"],
      ]);
      // The picker's location field posts with the form (form=news); its search box does not.
      assertEquals(field(form, "location").outside, true);
      assertEquals(field(form, "q").name, undefined);
      const whole = await mcp.ok("read_form", { whole_page: true });
      assertEquals(field(whole, "q").posts, false);
    });

    await t.step("fill_form: every field is tried; failures are reported per field", async () => {
      const r = await mcp.call("fill_form", {
        fields: [
          { name: "title", value: "First item" },
          { name: "category", value: "Event" },
          { name: "tags", value: ["local", "sport"] },
          { name: "event_country", value: "NL" },
          { name: "pin", value: "4321" },
          { name: "no_such_field", value: "x" },
          { selector: "#summary", value: "sneaky" },
        ],
        snapshot: "none",
      });
      assertEquals(r.isError, true);
      const out = r.structuredContent!;
      assertEquals(out.ok, false);
      const results = out.fields as R[];
      assertEquals(results.map((f) => f.ok), [true, true, true, true, true, false, false]);
      assertEquals(results[1]!.value, "event");
      assertEquals(results[4]!.value, "••••");
      assertTrue(!JSON.stringify(out).includes("4321"), "secret value never echoed");
      assertEquals((results[5]!.error as R).code, "not-found");
      assertEquals((results[6]!.error as R).code, "not-visible");
      assertIncludes(textOf(r), "2 of 7 field(s) not set");
      const form = await mcp.ok("read_form");
      assertEquals(field(form, "event_country").usable, true);
      assertEquals(field(form, "event_country").value, "NL");
      assertEquals(field(form, "tags").value, ["local", "sport"]);
      assertEquals(await evalJs(mcp, "document.getElementById('summary').value"), "");
    });

    await t.step("set_editor: contenteditable (text) and iframe editor (html) sync", async () => {
      const s = await mcp.ok("set_editor", {
        selector: "#summary-editor",
        text: "Short summary",
        snapshot: "none",
      });
      assertEquals(s.postsAs, "summary");
      assertEquals((s.editor as R).kind, "contenteditable");
      assertEquals(await evalJs(mcp, "document.getElementById('summary').value"), "Short summary");
      // Addressed by the hidden textarea the form posts: the editor is found from it.
      const b = await mcp.ok("set_editor", {
        selector: "#body",
        text: "<p>Body with <b>bold</b></p>",
        html: true,
        snapshot: "none",
      });
      assertEquals(b.postsAs, "body");
      assertEquals((b.editor as R).selector, "#body_ifr");
      assertEquals((b.editor as R).api, "ckeditor4");
      assertEquals(await evalJs(mcp, "window.__setDataCalls"), 1);
      assertEquals(
        await evalJs(mcp, "document.getElementById('body').value"),
        "<p>Body with <b>bold</b></p>",
      );
    });

    await t.step("review_form gathers what will be published and changes nothing", async () => {
      await evalJs(
        mcp,
        `(() => { const dt = new DataTransfer(); dt.items.add(new File(["x"], "photo.jpg"));
          document.getElementById("attachment").files = dt.files; return true; })()`,
      );
      const before = await evalJs(mcp, FINGERPRINT);
      const requests = fx.requests.length;
      const review = await mcp.ok("review_form");
      assertEquals(await evalJs(mcp, FINGERPRINT), before);
      assertEquals(fx.requests.length, requests, "review sent nothing");
      assertEquals(review.draftState, "draft");
      assertEquals(field(review, "title").value, "First item");
      assertEquals(field(review, "pin").value, "••••");
      const bodies = review.editors as R[];
      assertEquals(bodies[1]!.html, "<p>Body with <b>bold</b></p>");
      assertEquals(bodies[0]!.text, "Short summary");
      assertEquals(review.attachments, [{ name: "attachment", files: ["photo.jpg"] }]);
    });

    await t.step("save_draft posts a draft; the POST carries the editors' content", async () => {
      const r = await mcp.ok("save_draft", { submit: "Submit", snapshot: "none" });
      assertEquals(r.ok, true);
      assertIncludes(String((r.navigation as R).to), "/cms/list");
      const stored = (await items(fx)).at(-1)!;
      assertEquals(stored.draft, true);
      assertEquals(stored.fields.title, "First item");
      assertEquals(stored.fields.tags, ["local", "sport"]);
      assertEquals(stored.fields.summary, "Short summary");
      assertEquals(stored.fields.body, "<p>Body with <b>bold</b></p>");
      assertEquals(stored.files.attachment, ["photo.jpg"]);
      const list = await evalJs(mcp, "document.body.innerText");
      assertIncludes(String(list), "First item — Draft");
    });

    await t.step(
      "set_editor by typing into the iframe editor; no target = first editor",
      async () => {
        await mcp.ok("navigate", { url: fx.url("cms.html"), snapshot: "none" });
        const b = await mcp.ok("set_editor", { selector: "#body_ifr", text: "Typed body" });
        assertEquals(b.syncedBy, "ckeditor4");
        assertEquals(await evalJs(mcp, "document.getElementById('body').value"), "Typed body");
        const first = await mcp.ok("set_editor", { text: "First editor", snapshot: "none" });
        assertEquals((first.editor as R).selector, "#summary-editor");
      },
    );

    await t.step("save_draft refuses a form armed public, and sends nothing", async () => {
      await mcp.ok("fill_form", {
        fields: [{ name: "title", value: "Armed" }, { name: "is_draft", value: "Public" }],
        snapshot: "none",
      });
      const count = (await items(fx)).length;
      const r = await mcp.call("save_draft", { submit: "Submit", snapshot: "none" });
      assertEquals(r.isError, true);
      assertEquals((r.structuredContent!.error as R).code, "refused");
      assertIncludes(textOf(r), "armed to publish");
      assertEquals((await items(fx)).length, count);
      assertIncludes(String(await evalJs(mcp, "location.href")), "cms.html");
    });

    await t.step("publish sets the control and sends the form: a public item", async () => {
      await mcp.ok("navigate", { url: fx.url("cms.html"), snapshot: "none" });
      await mcp.ok("fill_form", { fields: [{ name: "title", value: "Big news" }] });
      await mcp.ok("set_editor", { selector: "#body_ifr", text: "<p>Out now</p>", html: true });
      const r = await mcp.ok("publish", { selector: PUBLIC, submit: "Submit", snapshot: "none" });
      assertEquals(r.ok, true);
      assertEquals((r.published as R).after, "public");
      const stored = (await items(fx)).at(-1)!;
      assertEquals(stored.draft, false);
      assertEquals(stored.fields.title, "Big news");
      assertEquals(stored.fields.body, "<p>Out now</p>");
      assertIncludes(String(await evalJs(mcp, "document.body.innerText")), "Big news — Public");
    });

    await t.step("publish whose send fails leaves the form on draft, nothing posted", async () => {
      await mcp.ok("navigate", { url: fx.url("cms.html"), snapshot: "none" });
      const count = (await items(fx)).length;
      // The title is required and empty: the browser's validation stops the send.
      const r = await mcp.call("publish", { selector: PUBLIC, submit: "Submit", snapshot: "none" });
      assertEquals(r.isError, true);
      assertIncludes(textOf(r), "validation");
      assertIncludes(textOf(r), "set back");
      assertEquals((await items(fx)).length, count);
      assertEquals(
        await evalJs(mcp, "document.querySelector('input[name=is_draft]:checked').value"),
        "1",
      );
      // The draft option is not a way to publish.
      const wrong = await mcp.call("publish", {
        selector: "input[name=is_draft][value='1']",
        submit: "Submit",
      });
      assertEquals((wrong.structuredContent!.error as R).code, "invalid-argument");
      assertIncludes(textOf(wrong), "draft setting");
    });

    await t.step(
      "publish controls of other shapes: is_live radios, a select, a checkbox",
      async () => {
        await mcp.ok("navigate", { url: fx.url("cms-more.html"), snapshot: "none" });
        const means = (form: R) =>
          (form.drafts as R[]).map((d) => [
            d.name,
            d.state,
            (d.options as R[]).map((o) => o.means),
          ]);
        // The biggest form, not the search box that comes first.
        const product = await mcp.ok("read_form");
        assertEquals((product.form as R).selector, "#product");
        assertEquals(means(product), [["is_live", "draft", ["public", "draft"]]]);
        assertEquals(means(await mcp.ok("read_form", { root: "#post" })), [
          ["post_status", "draft", ["draft", "draft", "public"]],
        ]);
        assertEquals(means(await mcp.ok("read_form", { root: "#page" })), [
          ["page[is_draft]", "draft", ["draft", "public"]],
        ]);
        assertEquals((await mcp.ok("read_form", { root: "#search" })).draftState, "none");
        const last = async () => (await items(fx)).at(-1)!.fields;

        await mcp.ok("publish", {
          selector: "input[name=is_live][value='1']",
          submit: "Add",
          snapshot: "none",
        });
        assertEquals((await last()).is_live, "1");
        await mcp.ok("navigate", { url: fx.url("cms-more.html"), snapshot: "none" });
        // A select names its public option itself.
        await mcp.ok("publish", { selector: "#status", submit: "Save post", snapshot: "none" });
        assertEquals((await last()).post_status, "publish");
        await mcp.ok("navigate", { url: fx.url("cms-more.html"), snapshot: "none" });
        await mcp.ok("save_draft", { submit: "Save page", snapshot: "none" });
        assertEquals((await last())["page[is_draft]"], "1");
        await mcp.ok("navigate", { url: fx.url("cms-more.html"), snapshot: "none" });
        // The public setting of an is_draft checkbox is unchecked.
        await mcp.ok("publish", {
          selector: "input[name='page[is_draft]']",
          submit: "Save page",
          snapshot: "none",
        });
        assertEquals((await last())["page[is_draft]"], undefined);
        assertEquals((await last()).title, "");
      },
    );

    await t.step(
      "read_form on a page without a form offers the buttons that look like submits",
      async () => {
        // A booking app: a hidden calendar's day buttons, an editor's toolbar, a visible "Pay
        // now"; rows' Delete buttons and a cookie banner's Accept all (new user s15 #5: offered
        // as submit controls, an agent may press Delete); a button typed submit.
        const days = Array.from({ length: 31 }, (_, i) => `<button>${i + 1}</button>`).join("");
        const page = `<!doctype html><label>Name <input name=who></label>
        <div role=grid hidden>${days}</div>
        <div role=toolbar><button>Bold</button><button>Italic</button></div>
        <ul><li>Apple <button>Delete</button></li><li>Pear <button>Delete</button></li></ul>
        <button onclick="this.textContent = 'Paid'">Pay now</button>
        <button type=submit>Book it</button><button>Accept all</button>`;
        await mcp.ok("navigate", {
          url: "data:text/html," + encodeURIComponent(page),
          snapshot: "none",
        });
        const r = await mcp.ok("read_form", {});
        assertEquals(r.form, null);
        assertEquals((r.submitText as R[]).map((s) => s.text), ["Pay now", "Book it"]);
        assertIncludes(String(r.submitNote), "3 other button(s) not listed");
        assertEquals((r.fields as R[]).map((f) => f.name), ["who"]);
        // Only Delete buttons: none listed, and the note says why.
        await mcp.ok("navigate", {
          url: "data:text/html," +
            encodeURIComponent(`<ul><li>Apple <button>Delete</button></li></ul>`),
          snapshot: "none",
        });
        const none = await mcp.ok("read_form", {});
        assertEquals(none.submitText, []);
        assertIncludes(String(none.submitNote), "no <form> here");
      },
    );
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("forms: with the publish hook and no human channel, publish is refused", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({
    env: { BROWX_CAPABILITIES: CAPS, BROWX_TOOLSETS: "all", BROWX_CONFIRM_REQUIRED: "publish" },
  });
  try {
    await mcp.ok("navigate", { url: fx.url("cms.html"), snapshot: "none" });
    await mcp.ok("fill_form", { fields: [{ name: "title", value: "Held back" }] });
    const r = await mcp.call("publish", { selector: PUBLIC, submit: "Submit" });
    assertEquals(r.isError, true);
    assertEquals((r.structuredContent!.error as R).code, "blocked-by-policy");
    assertIncludes(textOf(r), "publish");
    assertEquals((await items(fx)).length, 0);
    // Nothing was armed while asking.
    assertEquals(
      await evalJs(mcp, "document.querySelector('input[name=is_draft]:checked').value"),
      "1",
    );
    // Saving a draft asks only the submit hook, which is not configured here.
    const saved = await mcp.ok("save_draft", { submit: "Submit", snapshot: "none" });
    assertEquals(saved.ok, true);
    assertEquals((await items(fx)).map((i) => [i.fields.title, i.draft]), [["Held back", true]]);
    // No way around it: arming the control by hand and sending the form is publishing too.
    await mcp.ok("navigate", { url: fx.url("cms.html"), snapshot: "none" });
    await mcp.ok("fill_form", {
      fields: [{ name: "title", value: "Sneaked out" }, { name: "is_draft", value: "0" }],
    });
    const sneaky = await mcp.call("click", { selector: "text=Submit", submits: true });
    assertEquals((sneaky.structuredContent!.error as R).code, "blocked-by-policy", textOf(sneaky));
    assertIncludes(textOf(sneaky), "publish");
    assertEquals((await items(fx)).length, 1);
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("forms: publish stopped by the navigation policy leaves the form on draft", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({
    env: { BROWX_CAPABILITIES: CAPS, BROWX_TOOLSETS: "all", BROWX_ALLOWED_ORIGINS: "127.0.0.1" },
  });
  try {
    // The form posts to another origin, which the allowlist does not cover.
    const action = encodeURIComponent(fx.crossUrl("/cms/items"));
    await mcp.ok("navigate", { url: fx.url(`cms.html?action=${action}`), snapshot: "none" });
    await mcp.ok("fill_form", { fields: [{ name: "title", value: "Off site" }] });
    const r = await mcp.call("publish", { selector: PUBLIC, submit: "Submit", snapshot: "none" });
    assertEquals(r.isError, true);
    assertEquals((r.structuredContent!.error as R).code, "blocked-by-policy");
    assertIncludes(textOf(r), "set back");
    assertEquals((await items(fx)).length, 0);
    assertEquals(
      await evalJs(mcp, "document.querySelector('input[name=is_draft]:checked').value"),
      "1",
    );
  } finally {
    await mcp.close();
    await fx.close();
  }
});
