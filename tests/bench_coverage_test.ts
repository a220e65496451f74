/** The bench's coverage check and its statistics helpers. */
import { assertEquals, assertTrue } from "./_assert.ts";
import {
  checkCoverage,
  normalizeForMatch,
  probesFromTruth,
  spread,
  tailProbe,
} from "../bench/coverage.ts";
import { parseKbField, parsePpid } from "../bench/proc_mem.ts";
import { computeRows, median, percentile, renderTable } from "../bench/report.ts";
import { lastToggleRef, NEW_TODO, refOn } from "../bench/flows.ts";

Deno.test("bench coverage: matching ignores case, punctuation and quoting", () => {
  assertEquals(normalizeForMatch(' Say "Hi"!\n  fs.readFile() '), "say hi fs readfile");
  const yaml =
    '- link "Open \\"fs\\" docs" [ref=e3]:\n  - /url: /fs\n- paragraph: The end, really.';
  const md = '[Open "fs" docs](/fs)[ref=e3]\nThe end, really.';
  const probes = { interactive: ['Open "fs" docs'], tail: "The end, really." };
  for (const snap of [yaml, md]) {
    const c = checkCoverage(snap, probes);
    assertEquals([c.found, c.total, c.percent, c.tailFound], [2, 2, 100, true], snap);
  }
});

Deno.test("bench coverage: a link's text split around inline markup still counts", () => {
  const peer = '- link [ref=e1822]:\n  - /url: "#flags"\n  - text: support of file system\n' +
    "  - code [ref=e1823]: flags";
  const probes = { interactive: ["support of file system flags"], tail: "" };
  assertEquals(checkCoverage(peer, probes).percent, 100);
  // Too far apart (more than 6 words between) does not count.
  const far = "support of file system one two three four five six seven flags";
  assertEquals(checkCoverage(far, probes).percent, 0);
  // Order matters.
  assertEquals(checkCoverage("flags support of file system", probes).percent, 0);
});

Deno.test("bench coverage: missing probes and the tail count; whole words only", () => {
  const c = checkCoverage("button Link 1 about item\nsome text", {
    interactive: ["Link 1 about item", "Link 10 about item", "???"],
    tail: "The last paragraph",
  });
  assertEquals([c.found, c.total, c.tailFound], [1, 3, false]);
  assertEquals(c.percent, 33.3);
  assertEquals(c.missing, ["Link 10 about item", "(tail) The last paragraph"]);
  assertEquals(checkCoverage("x", { interactive: [], tail: "" }).percent, 100);
});

Deno.test("bench coverage: spread samples evenly, tail probes cut at a word", () => {
  assertEquals(spread([1, 2, 3], 5), [1, 2, 3]);
  assertEquals(spread([...Array(101).keys()], 5), [0, 25, 50, 75, 100]);
  assertEquals(spread([1, 2, 3], 1), [3]);
  assertEquals(spread([1, 2], 0), []);
  assertEquals(tailProbe("short text"), "short text");
  const p = tailProbe(
    "a ".repeat(10) + "alpha beta gamma delta epsilon zeta eta theta iota kappa",
    30,
  );
  assertTrue(p.length <= 30 && "theta iota kappa".length <= p.length, p);
  assertTrue(!p.startsWith(" ") && p.endsWith("kappa"), p);
  const probes = probesFromTruth({
    interactive: [...Array(200).keys()].map((i) => `Item ${i}`),
    tail: "Last words here.",
    innerText: "",
    textContent: "",
  });
  assertEquals(probes.interactive.length, 50);
  assertEquals(probes.interactive[49], "Item 199");
});

Deno.test("bench report: medians, percentiles, ratios and targets", () => {
  assertEquals(median([3, 1, 2]), 2);
  assertEquals(median([4, 1, 2, 3]), 2.5);
  assertTrue(Number.isNaN(median([])));
  assertEquals(percentile([...Array(20).keys()].map((i) => i + 1), 95), 19);
  assertEquals(percentile([5, NaN, 1], 50), 3);
  const samples = [
    { round: 1, server: "browxai", figure: "x", page: "p", value: 10 },
    { round: 2, server: "browxai", figure: "x", page: "p", value: 30 },
    { round: 1, server: "peer", figure: "x", page: "p", value: 40 },
  ];
  const [row] = computeRows(samples, [{
    label: "X",
    page: "p",
    unit: "ms",
    browxai: "x",
    peer: "x",
    max: 0.4,
  }]);
  assertEquals([row!.a, row!.b, row!.ratio, row!.pass], [20, 40, 0.5, false]);
  const [own] = computeRows(samples, [
    { label: "Y", page: "p", unit: "x", browxai: "x", peer: "x", maxA: 25 },
  ]);
  assertEquals(own!.pass, true);
  const table = renderTable([row!, own!]);
  assertTrue(table.includes("browxai ≤ 25 pass"), table);
  assertTrue(table.includes("0.50") && table.includes("ratio ≤ 0.4 FAIL"), table);
});

Deno.test("bench helpers: /proc parsing, refs in both snapshot formats", () => {
  assertEquals(parseKbField("Name:\tdeno\nVmRSS:\t  123456 kB\n", "VmRSS"), 123456);
  assertEquals(parseKbField("Pss:   42 kB", "Pss"), 42);
  assertEquals(parseKbField("nothing", "VmRSS"), null);
  assertEquals(parsePpid("1234 (my (odd) name) S 99 1234 1234 0"), 99);
  const peer =
    '- textbox "What needs to be done?" [ref=f1e15]\n- checkbox "Mark all as complete" [ref=e9]\n' +
    "- listitem [ref=e20]:\n  - checkbox [ref=e21]\n  - checkbox [checked] [ref=e23]";
  assertEquals(refOn(peer, NEW_TODO), "f1e15");
  assertEquals(lastToggleRef(peer), "e23");
  assertEquals(lastToggleRef('checkbox "Mark all as complete" [ref=e1]'), undefined);
});
