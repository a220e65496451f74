/**
 * The attack: a page hides its content from the agent by DOM clobbering a `<form>`.
 * `HTMLFormElement` is `[LegacyOverrideBuiltIns]`, so `<input name="hasAttribute">` inside a
 * form makes `form.hasAttribute` that input in every world, browxai's utility world too: the
 * page-side library's walks threw (`hasAttribute`, `getAttribute`, `localName`,
 * `checkVisibility`) or silently dropped the form and what follows it (`nodeType`,
 * `shadowRoot`, `nextSibling`). Per member the library reads, a page whose form holds a hidden
 * input named after it; snapshot, read_page, find, text_search, fill_form, review_form,
 * read_form and a click on the form's button must all work and show the form's fields and the
 * text after the form.
 * In-process MCP, real Chromium, pages served here.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startInProcess } from "./_in_process.ts";
import { textOf } from "./_mcp.ts";
import { servePages } from "./_util.ts";

type R = Record<string, unknown>;

/** DOM members the page-side library reads on elements that may be a form. */
const NAMES = [
  // The probe's names (each broke or could break the snapshot).
  "hasAttribute",
  "getAttribute",
  "localName",
  "closest",
  "matches",
  "querySelectorAll",
  "children",
  "parentElement",
  "id",
  "tagName",
  "nodeType",
  "getBoundingClientRect",
  "textContent",
  "elements",
  "action",
  "method",
  "contains",
  "checkVisibility",
  "shadowRoot",
  "attributes",
  "childNodes",
  "firstChild",
  "nextSibling",
  "getRootNode",
  "nodeName",
  "ownerDocument",
  // More members the library uses.
  "parentNode",
  "querySelector",
  "isConnected",
  "className",
  "getClientRects",
  "hidden",
  "inert",
  "style",
  "name",
  "role",
  "title",
  "labels",
  "type",
  "value",
  "ariaLabel",
  "innerText",
  "assignedSlot",
  "firstElementChild",
  "nextElementSibling",
  "previousSibling",
  "lastChild",
  "submit",
  "requestSubmit",
  "checkValidity",
  "noValidate",
  "target",
  "scrollIntoView",
  "focus",
  "dispatchEvent",
  "addEventListener",
  // Every other member of a form that the library names somewhere (`.name` in its source).
  "after",
  "append",
  "attachShadow",
  "before",
  "click",
  "clientHeight",
  "clientLeft",
  "clientTop",
  "clientWidth",
  "cloneNode",
  "enctype",
  "getAttributeNames",
  "getElementsByClassName",
  "getElementsByTagName",
  "hidePopover",
  "innerHTML",
  "isContentEditable",
  "lastElementChild",
  "length",
  "namespaceURI",
  "nodeValue",
  "offsetHeight",
  "offsetWidth",
  "prefix",
  "previousElementSibling",
  "remove",
  "removeAttribute",
  "removeAttributeNode",
  "removeEventListener",
  "replaceChildren",
  "replaceWith",
  "scroll",
  "scrollBy",
  "scrollHeight",
  "scrollIntoViewIfNeeded",
  "scrollLeft",
  "scrollTo",
  "scrollTop",
  "scrollWidth",
  "setAttribute",
  "setAttributeNodeNS",
  "showPopover",
  "toString",
];

/** Names per page: a page's form holds several (every name is still covered), for speed. */
const PER_PAGE = 8;
const GROUPS: string[][] = [];
for (let i = 0; i < NAMES.length; i += PER_PAGE) GROUPS.push(NAMES.slice(i, i + PER_PAGE));

/** A spacer puts the form below the fold: acting on it scrolls it (`scrollIntoView`). */
function page(names: string[]): string {
  const hidden = names.map((n) => `<input type=hidden name="${n}" value=x>`).join("");
  return `<!doctype html><title>Clobber</title><main><h1>Head</h1>
<div style="height:120vh">Spacer</div>
<form id=f action=/post method=post>${hidden}
<label>Email <input name=email></label><button type=button id=go>Go</button></form>
<p id=after>Visible text after the form</p></main>
<script>
document.getElementById("go").addEventListener("click", () => {
  document.getElementById("after").append(" clicked");
});
</script>`;
}

/**
 * A form set to publish (its status radio on Public), holding the clobbering names; images
 * named `forms` and `body` shadow the document's members (`[...document.forms]` threw, and the
 * publish question was skipped).
 */
function publishPage(names: string[]): string {
  const hidden = names.map((n) => `<input type=hidden name="${n}" value=x>`).join("");
  return `<!doctype html><title>Publish</title><img name=forms alt=""><img name=body alt="">
<form action=/post method=post>${hidden}
<label>Title <input name=title value=Hello></label>
<label><input type=radio name=status value=draft> Draft</label>
<label><input type=radio name=status value=public checked> Public</label>
<button id=save>Save</button></form>`;
}

Deno.test("a form clobbering DOM members hides nothing from snapshot, find, text_search, read_form or a click", async (t) => {
  const pages = servePages(Object.fromEntries(GROUPS.flatMap((g, i) => [
    [`/${i}`, page(g)],
    [`/publish/${i}`, publishPage(g)],
  ])));
  const asked: string[] = [];
  // Every question is refused: the publish step checks it was asked, and nothing is sent.
  const mcp = await startInProcess({
    BROWX_TOOLSETS: "all",
    BROWX_CAPABILITIES: "read,navigation,action",
    BROWX_CONFIRM_REQUIRED: "publish",
  }, (params) => {
    asked.push(String(params.message));
    return { action: "decline" };
  });
  const ok = async (tool: string, args: R): Promise<R> => {
    const r = await mcp.call(tool, args);
    assertTrue(!r.isError, `${tool} ${JSON.stringify(args)}: ${textOf(r)}`);
    return (r.structuredContent ?? {}) as R;
  };
  try {
    for (const [i, names] of GROUPS.entries()) {
      const name = names.join(",");
      await t.step(name, async () => {
        await ok("navigate", { url: `${pages.base}/${i}`, snapshot: "none" });

        const tree = String((await ok("snapshot", {})).tree);
        assertIncludes(tree, "Email", `${name}: snapshot`);
        assertIncludes(tree, "Visible text after the form", `${name}: snapshot`);
        assertTrue(/button "Go" \[ref=e\d+\]/.test(tree), `${name}: snapshot: ${tree}`);

        const read = textOf(await mcp.call("read_page", {}));
        assertIncludes(read, "Visible text after the form", `${name}: read_page`);

        const found = await ok("find", { query: "Go button", limit: 3 });
        const top = (found.candidates as R[])[0];
        assertEquals(top?.name, "Go", `${name}: find: ${JSON.stringify(found)}`);

        const hits = await ok("text_search", { query: "Visible text after" });
        assertEquals(hits.total, 1, `${name}: text_search: ${JSON.stringify(hits)}`);

        await ok("fill_form", { fields: [{ name: "email", value: "a@b.example" }] });
        const review = JSON.stringify(await ok("review_form", {}));
        assertIncludes(review, "a@b.example", `${name}: review_form`);

        const form = await ok("read_form", {});
        const fields = JSON.stringify(form);
        assertTrue(
          (form.fields as R[] | undefined)?.some((f) =>
            f.name === "email" && f.value === "a@b.example"
          ) === true,
          `${name}: read_form: ${fields}`,
        );

        await ok("click", { ref: top!.ref, snapshot: "none" });
        const after = String((await ok("snapshot", {})).tree);
        assertIncludes(after, "Visible text after the form clicked", `${name}: click`);

        // Acting on the form element itself: scrolled to, hovered, clicked.
        await ok("scroll", { to: "top", snapshot: "none" });
        await ok("scroll", { selector: "#f", snapshot: "none" });
        await ok("scroll", { to: "top", snapshot: "none" });
        await ok("hover", { selector: "#f", snapshot: "none" });
        await ok("click", { selector: "#f", snapshot: "none" });
      });
      await t.step(`${name}: the publish question is asked`, async () => {
        await ok("navigate", { url: `${pages.base}/publish/${i}`, snapshot: "none" });
        const before = asked.length;
        const r = await mcp.call("click", { selector: "#save", submits: true, snapshot: "none" });
        assertTrue(r.isError === true, `${name}: the click went unasked: ${textOf(r)}`);
        assertIncludes(asked.slice(before).join("\n"), '"publish"', `${name}: ${textOf(r)}`);
      });
    }
  } finally {
    await mcp.close();
    await pages.close();
  }
});
