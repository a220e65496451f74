/**
 * The oracle: every role and name the snapshot shows on a ref'd node or a
 * heading agrees with Chromium's own accessibility tree for that node.
 *
 * Refs are checked node by node: resolve the ref, `DOM.describeNode` for its
 * `backendNodeId`, `Accessibility.getPartialAXTree` for Chromium's role and
 * name. Headings (no refs) are checked as a multiset of (level, name) against
 * the non-ignored `heading` nodes of `Accessibility.getFullAXTree` of every frame.
 *
 * Deliberate differences (see `browser/injected/aria_lib.ts`), accepted here and
 * nowhere else: `img` ↔ `image`, `iframe` ↔ `Iframe`, `<summary>` `button` ↔
 * `DisclosureTriangle`, date/time/color inputs `textbox` ↔ `Date`/`DateTime`/
 * `InputTime`/`ColorWell`, a contenteditable root `textbox` ↔ `generic`, a
 * label standing in for its hidden control `generic` ↔ `LabelText`. Names are
 * compared with whitespace collapsed.
 *
 * Secret fields (`isSecret` in `browser/injected/aria_lib.ts`) embedded in a
 * name: ours contribute a fixed `••••`; Chromium one bullet per character of
 * a password, and the plain value of a CSS-masked (`-webkit-text-security`) or
 * `autocomplete=current-password` field. So Chromium's names are compared with
 * the page's secret values and every run of bullets replaced by `••••`.
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { launchTestBrowser } from "./_harness.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import type { Page } from "../cdp/page.ts";
import { captureSnapshot } from "../browser/snapshot/capture.ts";
import { refsShownIn } from "../browser/snapshot/shown_refs.ts";
import { RefRegistry } from "../browser/snapshot/refs.ts";
import { axOfRef, norm } from "./_ax.ts";
import { eventually } from "./_util.ts";

const GIF = "data:image/gif;base64,R0lGODlhAQABAAAAACw=";

const ORACLE_PAGE =
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Oracle</title>
<style>.pointer{cursor:pointer}.hidden-box{position:absolute;opacity:0;width:1px;height:1px}</style>
</head><body>
<header><h1>Oracle page</h1><nav aria-label="Main"><ul><li><a href="/a">Home</a></li>
<li><a href="https://example.com/x?y=1">External <b>site</b></a></li></ul></nav></header>
<main>
<h2 id="sec">Links <small>and names</small></h2>
<p>Read the <a href="/docs"><code>fs.open()</code> docs</a> now.
<a href="/img"><img alt="Logo image" src="${GIF}"></a> <a href="/lbl" aria-label="Labelled link">x</a>
<a href="/t" title="Titled link"><span aria-hidden="true">*</span></a></p>
<a href="/two"><div>Card title</div><p>Card text</p></a>
<h3>Buttons</h3>
<button>Plain</button> <button aria-label="Close dialog">x</button>
<span id="lb1">Save</span> <span id="lb2">draft</span><button aria-labelledby="lb1 lb2">S</button>
<button title="Only title"></button> <input type="submit" value="Send"> <input type="reset">
<input type="button" value="Go"> <input type="image" alt="Search go" src="${GIF}">
<button><img alt="Print" src="${GIF}"> page</button> <button aria-pressed="true">Bold</button>
<div role="button" tabindex="0">Div button</div> <button>A<span style="display:none">B</span>C</button>
<button style="display:flex;flex-direction:column"><span>default</span><span>incognito</span><span>about:blank</span></button>
<button style="display:grid"><b>Grid</b><i>cells</i></button> <button><span style="display:inline-block">Inline</span><span style="display:inline-block">block</span></button>
<button>Bold<b>er</b> <span style="display:block">block span</span></button> <a href="/flex" style="display:flex"><span>Flex</span><span>link</span></a>
<label for="lbtn">Label for</label><button id="lbtn">Content wins not</button>
<label>Wrapping label <button>Inner content</button></label>
<label for="lbtn2">Also</label><label for="lbtn2">twice</label><button id="lbtn2" aria-label="Aria first">C</button>
<h3>Fields</h3>
<label for="f1">First name</label> <input id="f1" value="Ada" required>
<label>Last name <input id="f2" value="Lovelace"></label>
<input aria-label="Zip code" value="12345"> <input title="Title field"> <input placeholder="Placeholder field">
<input id="lab3"><label for="lab3">Twice</label><label for="lab3">labelled</label>
<span id="hid-label" hidden>Hidden label</span><input aria-labelledby="hid-label">
<label for="qty">Qty <select><option>5</option></select> units</label><input id="qty">
<input type="search" aria-label="Find"> <input type="number" aria-label="Count" value="3">
<input type="range" aria-label="Volume" value="30"> <input type="email" list="dl" aria-label="Mail">
<datalist id="dl"><option>a@b.c</option></datalist>
<label><input type="checkbox" checked> Subscribe</label> <input type="checkbox" aria-label="Mixed box" id="mixed">
<label><input type="radio" name="r" checked> Red</label><label><input type="radio" name="r"> Blue</label>
<label for="sel">Fruit</label><select id="sel"><option>Apple</option><option selected>Pear</option></select>
<select aria-label="Many" multiple><option selected>A</option><option>B</option></select>
<label for="ta">Notes</label><textarea id="ta">line one</textarea>
<input type="date" aria-label="When"> <input type="color" aria-label="Tint">
<label><input type="checkbox" class="hidden-box"> Styled box</label>
<div role="switch" aria-checked="true" tabindex="0">Wifi</div>
<div role="tablist"><div role="tab" aria-selected="true">Tab one</div><div role="tab">Tab two</div></div>
<div role="menu"><div role="menuitem">Cut</div><div role="menuitemcheckbox" aria-checked="false">Wrap</div></div>
<div role="listbox" aria-label="Pick"><div role="option" aria-selected="true">One</div></div>
<div contenteditable="true">Edit me</div>
<details open><summary>Open details</summary><p>Shown inside</p></details>
<div class="pointer">Clickable div</div> <span tabindex="0">Focusable span</span>
<fieldset><legend>Shipping</legend><label><input type="checkbox"> Express</label></fieldset>
<table><caption>Prices</caption><tr><th>Item</th><th>Cost</th></tr><tr><td>Tea</td><td>$2</td></tr>
<tr><td><a href="/buy">Buy tea</a></td><td><button>Add</button></td></tr></table>
<div role="heading" aria-level="4">ARIA heading</div>
<h5>Heading with <a href="/in">link</a></h5>
<h6 aria-label="Labelled heading">Visible heading text</h6>
<div style="display:contents"><button>In contents</button></div>
<dialog open aria-label="Notice"><p>Dialog text</p><button>OK</button></dialog>
<div role="alertdialog" aria-labelledby="adt"><span id="adt">Alert title</span></div>
<iframe title="Inline frame" srcdoc="<h2>Frame heading</h2><button>Frame button</button>"></iframe>
</main>
<script>document.getElementById("mixed").indeterminate = true;</script>
</body></html>`;

/** Roles Chromium reports where ours differ on purpose (ours → Chromium's). */
const ALIASES: Record<string, string[]> = {
  img: ["image"],
  iframe: ["Iframe"],
  button: ["DisclosureTriangle"],
  textbox: ["Date", "DateTime", "InputTime", "ColorWell", "generic"],
  generic: ["LabelText"],
};

const MASK = "••••";

/** The values of the main frame's secret fields, longest first (the rule of `isSecret`). */
async function secretValues(page: Page): Promise<string[]> {
  const values = await page.evaluate(`[...document.querySelectorAll(
    "input:not([type=checkbox], [type=radio], [type=button], [type=submit], [type=reset]), " +
    "textarea, [contenteditable]")].filter((e) => {
      const ts = getComputedStyle(e).getPropertyValue("-webkit-text-security");
      const ac = /(^|\\s)(current-password|new-password|one-time-code)(\\s|$)/i
        .test(e.getAttribute("autocomplete") ?? "");
      return e.type === "password" || (ts && ts !== "none") || ("value" in e && ac);
    }).map((e) => "value" in e ? e.value : e.textContent).filter(Boolean)`) as string[];
  return values.sort((a, b) => b.length - a.length);
}

/** Chromium's name as ours shows it: secret values and bullet runs become one fixed mask. */
function masked(name: string, secrets: string[]): string {
  for (const v of secrets) name = name.split(v).join(MASK);
  return name.replace(/•+/g, MASK);
}

async function checkRefs(page: Page, refs: RefRegistry, text: string): Promise<number> {
  const found = [...text.matchAll(/\[ref=(e\d+)\]/g)].map((m) => m[1]!);
  const secrets = await secretValues(page);
  const problems: string[] = [];
  for (const ref of found) {
    const entry = refs.get(ref)!;
    const found = await axOfRef(page, refs, ref);
    const ax = { ...found, name: masked(found.name, secrets) };
    const roleOk = ax.role === entry.role || (ALIASES[entry.role] ?? []).includes(ax.role);
    if (!roleOk || ax.name !== norm(entry.name) || ax.ignored) {
      problems.push(
        `${ref}: ours ${entry.role} ${JSON.stringify(entry.name)}, Chromium ${ax.role} ` +
          `${JSON.stringify(ax.name)}${ax.ignored ? " (ignored)" : ""}`,
      );
    }
  }
  assertEquals(problems, [], `role/name disagreements on ${page.url}:\n${text}`);
  return found.length;
}

async function checkHeadings(page: Page, text: string): Promise<number> {
  // `## Title` (a heading that is one link: `## [Title](url)[ref=eN]`), or, for a heading that
  // is a target itself, `- heading "Title" [ref=eN] [level=2]`.
  const ours: string[] = [];
  for (const line of text.split("\n")) {
    const md = /^\s*(#+) (.*)$/.exec(line);
    if (md) {
      const name = /^\[(.*)\](?:\([^)]*\))?\[ref=e\d+\]$/.exec(md[2]!)?.[1] ?? md[2]!;
      ours.push(`${md[1]!.length} ${norm(name)}`);
      continue;
    }
    const t = /- heading "((?:[^"\\]|\\.)*)".* \[level=(\d)\]/.exec(line);
    if (t) ours.push(`${t[2]} ${norm(t[1]!.replace(/\\(.)/g, "$1"))}`);
  }
  ours.sort();
  const theirs: string[] = [];
  for (const f of page.frames()) {
    const r = await f.session.send("Accessibility.getFullAXTree", { frameId: f.frameId })
      // The page model may still list a child frame of a previous document; it has no tree.
      .catch(() => ({ nodes: [] }));
    const nodes = r.nodes;
    for (const n of nodes) {
      if (n.ignored || n.role?.value !== "heading") continue;
      const level = n.properties?.find((p) => p.name === "level")?.value.value;
      theirs.push(`${level} ${norm(n.name?.value)}`);
    }
  }
  assertEquals(ours, theirs.sort(), `headings on ${page.url}:\n${text}`);
  return ours.length;
}

Deno.test("snapshot roles and names agree with Chromium's accessibility tree", async (t) => {
  const fx = await startFixtureServer();
  const own = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(ORACLE_PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }),
  );
  const tb = await launchTestBrowser();
  try {
    const page = await tb.newPage();
    const refs = new RefRegistry();
    const cross = encodeURIComponent(fx.crossUrl("frame-child.html"));
    const pages: Array<[string, string]> = [
      ["oracle page", `http://127.0.0.1:${own.addr.port}/`],
      ["basic.html", fx.url("basic.html")],
      ["form.html", fx.url("form.html")],
      ["shadow.html", fx.url("shadow.html")],
      ["rerender.html", fx.url("rerender.html")],
      ["secrets.html", fx.url("secrets.html")],
      ["iframes.html (same-origin and OOPIF)", fx.url(`iframes.html?cross=${cross}`)],
    ];
    for (const [label, url] of pages) {
      await t.step(label, async () => {
        await page.navigate(url);
        // Let iframes (the OOPIF especially) attach and load.
        const want = label.startsWith("iframes") ? 3 : 1;
        const snap = await eventually(
          async () => {
            const snap = await captureSnapshot(page, refs);
            return snap.frames >= want && snap;
          },
          4000,
          `${want} frames in the snapshot`,
        );
        if (Deno.env.get("ORACLE_DUMP")) console.error(snap.text);
        // Shown to the agent (as the pipeline marks a result's refs): an action may use them.
        refs.markShown(refsShownIn(snap.text));
        const checked = await checkRefs(page, refs, snap.text);
        const headings = await checkHeadings(page, snap.text);
        assertTrue(checked > 0 && headings > 0, `nothing checked on ${label}`);
      });
    }
  } finally {
    await tb.close();
    await own.shutdown();
    await fx.close();
  }
});
