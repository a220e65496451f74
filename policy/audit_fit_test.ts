import { assertEquals, assertTrue } from "../tests/_assert.ts";
import { type AuditEntry, formatAuditLine, parseAuditLog } from "./audit.ts";
import { fitAuditLine, MAX_AUDIT_LINE_BYTES, utf8Length } from "./audit_fit.ts";

function entry(args: unknown, extra: Partial<AuditEntry> = {}): AuditEntry {
  return {
    time: "2026-12-01T10:00:00.000Z",
    callId: "c-1",
    client: "stdio",
    tool: "eval_js",
    args,
    decision: "refused",
    reason: 'Refused "eval_js": capability "eval" is not enabled',
    requiredCapability: "eval",
    durationMs: 1,
    ok: false,
    error: "capability-required",
    ...extra,
  };
}

/** Nested `depth` levels deep. */
function deep(depth: number): unknown {
  let v: unknown = "leaf";
  for (let i = 0; i < depth; i++) v = { n: v };
  return v;
}

Deno.test("formatAuditLine: a line that fits is written as is", () => {
  const e = entry({ expression: "1 + 1" });
  assertEquals(formatAuditLine(e), JSON.stringify(e) + "\n");
});

Deno.test("formatAuditLine: huge arguments of every shape fit the cap, valid and marked", () => {
  const nine = 9 * 1024 * 1024;
  const table: Array<[string, unknown]> = [
    ["one 9 MB string", { expression: "x".repeat(nine) }],
    ["a million short strings", { calls: Array.from({ length: 1_000_000 }, (_, i) => `s${i}`) }],
    ["200k keys", Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`k${i}`, i]))],
    ["control chars (6 bytes each in JSON)", { url: "\u0001".repeat(2_000_000) }],
    ["emoji and CJK", { selector: "😀漢".repeat(1_000_000) }],
    ["many 999-char strings", { fields: Array.from({ length: 10_000 }, () => "y".repeat(999)) }],
    ["nesting 5000 deep", deep(5000)],
  ];
  for (const [label, args] of table) {
    const e = entry(args, {
      confirms: [{ hook: "submit", answer: "refused", reason: "z".repeat(1e5) }],
    });
    const line = formatAuditLine(e);
    assertTrue(line.endsWith("\n"), label);
    assertTrue(utf8Length(line) <= MAX_AUDIT_LINE_BYTES, `${label}: ${utf8Length(line)} bytes`);
    const { entries, bad } = parseAuditLog(line);
    assertEquals(bad, [], label);
    const got = entries[0]!;
    assertEquals(got.truncated, true, label);
    assertTrue(got.originalBytes! > 100_000, `${label}: originalBytes ${got.originalBytes}`);
    // What the line is about survives the cut.
    assertEquals(
      [got.time, got.callId, got.tool, got.decision, got.ok, got.error, got.requiredCapability],
      [e.time, "c-1", "eval_js", "refused", false, "capability-required", "eval"],
      label,
    );
    assertEquals(got.reason, e.reason, label);
  }
});

Deno.test("fitAuditLine: cuts never split a surrogate pair, and say how much went", () => {
  const line = fitAuditLine({ tool: "t", args: { s: "a" + "😀".repeat(50_000) } }, 2048);
  assertTrue(utf8Length(line) <= 2048);
  const s = (JSON.parse(line).args as { s: string }).s;
  assertTrue(!/[\ud800-\udbff](?![\udc00-\udfff])/.test(s), "no lone high surrogate");
  assertTrue(/…\[\d+ more chars\]$/.test(s), s.slice(-40));
});

Deno.test("parseAuditLog: start lines are kept apart from outcome lines", () => {
  const start = { phase: "start", time: "t", callId: "c-1", client: "stdio", tool: "x", args: {} };
  const text = [JSON.stringify(start), JSON.stringify(entry({}))].join("\n") + "\n";
  const parsed = parseAuditLog(text);
  assertEquals(parsed.starts.map((s) => s.callId), ["c-1"]);
  assertEquals(parsed.entries.map((e) => e.callId), ["c-1"]);
  assertEquals(parsed.bad, []);
});
