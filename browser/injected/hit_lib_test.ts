/**
 * The hit acceptance rule (`hitAccepted`, hit_lib.ts) on a real page: what may
 * receive a pointer meant for an element. A data: page, the api called in the
 * utility world.
 */
import { assertEquals } from "../../tests/_assert.ts";
import { launchTestBrowser } from "../../tests/_harness.ts";
import { callUtility } from "./mod.ts";

const PAGE = `<!doctype html>
<button id=target>Go <span id=inner>now</span></button>
<div id=other>other</div>
<input type=checkbox id=cb>
<label id=lab for=cb>Plain <b id=bold>text</b>
  <button id=lbtn>Delete account</button>
  <a id=llink href="#x">link</a><a id=lanchor>anchor</a>
  <span id=lrole role=button>fake button</span>
  <span id=lclick onclick="1">clickable</span>
  <span id=ledit contenteditable>editable</span>
  <span id=lnoedit contenteditable=false>not editable</span>
  <input id=ltext>
</label>
<label id=wrap><input type=checkbox id=cb2> wrapped <i id=wrapi>label</i></label>
<label id=otherlab for=other>not for the checkbox</label>
<div id=host></div>
<script>document.getElementById("host").attachShadow({ mode: "open" }).innerHTML =
  "<button id=shadowed>in shadow</button>";</script>`;

Deno.test("hit rule: the element, its content, and a label's plain parts only", async () => {
  const tb = await launchTestBrowser();
  try {
    const page = await tb.newPage();
    await page.navigate("data:text/html," + encodeURIComponent(PAGE));
    // A method of the acting group: installs the library with hit_lib.ts in it.
    await callUtility(page, page.mainFrameId, "hasText", ["x"]);
    const accepted = async (el: string, hit: string) =>
      await page.evaluate(
        `(() => { const q = (s) => s === "shadowed"
            ? document.getElementById("host").shadowRoot.getElementById(s)
            : document.getElementById(s);
          return globalThis.__browxai.hitAccepted(q(${JSON.stringify(el)}), q(${
          JSON.stringify(hit)
        })); })()`,
      );
    const cases: Array<[string, string, boolean]> = [
      ["target", "target", true],
      ["target", "inner", true],
      ["target", "other", false],
      ["inner", "target", false],
      ["host", "shadowed", true],
      // A label forwards its click, from its plain parts:
      ["cb", "lab", true],
      ["cb", "bold", true],
      ["cb", "lanchor", true],
      ["cb", "lnoedit", true],
      // ...never from a control of its own:
      ["cb", "lbtn", false],
      ["cb", "llink", false],
      ["cb", "lrole", false],
      ["cb", "lclick", false],
      ["cb", "ledit", false],
      ["cb", "ltext", false],
      // An enclosing label (no `for`) is the control's label too:
      ["cb2", "wrap", true],
      ["cb2", "wrapi", true],
      // A label of another element is not the checkbox's:
      ["cb", "otherlab", false],
      ["cb2", "lab", false],
    ];
    const got: Array<[string, string, unknown]> = [];
    for (const [el, hit] of cases) got.push([el, hit, await accepted(el, hit)]);
    assertEquals(got, cases);
  } finally {
    await tb.close();
  }
});
