/**
 * `set_editor` with html=true never runs script, in every editor kind it supports: a
 * contenteditable (synced by browxai), an iframe designMode editor, a CKEditor-4-style editor
 * (markup through `setData`, which assigns innerHTML in the page) and a TinyMCE-style one
 * (`setContent`). The markup carries script vectors that all call the page's `pwn(tag)`, which
 * requests `/hit?t=tag` from the test's server and sets `document.title`: neither may happen,
 * while the safe markup (paragraph, bold, https link, data:image, list, table) is written and
 * posted with the form. Plain text (html=false) stays text.
 */
import { assertEquals, assertIncludes, assertNotIncludes, assertTrue } from "./_assert.ts";
import { type McpHarness, startStdio } from "./_mcp.ts";
import { eventually } from "./_util.ts";

type R = Record<string, unknown>;

/** A 1×1 PNG. */
const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/** Safe markup followed by script vectors; `k` tags the requests of one editor kind. */
const payload = (k: string) =>
  `<p>Hello <b>bold</b> <a href="https://example.com/x">link</a></p>
<ul><li>one</li></ul><table><tbody><tr><td>cell</td></tr></tbody></table>
<img alt="dot" src="${PNG}">
<img src="/img-missing?k=${k}" onerror="top.pwn('img-onerror ' + document.cookie)">
<script>top.pwn('script')</script>
<svg onload="top.pwn('svg-onload')"><script>top.pwn('svg-script')</script><circle r="4"/></svg>
<svg><a><animate attributeName="href" values="javascript:top.pwn('animate')"/><text y="9">x</text></a></svg>
<iframe srcdoc="<script>top.pwn('srcdoc')</script>"></iframe>
<a id="jslink" href="javascript:top.pwn('js-link')">js link</a>
<a href=" JaVa&#x09;ScRiPt:top.pwn('js-link-2')">js link 2</a>
<a href="data:text/html,<script>alert(1)</script>">data link</a>
<details open ontoggle="top.pwn('details')"><summary>s</summary>d</details>
<object data="javascript:top.pwn('object')"></object><embed src="javascript:top.pwn('embed')">
<input name="is_draft" value="0" autofocus onfocus="top.pwn('input')">
<style>@import url(/hit?t=style-${k});</style><link rel="stylesheet" href="/hit?t=link-${k}">
<meta http-equiv="refresh" content="0;url=/hit?t=meta-${k}"><base href="https://evil.example/">
<form action="javascript:top.pwn('form')"><p>in form</p><button>go</button></form>
<video><source src="/nope.mp4" onerror="top.pwn('source')"></video>
<img src="/x" srcset="javascript:top.pwn('srcset') 1x">
<p id="ce">clobbers the hidden field's id</p>
<p is="x-para" class="custom">customized built-in</p><x-auto>autonomous</x-auto>
<svg></p><style><a id="</style><img src=/x onerror=top.pwn('mxss-svg')>"></a></style></svg>
<math><mtext><table><mglyph><style><img src=/x onerror=top.pwn('mxss-math')></style></mglyph>
</table></mtext></math>
<noscript><p title="</noscript><img src=/x onerror=top.pwn('noscript')>"></noscript>`;

const PAGE = `<!doctype html><title>editors</title>
<script>
  document.cookie = "sid=COOKIE-123; path=/";
  window.pwn = (t) => {
    document.title = "PWNED " + t;
    fetch("/hit?t=" + encodeURIComponent(t)).catch(() => {});
  };
  // The page's own custom elements: markup must not make their constructors run.
  customElements.define("x-para", class extends HTMLParagraphElement {
    constructor() { super(); pwn("is"); }
  }, { extends: "p" });
  customElements.define("x-auto", class extends HTMLElement {
    constructor() { super(); pwn("x-auto"); }
  });
  // Test plumbing, not a vector: the test waits until every missing image of the markup has
  // dispatched its error event (handlers included: this capture listener runs first, the
  // marking after) instead of on a clock. A document whose missing images all did pings the
  // server; settledImages() says how many there are, or 0 while one has not.
  const errored = new WeakSet();
  const missing = (d) => [...d.querySelectorAll('img[src*="/img-missing"]')];
  window.settledImages = () => {
    const docs = [document, ...[...document.querySelectorAll("iframe")].map((f) => f.contentDocument)];
    const all = docs.flatMap((d) => d ? missing(d) : []);
    return all.every((img) => errored.has(img)) ? all.length : 0;
  };
  const settled = (e) => {
    const img = e.target;
    if (!String(img?.src).includes("/img-missing")) return;
    setTimeout(() => {
      errored.add(img);
      if (!missing(img.ownerDocument).every((i) => errored.has(i))) return;
      fetch("/settled?k=" + new URL(img.src).searchParams.get("k")).catch(() => {});
    });
  };
  addEventListener("error", settled, true);
  const designDoc = (id) => {
    const d = document.getElementById(id).contentDocument;
    d.open();
    d.write("<!doctype html><body></body>");
    d.close();
    d.designMode = "on";
    d.defaultView.addEventListener("error", settled, true);
    return d;
  };
</script>
<form action="/post?k=ce" method="post"><div id="ce-editor" contenteditable="true"></div>
  <input type="hidden" id="ce" name="body"><input type="password" name="pw" value="hunter2">
  <button id="save-ce">Save</button></form>
<form action="/post?k=frame" method="post"><textarea id="fr" name="body" hidden></textarea>
  <iframe id="fr_ifr"></iframe><button id="save-frame">Save</button></form>
<form action="/post?k=ck" method="post"><textarea id="ck" name="body" hidden></textarea>
  <div id="cke_ck"><iframe id="ck_ifr"></iframe></div><button id="save-ck">Save</button></form>
<form action="/post?k=mce" method="post"><textarea id="mce" name="body" hidden></textarea>
  <div id="mce_box"><iframe id="mce_ifr"></iframe></div><button id="save-mce">Save</button></form>
<button type="button" id="canary" onclick="pwn('canary')">canary</button>
<script>
  designDoc("fr_ifr");
  const ckDoc = designDoc("ck_ifr");
  window.CKEDITOR = { instances: { ck: {
    container: { $: document.getElementById("cke_ck") },
    setData(html, o) { ckDoc.body.innerHTML = html; setTimeout(() => o?.callback?.(), 10); },
    updateElement() { document.getElementById("ck").value = ckDoc.body.innerHTML; },
  } } };
  const mceDoc = designDoc("mce_ifr");
  const mce = {
    getContainer: () => document.getElementById("mce_box"),
    setContent(html) { mceDoc.body.innerHTML = html; },
    save() { document.getElementById("mce").value = mceDoc.body.innerHTML; },
  };
  window.tinymce = { get: () => [mce] };
</script>`;

interface Req {
  method: string;
  path: string;
  body: string;
}

/** A page server logging every request; POST /post stores the urlencoded form. */
function startServer() {
  const requests: Req[] = [];
  const posts: Array<{ kind: string; fields: Record<string, string> }> = [];
  const ac = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen() {} },
    async (req) => {
      const u = new URL(req.url);
      const body = req.method === "POST" ? await req.text() : "";
      requests.push({ method: req.method, path: u.pathname + u.search, body });
      const headers = { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" };
      if (u.pathname === "/editors.html") return new Response(PAGE, { headers });
      if (u.pathname === "/post") {
        posts.push({
          kind: u.searchParams.get("k") ?? "",
          fields: Object.fromEntries(new URLSearchParams(body)),
        });
        return new Response("<!doctype html><title>Saved</title><p>Saved", { headers });
      }
      return new Response(null, { status: u.pathname === "/hit" ? 204 : 404 });
    },
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return {
    requests,
    posts,
    url: (p: string) => origin + p,
    hits: () => requests.filter((r) => r.path.startsWith("/hit")).map((r) => r.path),
    async waitFor(pred: (r: Req) => boolean, ms = 5000) {
      await eventually(() => requests.some(pred), ms, "a request");
    },
    async close() {
      ac.abort();
      await server.finished;
    },
  };
}

async function title(mcp: McpHarness): Promise<string> {
  const t = await mcp.ok("tabs", { action: "list" });
  return String((t.tabs as R[])[0]!.title);
}

/** What must never reach the posted markup. */
const FORBIDDEN =
  /\son\w+=|javascript:|<script|<iframe|<style|<link|<meta|<base|<input|<object|<embed|<math|<noscript|<form|<animate|srcdoc|data:text/i;

Deno.test("set_editor html: no script runs in any editor kind; safe markup is posted", async (t) => {
  const srv = startServer();
  // The default capabilities: no eval.
  const mcp = await startStdio({
    env: { BROWX_CAPABILITIES: "read,navigation,action", BROWX_TOOLSETS: "all" },
  });
  try {
    const cases = [
      { kind: "ce", selector: "#ce-editor", editorKind: "contenteditable", api: undefined },
      { kind: "frame", selector: "#fr_ifr", editorKind: "iframe", api: undefined },
      { kind: "ck", selector: "#ck", editorKind: "iframe", api: "ckeditor4" },
      { kind: "mce", selector: "#mce_ifr", editorKind: "iframe", api: "tinymce" },
    ];
    for (const c of cases) {
      await t.step(`${c.kind}: ${c.api ?? c.editorKind}`, async () => {
        await mcp.ok("navigate", { url: srv.url("/editors.html"), snapshot: "none" });
        const r = await mcp.ok("set_editor", {
          selector: c.selector,
          html: true,
          text: payload(c.kind),
          snapshot: "none",
        });
        assertEquals((r.editor as R).kind, c.editorKind);
        assertEquals((r.editor as R).api, c.api);
        assertEquals(r.postsAs, "body");
        const removed = r.removed as string[];
        for (
          const what of [
            "onerror attribute",
            "onload attribute",
            "ontoggle attribute",
            "script element",
            "iframe element",
            "style element",
            "input element",
            "math element",
            "noscript element",
            "animate element",
            "href attribute (javascript: URL)",
            "href attribute (data: URL)",
            "is attribute",
            "x-auto element (content kept)",
            // Only the contenteditable shares its document with the page's fields.
            ...(c.kind === "ce" ? ["id attribute (clashes with the page)"] : []),
          ]
        ) assertTrue(removed.includes(what), `removed lists ${what}: ${JSON.stringify(removed)}`);
        assertIncludes(JSON.stringify(r.warnings), "the markup was changed");
        // The images load (with no handler left); their error event was dispatched.
        await srv.waitFor((q) => q.path === `/settled?k=${c.kind}`);
        await mcp.ok("click", { selector: `#save-${c.kind}`, submits: true, snapshot: "none" });
        const posted = srv.posts.at(-1)!;
        assertEquals(posted.kind, c.kind);
        const body = posted.fields.body ?? "";
        for (
          const safe of [
            "<b>bold</b>",
            '<a href="https://example.com/x">link</a>',
            `<img alt="dot" src="${PNG}">`,
            "<li>one</li>",
            "<td>cell</td>",
            "<circle",
            "<p>in form</p>",
            '<p class="custom">customized built-in</p>autonomous',
          ]
        ) assertIncludes(body, safe);
        assertTrue(!FORBIDDEN.test(body), `posted markup is clean: ${body}`);
        assertEquals(posted.fields.is_draft, undefined, "markup added no form field");
        assertEquals(srv.hits(), [], "no script ran");
        assertEquals(await title(mcp), "Saved");
      });
    }

    await t.step("text (html=false) is written as text, not markup", async () => {
      await mcp.ok("navigate", { url: srv.url("/editors.html"), snapshot: "none" });
      const text = `<img src="/img-missing?k=text" onerror="top.pwn('text')"> & <b>x</b>`;
      for (const selector of ["#ce-editor", "#fr_ifr"]) {
        const r = await mcp.ok("set_editor", { selector, text, snapshot: "none" });
        assertEquals(r.text, text);
        assertEquals(r.removed, undefined);
      }
      // Both editors show the markup as text.
      const tree = String((await mcp.ok("snapshot")).tree);
      assertEquals(tree.split('<img src="/img-missing?k=text"').length - 1, 2, tree);
      await mcp.ok("click", { selector: "#save-ce", submits: true, snapshot: "none" });
      const body = srv.posts.at(-1)!.fields.body ?? "";
      assertIncludes(body, "&lt;img");
      assertNotIncludes(body, "<img");
      assertEquals(srv.requests.filter((q) => q.path === "/img-missing?k=text").length, 0);
      assertEquals(srv.hits(), []);
    });

    await t.step("the canary: a script the page runs itself is seen", async () => {
      await mcp.ok("navigate", { url: srv.url("/editors.html"), snapshot: "none" });
      await mcp.ok("click", { selector: "#canary", snapshot: "none" });
      await srv.waitFor((q) => q.path === "/hit?t=canary");
      assertIncludes(await title(mcp), "PWNED canary");
    });
  } finally {
    await mcp.close();
    await srv.close();
  }
});

Deno.test("set_editor html: the page's window never sees the markup's script (eval check)", async () => {
  const srv = startServer();
  // eval is on only to look into the page; set_editor behaves the same without it.
  const mcp = await startStdio({
    env: { BROWX_CAPABILITIES: "read,navigation,action,eval", BROWX_TOOLSETS: "all" },
  });
  const evalJs = async (expression: string) => (await mcp.ok("eval_js", { expression })).value;
  try {
    await mcp.ok("navigate", { url: srv.url("/editors.html"), snapshot: "none" });
    await evalJs("window.pwn = (t) => { window.__pwned = t; }; true");
    for (const selector of ["#ce-editor", "#ck", "#mce_ifr"]) {
      await mcp.ok("set_editor", { selector, html: true, text: payload("eval"), snapshot: "none" });
    }
    // The three editors' missing images dispatched their error events.
    await eventually(
      async () => Number(await evalJs("settledImages()")) >= 3,
      10_000,
      "the images",
    );
    assertEquals(await evalJs("String(window.__pwned)"), "undefined");
    const scan = `JSON.stringify([document.getElementById("ce-editor"),
      document.getElementById("ck_ifr").contentDocument.body,
      document.getElementById("mce_ifr").contentDocument.body].map((root) => ({
        html: root.innerHTML.includes("<b>bold</b>"),
        bad: [...root.querySelectorAll("*")].flatMap((el) => [...el.attributes]
          .filter((a) => /^on/i.test(a.name) || /^\\s*(javascript|data):/i.test(a.value) &&
            el.localName !== "img")
          .map((a) => el.localName + " " + a.name)),
      })))`;
    assertEquals(JSON.parse(String(await evalJs(scan))), [
      { html: true, bad: [] },
      { html: true, bad: [] },
      { html: true, bad: [] },
    ]);
    // The link is still there, without its javascript: href; the page's own #ce is intact.
    assertEquals(
      await evalJs(
        `[document.getElementById("jslink")?.hasAttribute("href"),
          document.getElementById("ce").localName].join()`,
      ),
      "false,input",
    );
    assertEquals(srv.hits(), []);
  } finally {
    await mcp.close();
    await srv.close();
  }
});
