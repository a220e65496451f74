import { assertEquals } from "../../tests/_assert.ts";
import { rollUp } from "./flake_check.ts";
import type { BatchReport } from "./batch.ts";

const run = (oks: boolean[]): BatchReport =>
  ({
    results: oks.map((ok) =>
      ok ? { ok: true } : { ok: false, error: { code: "x", message: "no" } }
    ),
  }) as unknown as BatchReport;

Deno.test("rollUp: a step's signature is the target it was given; agreed steps are resolvers", () => {
  const calls = [
    { tool: "click", args: { named: "save" } },
    { tool: "fill", args: { ref: "e4", value: "a" } },
    { tool: "hover", args: { selector: "#x" } },
    { tool: "click", args: { coords: { x: 1, y: 2 } } },
  ];
  const r = rollUp(calls, [run([true, true, true, true]), run([true, true, false, true])]);
  assertEquals(r.steps.map((s) => s.signatures), [["named:save"], ["ref:e4"], ["selector:#x"], []]);
  assertEquals(r.firstDivergence, 2);
  assertEquals(r.cachedResolvers.map((c) => ({ ...c, tool: undefined })), [
    { step: 0, tool: undefined, named: "save", agreedRuns: 2 },
    { step: 1, tool: undefined, ref: "e4", agreedRuns: 2 },
  ]);
});

Deno.test("rollUp: find and plan steps sign and resolve by what they resolved to", () => {
  const found = (ref: string) => ({
    ok: true,
    result: { candidates: [{ ref, selectorHint: "#save" }] },
  });
  const planned = { ok: true, result: { ref: "e9", evidence: { selectorHint: "#go" } } };
  const calls = [{ tool: "find", args: { query: "Save" } }, { tool: "plan", args: {} }];
  const runs = [
    { results: [found("e1"), planned] },
    { results: [found("e5"), planned] },
  ] as unknown as BatchReport[];
  const r = rollUp(calls, runs);
  assertEquals(r.steps.map((s) => s.signatures), [["e1::#save", "e5::#save"], ["e9::#go"]]);
  assertEquals(r.cachedResolvers.map((c) => [c.step, c.ref]), [[0, "e5"], [1, "e9"]]);
  assertEquals((r.cachedResolvers[1] as { descriptor?: unknown }).descriptor, planned.result);
});
