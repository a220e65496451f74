import { createHash } from "node:crypto";
import { join } from "node:path";
import { assertEquals, assertIncludes, assertTrue } from "../tests/_assert.ts";
import { type AuditEntry, auditFileName, AuditLog, decideAudit, parseAuditLog } from "./audit.ts";
import {
  MAX_AUDIT_CODE,
  MAX_AUDIT_STRING,
  redactArgs,
  redactFilled,
  redactInvalidArgs,
  redactToolArgs,
} from "./audit_redact.ts";

function entry(tool: string, extra: Partial<AuditEntry> = {}): AuditEntry {
  return {
    time: "2026-12-01T10:00:00.000Z",
    client: "stdio",
    tool,
    args: {},
    decision: "allowed",
    durationMs: 1,
    ok: true,
    ...extra,
  };
}

Deno.test("redactFilled: literal text becomes its length, placeholders stay", () => {
  const table: Array<[string, string]> = [
    ["hunter2", "[redacted 7 chars]"],
    ["", ""],
    ["{{secret:PW}}", "{{secret:PW}}"],
    ["user {{secret:PW}}!", "[redacted 5 chars]{{secret:PW}}[redacted 1 chars]"],
    ["{{secret:A}}{{secret:B}}", "{{secret:A}}{{secret:B}}"],
  ];
  for (const [input, want] of table) assertEquals(redactFilled(input), want, input);
});

Deno.test("redactArgs: agent-filled keys at any depth, any type; other strings capped; anything accepted", () => {
  const long = "x".repeat(MAX_AUDIT_STRING + 5);
  const table: Array<[unknown, unknown]> = [
    [{ ref: "e1", value: "hunter2", submit: true }, {
      ref: "e1",
      value: "[redacted 7 chars]",
      submit: true,
    }],
    [{ text: "typed" }, { text: "[redacted 5 chars]" }],
    [{ fields: [{ name: "pw", value: "hunter2" }, { name: "n", value: 3 }] }, {
      fields: [{ name: "pw", value: "[redacted 7 chars]" }, {
        name: "n",
        value: "[redacted number]",
      }],
    }],
    // Whatever the type: a number, an object (idb_put), a prompt answer, a cache body.
    [{ value: { password: "idb-secret-8" }, promptText: "my-otp-4711" }, {
      value: "[redacted object of 1 keys]",
      promptText: "[redacted 11 chars]",
    }],
    [{ response: { status: 200, body: "b0dy", contentBase64: "QUJD" } }, {
      response: { status: 200, body: "[redacted 4 chars]", contentBase64: "[redacted 4 chars]" },
    }],
    [{ value: true, content: "artifact" }, {
      value: "[redacted boolean]",
      content: "[redacted 8 chars]",
    }],
    [{ value: [["x"], { a: 1 }] }, {
      value: [["[redacted 1 chars]"], "[redacted object of 1 keys]"],
    }],
    [{ value: "", text: null }, { value: "", text: null }],
    [{ html: "<b>x</b>", value: ["a", "bc"] }, {
      html: "[redacted 8 chars]",
      value: ["[redacted 1 chars]", "[redacted 2 chars]"],
    }],
    [{ expression: "document.title" }, { expression: "document.title" }],
    [{ url: long }, { url: `${"x".repeat(700)}…[cut 5 chars]…${"x".repeat(300)}` }],
    // The end of a long selector list is kept: it names what the call acted on.
    [{ selector: "#k, ".repeat(2000) + "#del" }, {
      selector: `${"#k, ".repeat(175)}…[cut 7004 chars]…${"#k, ".repeat(74)}#del`,
    }],
    [{ value: "{{secret:PW}}" }, { value: "{{secret:PW}}" }],
    [null, null],
    ["not an object", "not an object"],
    [42, 42],
  ];
  for (const [input, want] of table) assertEquals(redactArgs(input), want, JSON.stringify(input));
});

Deno.test("decideAudit: refused, asked, allowed", () => {
  const table: Array<[Parameters<typeof decideAudit>[0], ReturnType<typeof decideAudit>]> = [
    [{ ran: true, confirms: [] }, { decision: "allowed" }],
    [{ ran: true, errorCode: "timeout", errorMessage: "slow", confirms: [] }, {
      decision: "allowed",
    }],
    [{
      ran: false,
      errorCode: "capability-required",
      errorMessage: 'Refused "eval_js"',
      requiredCapability: "eval",
      confirms: [],
    }, { decision: "refused", reason: 'Refused "eval_js"', requiredCapability: "eval" }],
    [{ ran: false, errorCode: "invalid-argument", errorMessage: "bad url", confirms: [] }, {
      decision: "refused",
      reason: "bad url",
    }],
    [{ ran: true, errorCode: "blocked-by-policy", errorMessage: "policy: x", confirms: [] }, {
      decision: "refused",
      reason: "policy: x",
    }],
    [{ ran: true, confirms: [{ hook: "submit", answer: "approved", by: "elicitation" }] }, {
      decision: "asked",
    }],
    [{ ran: true, confirms: [{ hook: "submit", answer: "pre-approved", by: "grant" }] }, {
      decision: "allowed",
    }],
    [{
      ran: true,
      errorCode: "blocked-by-policy",
      errorMessage: "policy: publish blocked",
      confirms: [
        { hook: "submit", answer: "approved", by: "elicitation" },
        { hook: "publish", answer: "refused", reason: "the human said no" },
      ],
    }, { decision: "refused", reason: "the human said no" }],
  ];
  for (const [facts, want] of table) assertEquals(decideAudit(facts), want, JSON.stringify(facts));
});

Deno.test("auditFileName: the UTC day", () => {
  assertEquals(auditFileName(new Date("2026-12-31T23:59:59.999Z")), "2026-12-31.jsonl");
  assertEquals(auditFileName(new Date("2027-01-01T00:00:00+02:00")), "2026-12-31.jsonl");
});

Deno.test("AuditLog: appends one line per entry, in order, into the day's file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "browxai-audit-" });
  try {
    const log = new AuditLog(join(dir, "audit"));
    await log.append(entry("navigate"));
    await log.append(entry("fill", { args: { value: "[redacted 3 chars]" } }));
    await log.append(entry("snapshot", { time: "2026-12-02T00:00:01.000Z" }));
    const day1 = await Deno.readTextFile(join(dir, "audit", "2026-12-01.jsonl"));
    const day2 = await Deno.readTextFile(join(dir, "audit", "2026-12-02.jsonl"));
    assertEquals(parseAuditLog(day1).entries.map((e) => e.tool), ["navigate", "fill"]);
    assertEquals(parseAuditLog(day2).entries.map((e) => e.tool), ["snapshot"]);
    assertTrue(day1.endsWith("\n"));
    assertEquals((await Deno.stat(join(dir, "audit", "2026-12-01.jsonl"))).mode! & 0o777, 0o600);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("AuditLog: a file seen before takes one append per round, no open of its own", async () => {
  const dir = await Deno.makeTempDir({ prefix: "browxai-audit-" });
  const open = Deno.open;
  const mkdir = Deno.mkdir;
  let opens = 0;
  let mkdirs = 0;
  Deno.open = (...a: Parameters<typeof Deno.open>) => (opens++, open(...a));
  Deno.mkdir = (...a: Parameters<typeof Deno.mkdir>) => (mkdirs++, mkdir(...a));
  try {
    const log = new AuditLog(join(dir, "audit"));
    for (const tool of ["navigate", "click", "fill"]) await log.append(entry(tool));
    // Only the first round opens the file (it checks the end for a torn line).
    assertEquals({ opens, mkdirs }, { opens: 1, mkdirs: 1 });
    // The folder removed meanwhile: made again, and the line is still written.
    await Deno.remove(join(dir, "audit"), { recursive: true });
    await log.append(entry("snapshot"));
    const text = await Deno.readTextFile(join(dir, "audit", "2026-12-01.jsonl"));
    assertEquals(parseAuditLog(text).entries.map((e) => e.tool), ["snapshot"]);
    assertEquals((await Deno.stat(join(dir, "audit", "2026-12-01.jsonl"))).mode! & 0o777, 0o600);
  } finally {
    Deno.open = open;
    Deno.mkdir = mkdir;
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("AuditLog: a torn last line does not affect earlier lines, nor the next writer", async () => {
  const dir = await Deno.makeTempDir({ prefix: "browxai-audit-" });
  try {
    const first = new AuditLog(dir);
    await first.append(entry("navigate"));
    await first.append(entry("click"));
    const file = join(dir, "2026-12-01.jsonl");
    // A process killed mid-write: half a line, no newline.
    const whole = JSON.stringify(entry("fill"));
    await Deno.writeTextFile(file, whole.slice(0, whole.length >> 1), { append: true });
    let parsed = parseAuditLog(await Deno.readTextFile(file));
    assertEquals(parsed.entries.map((e) => e.tool), ["navigate", "click"]);
    assertEquals(parsed.bad, [3]);
    // The restarted server's first line starts on a fresh line.
    const next = new AuditLog(dir);
    await next.append(entry("snapshot"));
    await next.append(entry("press"));
    parsed = parseAuditLog(await Deno.readTextFile(file));
    assertEquals(parsed.entries.map((e) => e.tool), ["navigate", "click", "snapshot", "press"]);
    assertEquals(parsed.bad, [3]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("AuditLog: concurrent appends from many calls and writers interleave whole lines", async () => {
  const dir = await Deno.makeTempDir({ prefix: "browxai-audit-" });
  try {
    // Two writers on one file, as two server processes on one workspace would be.
    const writers = [new AuditLog(dir), new AuditLog(dir)];
    // Large lines (about 16 KB, several pages each) make a torn interleaving visible.
    const pad = (i: number) => String.fromCharCode(97 + (i % 26)).repeat(16_000);
    const count = 150;
    await Promise.all(
      Array.from(
        { length: count * 2 },
        (_, i) =>
          writers[i % 2]!.append(
            entry(`tool_${i}`, { args: { expression: pad(i) }, durationMs: i }),
          ),
      ),
    );
    const text = await Deno.readTextFile(join(dir, "2026-12-01.jsonl"));
    const parsed = parseAuditLog(text);
    assertEquals(parsed.bad, []);
    assertEquals(parsed.entries.length, count * 2);
    const seen = new Set(parsed.entries.map((e) => e.tool));
    assertEquals(seen.size, count * 2);
    for (const e of parsed.entries) {
      const i = e.durationMs;
      assertEquals(e.tool, `tool_${i}`);
      // Capped by redaction only in the call pipeline (mcp/pipeline.ts); here the line carries what it was given.
      assertEquals((e.args as { expression: string }).expression, pad(i));
    }
    // Each writer keeps its own call order.
    for (const parity of [0, 1]) {
      const order = parsed.entries.map((e) => e.durationMs).filter((i) => i % 2 === parity);
      assertEquals(order, [...order].sort((a, b) => a - b));
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("AuditLog: a failing write never rejects and is reported once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "browxai-audit-" });
  try {
    // The audit folder's path is taken by a file: every write fails.
    const blocked = join(dir, "audit");
    await Deno.writeTextFile(blocked, "not a folder");
    const errors: unknown[] = [];
    const log = new AuditLog(blocked, { onError: (e) => errors.push(e) });
    await log.append(entry("navigate"));
    await log.append(entry("click"));
    await Promise.all([log.append(entry("a")), log.append(entry("b"))]);
    assertEquals(errors.length, 1);
    assertIncludes(String(errors[0]), "mkdir");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("redactInvalidArgs: every value goes but where the call acts; keys and placeholders stay", () => {
  assertEquals(
    redactInvalidArgs({
      ref: "e1",
      session: "s",
      fields: { password: "hunter2", n: 42, ok: true, list: ["a", "{{secret:PIN}}"] },
    }),
    {
      ref: "e1",
      session: "s",
      fields: {
        password: "[redacted 7 chars]",
        n: "[redacted number]",
        ok: "[redacted boolean]",
        list: ["[redacted 1 chars]", "{{secret:PIN}}"],
      },
    },
  );
  assertEquals(redactInvalidArgs("loose"), "[redacted 5 chars]");
  // Counts stay as numbers only: a string there may be a value put in the wrong field.
  assertEquals(redactInvalidArgs({ timeoutMs: "pw-4711" }), { timeoutMs: "[redacted 7 chars]" });
  assertEquals(redactInvalidArgs({ timeoutMs: 5000 }), { timeoutMs: 5000 });
  assertEquals(redactInvalidArgs({ url: { nested: "x" } }), {
    url: { nested: "[redacted 1 chars]" },
  });
});

Deno.test("redactArgs: another tool's arguments (batch, plan, execute) and route responses keep no value", () => {
  assertEquals(
    redactArgs({
      calls: [{ tool: "fill_form", args: { fields: { password: "pw-1" } } }],
      verbArgs: { password: "pw-2" },
      response: { status: 200, json: { token: "t-3" }, headers: { authorization: "Bearer t-4" } },
    }),
    {
      calls: [{ tool: "fill_form", args: { fields: { password: "[redacted 4 chars]" } } }],
      verbArgs: { password: "[redacted 4 chars]" },
      response: {
        status: 200,
        json: "[redacted object of 1 keys]",
        headers: "[redacted object of 1 keys]",
      },
    },
  );
});

Deno.test("redactToolArgs: route and caches_put bodies are logged as code (hash, first KB, cut mark)", () => {
  const script = "setInterval(() => { document.title = pw.value }, 100)";
  const long = "x".repeat(MAX_AUDIT_CODE) + "// tail";
  const logged = redactToolArgs("caches_put", {
    cacheName: "app-v1",
    url: "/app.js",
    response: { body: script, headers: { authorization: "Bearer t-1" } },
  }) as { response: { body: Record<string, unknown>; headers: unknown } };
  assertEquals(logged.response.body, {
    sha256: createHash("sha256").update(script).digest("hex"),
    chars: script.length,
    head: script,
  });
  assertEquals(logged.response.headers, "[redacted object of 1 keys]");
  const cut = redactToolArgs("route", { urlPattern: "**", response: { body: long } }) as {
    response: { body: Record<string, unknown> };
  };
  assertEquals(cut.response.body.cut, true);
  assertEquals(cut.response.body.chars, long.length);
  assertEquals(cut.response.body.head, "x".repeat(MAX_AUDIT_CODE));
  const json = redactToolArgs("route", { urlPattern: "**", response: { json: { a: 1 } } }) as {
    response: { json: Record<string, unknown> };
  };
  assertEquals(json.response.json.head, '{"a":1}');
  // Other tools' bodies stay values.
  assertEquals(redactToolArgs("artifact_save", { body: "pw" }), { body: "[redacted 2 chars]" });
});

Deno.test("redactToolArgs: storage writes logged as code while secrets can be filled", () => {
  const code = "eval(atob('…'))";
  const view = (v: unknown) => {
    const text = typeof v === "string" ? v : JSON.stringify(v);
    return {
      sha256: createHash("sha256").update(text).digest("hex"),
      chars: text.length,
      head: text,
    };
  };
  // Without secrets: values, redacted as before.
  assertEquals(redactToolArgs("localstorage_set", { key: "k", value: code }), {
    key: "k",
    value: `[redacted ${code.length} chars]`,
  });
  const on = { storedCode: true };
  assertEquals(redactToolArgs("localstorage_set", { key: "k", value: code }, on), {
    key: "k",
    value: view(code),
  });
  assertEquals(redactToolArgs("idb_put", { dbName: "d", value: { html: code } }, on), {
    dbName: "d",
    value: view({ html: code }),
  });
  const state = {
    cookies: [{ name: "c", value: code, domain: "a.example" }],
    origins: [{ origin: "https://a.example", localStorage: [{ name: "x", value: code }] }],
  };
  assertEquals(redactToolArgs("inject_storage_state", { state }, on), {
    state: {
      cookies: [{ name: "c", value: view(code), domain: "a.example" }],
      origins: [{ origin: "https://a.example", localStorage: [{ name: "x", value: view(code) }] }],
    },
  });
  assertEquals(redactToolArgs("inject_storage_state", { state: "s.json" }, on), {
    state: "s.json",
  });
  // Other tools' values stay redacted.
  assertEquals(redactToolArgs("fill", { ref: "e1", value: "pw" }, on), {
    ref: "e1",
    value: "[redacted 2 chars]",
  });
});

Deno.test("redactToolArgs: select.label and choose_option.option go; other tools' labels stay", () => {
  assertEquals(redactToolArgs("select", { selector: "#s", label: "Visa 4111" }), {
    selector: "#s",
    label: "[redacted 9 chars]",
  });
  assertEquals(redactToolArgs("choose_option", { ref: "e1", option: "{{secret:PIN}}" }), {
    ref: "e1",
    option: "{{secret:PIN}}",
  });
  assertEquals(redactToolArgs("fill_form", { fields: [{ label: "Email", value: "a@b.c" }] }), {
    fields: [{ label: "Email", value: "[redacted 5 chars]" }],
  });
});
