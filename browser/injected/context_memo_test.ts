/**
 * A snapshot walk reads each subtree's context text once (context_lib.ts `memoContexts`): the
 * contexts its refs carry must be the ones `contextOf` finds alone, on a page where subtrees
 * nest deep and hold what a context reads (fields, typed values, labels, alt texts, shadow
 * roots and slots, editable regions, long rows cut at the cap).
 */
import { assertEquals, assertTrue } from "../../tests/_assert.ts";
import { launchTestBrowser } from "../../tests/_harness.ts";
import { callUtility } from "./mod.ts";

/** A thread `depth` deep: each level a row with a link, text, a field or an image, and a list. */
function nested(depth: number): string {
  let html = "";
  for (let d = 0; d < depth; d++) {
    const extra = [
      `<input value="Qty ${d}"> <button>Save</button>`,
      `<img alt="Avatar ${d}"> <span aria-label="Rated ${d}">*</span>`,
      `<div contenteditable>Draft ${d}</div> <x-tag>custom ${d}</x-tag>`,
      `<select><option>Small</option><option selected>Size ${d}</option></select>`,
    ][d % 4];
    html += `<ul><li><a href="#i${d}">Item ${d}</a> text ${d} ${extra}</li>` +
      `<li aria-label="${d % 5 ? "" : `Order 100${d}`}"><a href="#n${d}">Node ${d}</a>`;
  }
  return html + "</li></ul>".repeat(depth);
}

const PAGE = `<!doctype html><body>
${nested(60)}
<table>${
  Array.from({ length: 30 }, (_, i) =>
    `<tr><td>Row ${i} <span>${"long text ".repeat(i * 3)}</span></td>` +
    `<td><input value="INV-${1000 + i}"></td>` +
    `<td><button>Delete</button></td></tr>`).join("")
}</table>
<div id=host></div>
<script>
  const root = document.getElementById("host").attachShadow({ mode: "open" });
  root.innerHTML = '<ul><li><slot name=a></slot> <b>shadow row</b> <button>Open</button></li>' +
    '<li><slot></slot><button>Close</button></li></ul>';
  const host = document.getElementById("host");
  host.innerHTML = '<span slot=a>Slotted A</span><em>fallback B</em>';
</script>`;

Deno.test("context memo: a walk's refs carry the contexts contextOf finds alone", async () => {
  const tb = await launchTestBrowser();
  try {
    const page = await tb.newPage();
    await page.navigate("data:text/html," + encodeURIComponent(PAGE));
    await callUtility(page, page.mainFrameId, "hasText", ["x"]);
    // A value typed into a row's field and shown in its text (a todo renamed in place): the
    // row counts it as it was (`noteEdit`).
    await page.evaluate(`(() => {
      const a = globalThis.__browxai, f = document.querySelector("table input");
      a.noteEdit(f); f.value = "Typed"; a.noteEdit(f, true);
      document.querySelector("table span").textContent = "Typed";
    })()`);
    const [walked, alone] = await page.evaluate(`(() => {
      const a = globalThis.__browxai;
      const refs = a.snapshot().refs.filter((r) => r.length === 5);
      return [
        refs.map((r) => [r[1], r[2], r[3], r[4]]),
        refs.map((r) => [r[1], r[2], ...a.contextOf(a.element(r[0]), r[1], r[2])]),
      ];
    })()`) as [string[][], string[][]];
    assertTrue(walked.length > 200, `${walked.length} refs`);
    // Contexts long enough to be cut and hashed, and ones that read fields and labels.
    assertTrue(walked.some((r) => r[3]!.includes("… #")), "a cut context");
    assertTrue(walked.some((r) => r[3]!.includes("Qty")), "a field's value");
    assertTrue(walked.some((r) => r[3]!.includes("Slotted A")), "a slotted text");
    // (The field repeats the text just before it, the typed text read as before: said once.)
    assertTrue(walked.some((r) => r[3] === "Row 0 INV-1000 Delete"), "a typed value");
    assertEquals(walked, alone);
  } finally {
    await tb.close();
  }
});
