import { assertEquals } from "../../tests/_assert.ts";
import { summarizeResult } from "./call_summary.ts";

const text = (t: string) => [{ type: "text", text: t }];

Deno.test("call summary: an ActionResult in words", () => {
  assertEquals(
    summarizeResult({
      content: text('{"ok":true}'),
      structuredContent: {
        ok: true,
        action: { type: "click", ref: "e12" },
        navigation: { changed: true, to: "http://shop.test/cart", kind: "full_load" },
        dialogs: [{}],
        pageErrors: ["x", "y"],
        console: { errors: [], warnings: 0 },
        network: { summary: { total: 3, byType: {}, failed: 1 } },
        warnings: [],
      },
    }),
    "e12 · → http://shop.test/cart · 1 dialog · 2 page errors · 3 requests (1 failed)",
  );
  // A key press with nothing else to tell reads as words, not as its JSON.
  assertEquals(
    summarizeResult({
      content: text('{"ok":true,"action":{"type":"press","key":"Enter"}}'),
      structuredContent: { ok: true, action: { type: "press", key: "Enter" }, warnings: [] },
    }),
    "key Enter",
  );
  assertEquals(
    summarizeResult({
      content: text('{"ok":true}'),
      structuredContent: { ok: true, action: { type: "scroll" } },
    }),
    "done",
  );
});

Deno.test("call summary: other results by their fields; errors and plain text by their first line", () => {
  assertEquals(
    summarizeResult({
      content: text("{}"),
      structuredContent: { entries: [1, 2], last_seq: 9, dropped: 0, nested: { a: 1 } },
    }),
    "entries: 2 · last_seq=9 · dropped=0",
  );
  assertEquals(
    summarizeResult({ content: text("Refused: no\nNext: do this"), isError: true }),
    "Refused: no",
  );
  assertEquals(summarizeResult({ content: [] }), "(no text)");
  assertEquals(summarizeResult({ content: text("x".repeat(300)) }).length, 200);
});
