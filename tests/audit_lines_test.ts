/**
 * The audit log under attack, over MCP stdio against real Chromium: a
 * refused call with a 9 MB argument writes a line under the cap, valid and
 * secret-free; a server killed with SIGKILL mid-call leaves the call's start
 * line; a browser killed mid-call leaves the call's outcome line.
 */
import { join } from "node:path";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { cmdline, descendants, eventually } from "./_util.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { MAX_AUDIT_LINE_BYTES, parseAuditLog, type ParsedAuditLog } from "../policy/audit.ts";

type R = Record<string, unknown>;

/** A secret long enough that any 8-char piece of it is telling. */
const SECRET = "Zq7-hunter-Xk9-correct-horse-Wv2";

/** The workspace's audit text and its parsed lines (no line may be torn). */
async function audit(workspace: string): Promise<{ text: string; log: ParsedAuditLog }> {
  let text = "";
  for await (const f of Deno.readDir(join(workspace, "audit"))) {
    text += await Deno.readTextFile(join(workspace, "audit", f.name));
  }
  return { text, log: parseAuditLog(text) };
}

function killAll(pids: number[]): void {
  for (const p of pids) {
    try {
      Deno.kill(p, "SIGKILL");
    } catch { /* gone */ }
  }
}

Deno.test("audit: a refused call with a 9 MB argument writes a capped, valid, secret-free line", async () => {
  const ws = await Deno.makeTempDir({ prefix: "browxai-audit-big-" });
  const secrets = join(ws, "secrets.env");
  await Deno.writeTextFile(secrets, `BIG_SECRET=${SECRET}\n`, { mode: 0o600 });
  await Deno.chmod(secrets, 0o600);
  const mcp = await startStdio({
    workspace: ws,
    env: { BROWX_CAPABILITIES: "read,navigation,action", BROWX_SECRETS: secrets },
  });
  try {
    // The secret straddles the string cap's head cut (700 chars kept before the cut mark), and
    // sits in 150k strings of an array. About 9.1 MB of JSON: under the stdio transport's
    // 10 MiB message limit.
    const expression = "a".repeat(690) + SECRET + "b".repeat(5_000_000);
    const many = Array.from({ length: 100_000 }, (_, i) => `${i}:${SECRET}`);
    const r = await mcp.call("eval_js", { expression, many });
    assertEquals(r.isError, true);
    assertEquals((r.structuredContent as R).requiredCapability, "eval");
    const { text, log } = await audit(ws);
    assertEquals(log.bad, [], "every line parses");
    const lines = text.split("\n").filter((l) => l);
    assertEquals(lines.length, 1, "a refused call has one line, its outcome");
    const bytes = new TextEncoder().encode(lines[0]! + "\n").length;
    assertTrue(bytes <= MAX_AUDIT_LINE_BYTES, `line is ${bytes} bytes`);
    const e = log.entries[0]!;
    assertEquals([e.tool, e.decision, e.error, e.truncated], [
      "eval_js",
      "refused",
      "capability-required",
      true,
    ]);
    assertTrue(e.originalBytes! > 2_000_000, `originalBytes ${e.originalBytes}`);
    // Masked before any cut: the mask may be cut, the secret never is.
    assertIncludes(String((e.args as R).expression), "a[secret:BI");
    // `many` is no field of eval_js: arguments off their schema keep no value (masked first).
    assertEquals(((e.args as R).many as string[]).slice(0, 2), [
      "[redacted 21 chars]",
      "[redacted 21 chars]",
    ]);
    // Not the secret, nor any 8-char piece of it (a cut through it would leave one).
    for (let i = 0; i + 8 <= SECRET.length; i++) {
      assertTrue(!text.includes(SECRET.slice(i, i + 8)), `audit holds "${SECRET.slice(i, i + 8)}"`);
    }
  } finally {
    await mcp.close();
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});

Deno.test("audit: a call in flight when the server is killed -9 leaves its start line", async () => {
  const fx = await startFixtureServer();
  const ws = await Deno.makeTempDir({ prefix: "browxai-audit-kill-" });
  const mcp = await startStdio({ workspace: ws });
  let browser: number[] = [];
  let profiles: string[] = [];
  try {
    await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    const waiting = mcp.call("wait_for", { text: "never on this page", timeoutMs: 20_000 });
    waiting.catch(() => {});
    const start = await eventually(
      async () => {
        const { log } = await audit(ws);
        return log.starts.find((s) => s.tool === "wait_for");
      },
      10_000,
      "the wait_for start line",
    );
    browser = descendants(mcp.pid!);
    // Nothing removes a killed server's temporary profile: the test does.
    profiles = [
      ...new Set(browser.flatMap((p) => /--user-data-dir=(\S+)/.exec(cmdline(p))?.[1] ?? [])),
    ];
    Deno.kill(mcp.pid!, "SIGKILL");
    await eventually(() => waiting.then(() => true, () => true), 10_000, "the call to end");
    const { text, log } = await audit(ws);
    assertEquals(log.bad, [], text);
    const again = log.starts.find((s) => s.callId === start!.callId)!;
    assertEquals([again.phase, again.tool, again.session], ["start", "wait_for", "default"]);
    assertEquals(again.args, { text: "[redacted 18 chars]", timeoutMs: 20_000 });
    assertEquals(again.origin, fx.origin);
    assertTrue(!Number.isNaN(Date.parse(again.time)));
    // The navigate before it: both lines, one callId.
    const nav = log.entries.find((e) => e.tool === "navigate")!;
    assertEquals(log.starts.filter((s) => s.callId === nav.callId).length, 1);
    // No outcome: the line that says the call never finished is the start line alone.
    assertEquals(log.entries.filter((e) => e.callId === start!.callId), []);
  } finally {
    killAll(browser);
    await mcp.close();
    for (const dir of profiles) {
      if (dir.startsWith(Deno.env.get("TMPDIR") ?? "/tmp")) {
        await Deno.remove(dir, { recursive: true }).catch(() => {});
      }
    }
    await fx.close();
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});

Deno.test("audit: a call whose browser is killed mid-call gets its outcome line", async () => {
  const fx = await startFixtureServer();
  const ws = await Deno.makeTempDir({ prefix: "browxai-audit-crash-" });
  const mcp = await startStdio({ workspace: ws });
  try {
    await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    const waiting = mcp.call("wait_for", { text: "never on this page", timeoutMs: 20_000 });
    const start = await eventually(
      async () => {
        const { log } = await audit(ws);
        return log.starts.find((s) => s.tool === "wait_for");
      },
      10_000,
      "the wait_for start line",
    );
    // The browser's main process: a descendant of the server without a --type= role.
    const main = descendants(mcp.pid!).filter((p) =>
      /chrom/i.test(cmdline(p)) && !cmdline(p).includes("--type=")
    );
    assertTrue(main.length > 0, "found the browser process");
    killAll(main);
    const r = await waiting;
    assertEquals(r.isError, true, textOf(r));
    const code = ((r.structuredContent as R).error as R).code;
    assertEquals(code, "browser-crashed", textOf(r));
    const { log } = (await eventually(
      async () => {
        const a = await audit(ws);
        return a.log.entries.some((e) => e.callId === start!.callId) ? a : undefined;
      },
      5_000,
      "the outcome line",
    ))!;
    assertEquals(log.bad, []);
    const outcome = log.entries.find((e) => e.callId === start!.callId)!;
    assertEquals([outcome.tool, outcome.decision, outcome.ok, outcome.error], [
      "wait_for",
      "allowed",
      false,
      "browser-crashed",
    ]);
    // The server lives on: a later call gets a fresh browser.
    await eventually(
      async () => {
        const r = await mcp.call("navigate", { url: fx.url("basic.html"), snapshot: "none" });
        return !r.isError;
      },
      20_000,
      "a fresh browser",
    );
  } finally {
    await mcp.close();
    await fx.close();
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});

Deno.test("audit: filled values of any type, prompt answers and stored objects never reach the log", async () => {
  const ws = await Deno.makeTempDir({ prefix: "browxai-audit-fill-" });
  const secrets = join(ws, "secrets.env");
  await Deno.writeTextFile(secrets, "PIN=98765432\n", { mode: 0o600 });
  await Deno.chmod(secrets, 0o600);
  const fx = await startFixtureServer();
  const mcp = await startStdio({
    workspace: ws,
    env: {
      BROWX_TOOLSETS: "all",
      BROWX_CAPABILITIES: "read,navigation,action,secrets",
      BROWX_SECRETS: secrets,
    },
  });
  try {
    await mcp.ok("navigate", { url: fx.url("form.html"), snapshot: "none" });
    // A PIN as a JSON number (equal to a registered secret), a prompt answer, an object stored.
    await mcp.call("fill_form", { fields: [{ name: "pin", value: 98765432 }] });
    await mcp.call("open_session", {
      session: "q",
      dialogs: "accept-prompt-with",
      promptText: "my-otp-4711",
    });
    await mcp.call("idb_put", {
      dbName: "d",
      storeName: "s",
      key: "k",
      value: { password: "idb-secret-8" },
    });
    await mcp.call("localstorage_set", { key: "tok", value: 4711_0815 });
    const { text, log } = await audit(ws);
    assertEquals(log.bad, []);
    for (const leaked of ["98765432", "my-otp-4711", "idb-secret-8", "47110815"]) {
      assertTrue(!text.includes(leaked), `audit holds ${leaked}: ${text}`);
    }
    assertIncludes(text, '"promptText":"[redacted 11 chars]"');
    assertIncludes(text, '"value":"[redacted object of 1 keys]"');
  } finally {
    await mcp.close();
    await fx.close();
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});

Deno.test("audit: arguments in the wrong shape keep no value, wherever they put it", async () => {
  const ws = await Deno.makeTempDir({ prefix: "browxai-audit-shape-" });
  const mcp = await startStdio({ workspace: ws, env: { BROWX_TOOLSETS: "all" } });
  try {
    // A new user's first fill_form: fields as an object of name → value (taken as the list;
    // no such fields on a blank tab).
    const r = await mcp.call("fill_form", {
      fields: { email: "ann@example.com", password: "pw-hunter-4711" },
    });
    assertEquals(r.isError, true);
    assertIncludes(textOf(r), 'no field named or labelled \\"email\\"');
    // A nested value is refused, and the error says what one item looks like.
    const nested = await mcp.call("fill_form", { fields: { email: { to: "pw-nested-9999" } } });
    assertIncludes(textOf(nested), '"fields": expected an array of { name, ref, selector, value');
    // An unknown field carrying a value; a string where a boolean belongs (echoed to the agent).
    await mcp.call("fill", { ref: "e1", value: "x", password: "pw-unknown-0815" });
    const echoed = await mcp.call("fill", { ref: "e1", value: "x", submit: "pw-typo-2222" });
    assertIncludes(textOf(echoed), "pw-typo-2222");
    // Another tool's arguments inside a call (red team): batch, flake_check, plan; a route's
    // canned response; a string where a count belongs.
    const inner = { tool: "fill_form", args: { fields: { password: "pw-batch-3333" } } };
    await mcp.call("batch", { calls: [inner] });
    await mcp.call("flake_check", { n: 3, calls: [inner] });
    await mcp.call("plan", { query: "password", verb: "fill", verbArgs: { pw: "pw-plan-4444" } });
    await mcp.call("route", {
      pattern: "**/api/*",
      response: { json: { token: "pw-json-5555" }, headers: { authorization: "pw-hdr-6666" } },
    });
    await mcp.call("fill", { ref: "e1", value: "x", timeoutMs: "pw-count-7777" });
    const { text, log } = await audit(ws);
    assertEquals(log.bad, []);
    for (
      const leaked of [
        "pw-hunter-4711",
        "ann@example.com",
        "pw-nested-9999",
        "pw-unknown-0815",
        "pw-typo-2222",
        "pw-batch-3333",
        "pw-plan-4444",
        "pw-json-5555",
        "pw-hdr-6666",
        "pw-count-7777",
      ]
    ) {
      assertTrue(!text.includes(leaked), `audit holds ${leaked}: ${text}`);
    }
    // Where the call acted is still there, and the keys.
    assertIncludes(text, '"ref":"e1"');
    // The object form of fill_form is logged as the list it was taken as, values redacted.
    assertIncludes(text, '{"name":"password","value":"[redacted 14 chars]"}');
  } finally {
    await mcp.close();
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});

Deno.test("audit: a wait_for whose condition never held (ok: false, a result) is audited ok: false", async () => {
  const fx = await startFixtureServer();
  const ws = await Deno.makeTempDir({ prefix: "browxai-audit-notok-" });
  const mcp = await startStdio({ workspace: ws });
  try {
    await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    const timedOut = await mcp.call("wait_for", { text: "never on this page", timeoutMs: 300 });
    // A result, not an error: the agent reads ok: false.
    assertEquals(timedOut.isError, undefined, textOf(timedOut));
    assertEquals(timedOut.structuredContent?.ok, false);
    const met = await mcp.ok("wait_for", { selector: "body", timeoutMs: 5_000 });
    assertEquals(met.ok, true);
    const { text, log } = await audit(ws);
    assertEquals(log.bad, [], text);
    const waits = log.entries.filter((e) => e.tool === "wait_for");
    assertEquals(waits.map((e) => [e.ok, e.error]), [[false, "timeout"], [true, undefined]]);
    // Not a refusal: the call ran, and the policy allowed it.
    assertEquals(waits[0]!.decision, "allowed");
  } finally {
    await mcp.close();
    await fx.close();
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});
