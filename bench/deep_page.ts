/**
 * Snapshot and click cost on a deeply nested page against a flat one with as many items: a
 * comb of lists `depth` levels deep (each level a row with a link and text, and a row holding
 * the next level), repeated until the page has `items` links; the flat page is one list of
 * them. Each page is snapshotted, then a link half way down is clicked (its text changes), and
 * the call times are printed (wall clock: run it alone, `flock /tmp/bench.lock …`), with the
 * outline's line count and deepest indent. A page-side CPU profile of one more snapshot goes
 * to `--profile DIR` when given (`Profiler.*` on the page).
 *
 * Run: `deno run -A bench/deep_page.ts [--depth 200] [--items 3000] [--rounds 2] [--profile DIR]`.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { startInProcess } from "../tests/_in_process.ts";
import { servePages } from "../tests/_util.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    depth: { type: "string", default: "200" },
    items: { type: "string", default: "3000" },
    rounds: { type: "string", default: "2" },
    profile: { type: "string" },
  },
});
const DEPTH = Number(values.depth), ITEMS = Number(values.items);

// A click renames its link: the delta is one changed line (and the contexts above it).
const SCRIPT = `<script>document.addEventListener("click", (e) => {
  const a = e.target.closest("a");
  if (a) { e.preventDefault(); a.textContent += " (opened)"; }
});</script>`;

function deep(): string {
  let html = "", n = 0;
  while (n < ITEMS) {
    let close = "";
    for (let d = 0; d < DEPTH && n < ITEMS; d++, n += 2) {
      html += `<ul><li><a href="#i${n}">Item ${n}</a> text ${n}</li>` +
        `<li><a href="#s${n}">Node ${n}</a>`;
      close += "</li></ul>";
    }
    html += close;
  }
  return `<!doctype html><title>deep</title><body>${html}${SCRIPT}</body>`;
}

function flat(): string {
  let html = "";
  for (let n = 0; n < ITEMS; n++) html += `<li><a href="#i${n}">Item ${n}</a> text ${n}</li>`;
  return `<!doctype html><title>flat</title><body><ul>${html}</ul>${SCRIPT}</body>`;
}

const pages = servePages({ "/deep": deep(), "/flat": flat() });
const server = await startInProcess({});
try {
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const kind of ["flat", "deep"]) {
      await server.call("navigate", { url: `${pages.base}/${kind}` });
      let t0 = performance.now();
      const snap = await server.call("snapshot", {});
      const snapshotMs = performance.now() - t0;
      const tree = (snap.structuredContent as { tree: string }).tree;
      const lines = tree.split("\n");
      const deepest = Math.max(...lines.map((l) => l.length - l.trimStart().length));
      const ref = new RegExp(`"Item ${ITEMS / 2}" \\[ref=(e\\d+)\\]`).exec(tree)?.[1] ??
        /\[ref=(e\d+)\]/.exec(lines.slice(lines.length / 2).join("\n"))?.[1];
      t0 = performance.now();
      await server.call("click", { ref });
      const clickMs = performance.now() - t0;
      console.log(
        `${kind.padEnd(5)} depth ${kind === "deep" ? DEPTH : 1} items ${ITEMS}: snapshot ${
          snapshotMs.toFixed(0)
        } ms, click ${
          clickMs.toFixed(0)
        } ms (first page: ${lines.length} lines, indent ${deepest})`,
      );
      if (values.profile && round === 0) {
        const page = (await server.sessions.get()).activePage!;
        await page.send("Profiler.enable");
        await page.send("Profiler.start");
        await server.call("snapshot", {});
        const { profile } = await page.send("Profiler.stop");
        await Deno.writeTextFile(`${values.profile}/${kind}.cpuprofile`, JSON.stringify(profile));
      }
    }
  }
} finally {
  await server.close();
  await pages.close();
}
