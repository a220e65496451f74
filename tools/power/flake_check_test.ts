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
