/**
 * Secrets and audit end to end, over MCP stdio against real Chromium: the
 * agent fills `{{secret:NAME}}`, the page gets the value, and the value is
 * planted in every place a result can carry it (snapshot text, a field
 * value, console, a request URL and body, eval output, an error message)
 * without ever showing in a result. Then the audit log: one line per call,
 * no secret, no filled value, the decisions.
 */
import { join } from "node:path";
import { assertEquals, assertIncludes, assertNotIncludes, assertTrue } from "./_assert.ts";
import { type McpHarness, ROOT, startHttp, startStdio, type ToolResult } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { type AuditEntry, parseAuditLog } from "../policy/audit.ts";

type R = Record<string, unknown>;

/** Quotes, an ampersand and spaces: its JSON, URL and HTML forms all differ from it. */
const PASSWORD = 'c0rrect h0rse "battery" & staple';
const TOKEN = "tok_9f8e7d6c5b4a";
const PLAIN = "plain-filled-value-123";
/** Characters form encoding writes differently from encodeURIComponent: ! ' ( ) ~ and a space. */
const FORM_PW = "open(sesame)!~'x' *y";

const SECRETS_FILE = `# test secrets
SITE_PASSWORD="c0rrect h0rse \\"battery\\" & staple"
export API_TOKEN='${TOKEN}'
PIN=12
FORM_PW="${FORM_PW}"
`;

/** Every form of a value a result could carry it in. */
function forms(value: string): string[] {
  return [
    value,
    JSON.stringify(value).slice(1, -1),
    encodeURIComponent(value),
    new URLSearchParams({ v: value }).toString().slice(2),
  ];
}

/** Asserts no form of `values` is in a result's text or structuredContent. */
function assertClean(label: string, r: ToolResult, values: string[]): void {
  const text = r.content.map((c) => c.text ?? "").join("\n");
  const structured = JSON.stringify(r.structuredContent ?? {});
  for (const v of values) {
    for (const f of forms(v)) {
      assertNotIncludes(text, f, `${label}: the value leaked into the text:\n${text}`);
      assertNotIncludes(structured, f, `${label}: the value leaked into structuredContent`);
    }
  }
}

/** Reads every audit line of a workspace. */
async function auditLines(workspace: string): Promise<{ text: string; entries: AuditEntry[] }> {
  let text = "";
  for await (const f of Deno.readDir(join(workspace, "audit"))) {
    text += await Deno.readTextFile(join(workspace, "audit", f.name));
  }
  const parsed = parseAuditLog(text);
  assertEquals(parsed.bad, [], "every audit line parses");
  return { text, entries: parsed.entries };
}

/** A workspace with the secrets file (mode 600) in it. */
async function workspaceWithSecrets(): Promise<{ dir: string; secrets: string }> {
  const dir = await Deno.makeTempDir({ prefix: "browxai-secrets-ws-" });
  const secrets = join(dir, "secrets.env");
  await Deno.writeTextFile(secrets, SECRETS_FILE, { mode: 0o600 });
  await Deno.chmod(secrets, 0o600);
  return { dir, secrets };
}

Deno.test("secrets: filled by name, masked in every result, audited without values", async (t) => {
  const fx = await startFixtureServer();
  const ws = await workspaceWithSecrets();
  let mcp: McpHarness | undefined;
  const results: Array<[string, ToolResult]> = [];
  const call = async (name: string, args: R = {}) => {
    const r = await mcp!.call(name, args);
    results.push([name, r]);
    return r;
  };
  const ok = async (name: string, args: R = {}) => {
    const r = await call(name, args);
    if (r.isError) throw new Error(`${name} failed: ${r.content.map((c) => c.text).join("\n")}`);
    return r;
  };
  try {
    mcp = await startStdio({
      workspace: ws.dir,
      env: {
        BROWX_CAPABILITIES: "read,navigation,action,eval,secrets",
        BROWX_SECRETS: ws.secrets,
      },
    });

    await t.step("a value too short to mask is announced at startup, by name only", () => {
      assertIncludes(mcp!.stderr(), 'secret "PIN" (line 4) is shorter than 4 characters');
    });

    await t.step("fill and type put the real values into the page", async () => {
      await ok("navigate", { url: fx.url("form.html"), snapshot: "none" });
      // #mirror-input copies its value into page text (#mirror) on every input.
      const filled = await ok("fill", {
        selector: "#mirror-input",
        value: "{{secret:SITE_PASSWORD}}",
      });
      assertIncludes(JSON.stringify(filled.structuredContent), "[secret:SITE_PASSWORD]");
      await ok("click", { selector: "#name", snapshot: "none" });
      await ok("type", { text: "{{secret:API_TOKEN}}" });
      await ok("fill", { selector: "#email", value: `${PLAIN}@example.com` });
      const check = await ok("eval_js", {
        expression: `({
          password: document.getElementById("mirror-input").value.length,
          mirror: document.getElementById("mirror").textContent.length,
          token: document.getElementById("name").value.length,
          same: document.getElementById("mirror").textContent ===
            document.getElementById("mirror-input").value,
        })`,
      });
      assertEquals((check.structuredContent as R).value, {
        password: PASSWORD.length,
        mirror: PASSWORD.length,
        token: TOKEN.length,
        same: true,
      });
    });

    await t.step("snapshot: page text and field values are masked", async () => {
      const snap = await ok("snapshot");
      const text = snap.content.map((c) => c.text).join("\n");
      assertIncludes(text, "[secret:SITE_PASSWORD]");
      assertIncludes(text, "[secret:API_TOKEN]");
      assertIncludes(text, PLAIN, "a value that is not a secret shows as is");
    });

    await t.step("console, network, eval output and error messages are masked", async () => {
      const planted = await ok("eval_js", {
        expression: `(async () => {
          const v = document.getElementById("mirror-input").value;
          const token = document.getElementById("name").value;
          console.log("planted", v, token);
          console.error(JSON.stringify({ v }));
          await fetch("/api/echo?s=" + encodeURIComponent(v) + "&t=" + token);
          await fetch("/api/echo", { method: "POST", body: JSON.stringify({ s: v, token }) });
          return { v, token, nested: [{ deep: "x" + v + "y" }], length: v.length };
        })()`,
      });
      const value = (planted.structuredContent as R).value as R;
      assertEquals(value.v, "[secret:SITE_PASSWORD]");
      assertEquals(value.token, "[secret:API_TOKEN]");
      assertEquals(value.nested, [{ deep: "x[secret:SITE_PASSWORD]y" }]);
      assertEquals(value.length, PASSWORD.length);

      const thrown = await call("eval_js", {
        expression:
          `(() => { throw new Error("leak " + document.getElementById("mirror-input").value) })()`,
      });
      assertTrue(thrown.isError);
      assertIncludes(thrown.content[0]!.text!, "leak [secret:SITE_PASSWORD]");

      const consoleText = JSON.stringify((await ok("console_read")).structuredContent);
      assertIncludes(consoleText, "planted [secret:SITE_PASSWORD] [secret:API_TOKEN]");
      assertIncludes(consoleText, "[secret:SITE_PASSWORD]");

      const net = await ok("network_read", { pattern: "api/echo" });
      const urls = ((net.structuredContent as R).entries as R[]).map((e) => String(e.url));
      assertTrue(
        urls.some((u) => u.includes("s=[secret:SITE_PASSWORD]&t=[secret:API_TOKEN]")),
        urls.join("\n"),
      );

      // The server did get the real values.
      const get = await fx.waitForRequest((r) => r.path.startsWith("/api/echo?s="));
      assertIncludes(get.path, encodeURIComponent(PASSWORD));
      const post = await fx.waitForRequest((r) => r.method === "POST");
      assertEquals(JSON.parse(post.body!), { s: PASSWORD, token: TOKEN });
    });

    await t.step("a form submitted with the value: navigation.to, tabs, network_read", async () => {
      await ok("navigate", { url: fx.url("form.html"), snapshot: "none" });
      const submitted = await ok("fill", {
        selector: "#name",
        value: "{{secret:FORM_PW}}",
        submit: true,
      });
      // The page's GET form put the value, form-encoded, in the URL it went to.
      const to = String(((submitted.structuredContent as R).navigation as R).to);
      assertIncludes(to, "/api/echo?name=[secret:FORM_PW]&email=");
      const tabs = await ok("tabs", { action: "list" });
      const active = ((tabs.structuredContent as R).tabs as R[]).find((tab) => tab.active)!;
      assertIncludes(String(active.url), "?name=[secret:FORM_PW]&");
      const net = await ok("network_read", { pattern: "name=" });
      const urls = ((net.structuredContent as R).entries as R[]).map((e) => String(e.url));
      assertTrue(urls.some((u) => u.includes("?name=[secret:FORM_PW]&")), urls.join("\n"));
      // The echoed page (the value in its text, JSON-escaped) is masked too.
      const page = await ok("snapshot");
      assertIncludes(page.content.map((c) => c.text).join("\n"), "[secret:FORM_PW]");
      // The server got the value in the form encoding, not encodeURIComponent's.
      const form = new URLSearchParams({ name: FORM_PW }).toString();
      assertTrue(form !== `name=${encodeURIComponent(FORM_PW)}`);
      const got = await fx.waitForRequest((r) => r.path.startsWith("/api/echo?name="));
      assertIncludes(got.path, `?${form}&`);
    });

    await t.step("placeholders: unknown names and places other than fill values", async () => {
      const unknown = await call("fill", { selector: "#name", value: "{{secret:NOPE}}" });
      assertTrue(unknown.isError);
      const err = (unknown.structuredContent as R).error as R;
      assertEquals(err.code, "invalid-argument");
      assertIncludes(String(err.message), 'Unknown secret "NOPE"');
      assertIncludes(String(err.message), "API_TOKEN, FORM_PW, PIN, SITE_PASSWORD");
      for (
        const [tool, args] of [
          ["navigate", { url: fx.url("api/echo?t={{secret:API_TOKEN}}") }],
          ["eval_js", { expression: "'{{secret:API_TOKEN}}'" }],
          ["click", { selector: "text={{secret:API_TOKEN}}" }],
        ] as const
      ) {
        const r = await call(tool, args);
        assertTrue(r.isError, tool);
        assertIncludes(r.content[0]!.text!, "only filled into", tool);
      }
      const bad = await call("fill", { selector: "#name" });
      assertTrue(bad.isError);
    });

    await t.step("no result ever carried a secret", () => {
      for (const [name, r] of results) assertClean(name, r, [PASSWORD, TOKEN, FORM_PW]);
    });

    await t.step("the audit log: one line per call, no secret, no filled value", async () => {
      const { text, entries } = await auditLines(ws.dir);
      assertEquals(entries.map((e) => e.tool), results.map(([name]) => name));
      for (const f of [...forms(PASSWORD), ...forms(TOKEN), ...forms(FORM_PW), PLAIN]) {
        assertNotIncludes(text, f, `the audit log holds ${JSON.stringify(f)}:\n${text}`);
      }
      for (const e of entries) {
        assertEquals(e.client, "stdio");
        assertEquals(e.clientName, "browxai-test");
        assertTrue(Number.isInteger(e.durationMs) && e.durationMs >= 0);
        assertTrue(!Number.isNaN(Date.parse(e.time)), e.time);
        assertTrue(["allowed", "refused", "asked"].includes(e.decision));
      }
      const fills = entries.filter((e) => e.tool === "fill");
      assertEquals(fills[0]!.args, {
        selector: "#mirror-input",
        value: "{{secret:SITE_PASSWORD}}",
      });
      assertEquals(fills[0]!.decision, "allowed");
      assertEquals(fills[0]!.ok, true);
      assertEquals(fills[0]!.session, "default");
      assertEquals(fills[0]!.origin, fx.origin);
      assertEquals(fills[1]!.args, { selector: "#email", value: "[redacted 34 chars]" });
      const typed = entries.find((e) => e.tool === "type")!;
      assertEquals(typed.args, { text: "{{secret:API_TOKEN}}" });
      assertEquals(entries[0]!.origin, fx.origin, "navigate: the origin it goes to");
      const unknown = fills.find((e) => (e.args as R).value === "{{secret:NOPE}}")!;
      assertEquals([unknown.decision, unknown.ok, unknown.error], [
        "refused",
        false,
        "invalid-argument",
      ]);
      assertIncludes(unknown.reason!, 'Unknown secret "NOPE"');
      const missing = fills.at(-1)!;
      assertEquals([missing.decision, missing.error], ["refused", "invalid-argument"]);
      assertIncludes(missing.reason!, '"value"');
      // A failure while acting was allowed to run: it is not a refusal.
      const thrown = entries.filter((e) => e.tool === "eval_js").find((e) => !e.ok)!;
      assertEquals([thrown.decision, thrown.error], ["allowed", "eval-error"]);
      const [day] = [...Deno.readDirSync(join(ws.dir, "audit"))];
      assertEquals((await Deno.stat(join(ws.dir, "audit", day!.name))).mode! & 0o777, 0o600);
    });
  } finally {
    await mcp?.close();
    await fx.close();
    await Deno.remove(ws.dir, { recursive: true }).catch(() => {});
  }
});

Deno.test("secrets: without the capability a placeholder is refused, and audited", async () => {
  const ws = await workspaceWithSecrets();
  const mcp = await startStdio({
    workspace: ws.dir,
    env: { BROWX_CAPABILITIES: "read,navigation,action", BROWX_SECRETS: ws.secrets },
  });
  try {
    assertIncludes(mcp.stderr(), '"secrets" capability is off');
    const r = await mcp.call("fill", { selector: "#x", value: "{{secret:SITE_PASSWORD}}" });
    assertTrue(r.isError);
    assertEquals((r.structuredContent as R).requiredCapability, "secrets");
    const ev = await mcp.call("eval_js", { expression: "1" });
    assertEquals((ev.structuredContent as R).requiredCapability, "eval");
    const { entries } = await auditLines(ws.dir);
    assertEquals(entries.map((e) => [e.tool, e.decision, e.requiredCapability, e.error]), [
      ["fill", "refused", "secrets", "capability-required"],
      ["eval_js", "refused", "eval", "capability-required"],
    ]);
    assertEquals(entries[0]!.args, { selector: "#x", value: "{{secret:SITE_PASSWORD}}" });
    // Refused before acting: no browser was started for it.
    assertEquals(entries[0]!.origin, undefined);
  } finally {
    await mcp.close();
    await Deno.remove(ws.dir, { recursive: true }).catch(() => {});
  }
});

Deno.test("secrets: a bad secrets file stops the server with exit 2, naming the line only", async () => {
  const dir = await Deno.makeTempDir({ prefix: "browxai-secrets-bad-" });
  try {
    const file = join(dir, "bad.env");
    await Deno.writeTextFile(file, "GOOD=fine-value\nhunter2-without-a-name\n");
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", join(ROOT, "main.ts")],
      env: { BROWX_SECRETS: file, BROWX_WORKSPACE: dir },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 2, stderr);
    assertIncludes(
      stderr.split("\n")[0]!,
      `Invalid BROWX_SECRETS "${file}": line 2: expected NAME=value`,
    );
    assertNotIncludes(stderr, "hunter2");
    assertNotIncludes(stderr, "fine-value");
    assertEquals(new TextDecoder().decode(out.stdout), "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("audit: each confirm hook's answer is in its call's line", async () => {
  const fx = await startFixtureServer();
  const ws = await Deno.makeTempDir({ prefix: "browxai-audit-ws-" });
  const answers = [true, false];
  const mcp = await startStdio({
    workspace: ws,
    env: {
      BROWX_CAPABILITIES: "read,navigation,action",
      BROWX_CONFIRM_REQUIRED: "navigate_off_allowlist",
      BROWX_ALLOWED_ORIGINS: "127.0.0.1",
    },
    elicit: () => ({ action: "accept", content: { approve: answers.shift() ?? false } }),
  });
  try {
    await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    await mcp.ok("navigate", { url: fx.crossUrl("basic.html"), snapshot: "none" });
    const no = await mcp.call("navigate", { url: fx.crossUrl("form.html"), snapshot: "none" });
    assertTrue(no.isError);
    const { entries } = await auditLines(ws);
    assertEquals(entries.map((e) => e.decision), ["allowed", "asked", "refused"]);
    assertEquals(entries[0]!.confirms, undefined);
    assertEquals(entries[1]!.confirms, [
      { hook: "navigate_off_allowlist", answer: "approved", by: "elicitation" },
    ]);
    assertEquals(entries[1]!.origin, fx.crossOrigin);
    const refused = entries[2]!.confirms!;
    assertEquals(refused.map((c) => [c.hook, c.answer]), [["navigate_off_allowlist", "refused"]]);
    assertIncludes(refused[0]!.reason!, "said no");
    assertEquals([entries[2]!.ok, entries[2]!.error], [false, "blocked-by-policy"]);
    assertIncludes(entries[2]!.reason!, "said no");
  } finally {
    await mcp.close();
    await fx.close();
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});

Deno.test("audit: over HTTP each client is its MCP session", async () => {
  const server = await startHttp({ env: { BROWX_CAPABILITIES: "read" } });
  try {
    const a = await server.connect();
    const b = await server.connect();
    // Refused calls: audited without starting a browser.
    await a.call("eval_js", { expression: "1" });
    await b.call("eval_js", { expression: "2" });
    await a.call("navigate", { url: "http://127.0.0.1:9/" });
    const { entries } = await auditLines(server.workspace);
    const clients = entries.map((e) => e.client);
    assertEquals(entries.map((e) => e.decision), ["refused", "refused", "refused"]);
    assertTrue(clients.every((c) => /^[0-9a-f-]{36}$/.test(c)), clients.join(", "));
    assertEquals([clients[0] === clients[2], clients[0] === clients[1]], [true, false]);
  } finally {
    await server.close();
  }
});
