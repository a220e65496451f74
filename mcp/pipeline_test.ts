import { join } from "node:path";
import { z } from "zod";
import { assertEquals, assertIncludes, assertThrows, assertTrue } from "../tests/_assert.ts";
import { ApprovalStore } from "../policy/approvals.ts";
import { parseAuditLog } from "../policy/audit.ts";
import { SecretStore } from "../policy/secrets.ts";
import { callTool } from "./pipeline.ts";
import { maskResult } from "./render.ts";
import { substituteArgs } from "./secret_args.ts";
import { blockedByPolicy } from "./confirm_gate.ts";
import type { ConfirmOutcome, ConfirmRequest } from "../policy/confirm.ts";
import type { ServerConfig } from "../policy/server_config.ts";
import type { ToolContext } from "../tools/context.ts";
import { defineTool, type ToolDefinition } from "../tools/define_tool.ts";
import { resultOutput } from "../tools/output_schemas.ts";
import { ToolError } from "../browser/tool_error.ts";
import { BrowserHost } from "../browser/sessions/browser_host.ts";
import { SessionManager } from "../browser/sessions/session_manager.ts";
import { BetweenCalls } from "../browser/sessions/between_calls.ts";
import { SessionSlots } from "../browser/sessions/session_slots.ts";
import { RefRegistry } from "../browser/snapshot/refs.ts";
import type { Page } from "../cdp/page.ts";

const store = new SecretStore(new Map([["PW", "hunter22"], ["USER", "alice"]]));

Deno.test("substituteArgs: fill keys get values; other places and unknown names are refused", () => {
  const on = { enabled: true, tool: "t" };
  const table: Array<[unknown, unknown]> = [
    [{ value: "{{secret:PW}}", ref: "e1" }, { value: "hunter22", ref: "e1" }],
    [{ text: "{{secret:USER}}\n" }, { text: "alice\n" }],
    [{ fields: [{ name: "p", value: "{{secret:PW}}" }] }, {
      fields: [{ name: "p", value: "hunter22" }],
    }],
    [{ value: ["{{secret:PW}}", "x"] }, { value: ["hunter22", "x"] }],
    [{ url: "https://x/", n: 3 }, { url: "https://x/", n: 3 }],
  ];
  for (const [args, want] of table) assertEquals(substituteArgs(args, store, on), want);
  const plain = { value: "x" };
  assertTrue(substituteArgs(plain, store, on) === plain, "no copy without placeholders");

  for (const args of [{ url: "https://x/?{{secret:PW}}" }, { expression: "'{{secret:PW}}'" }]) {
    const e = assertThrows(() => substituteArgs(args, store, on), ToolError);
    assertEquals(e.code, "invalid-argument");
    assertIncludes(e.message, "only filled into");
  }
  const unknown = assertThrows(
    () => substituteArgs({ value: "{{secret:NOPE}}" }, store, on),
    ToolError,
  );
  assertIncludes(unknown.message, 'Unknown secret "NOPE"');
  assertIncludes(unknown.hint, "{{secret:PW}}, {{secret:USER}}");
  const off = assertThrows(
    () => substituteArgs({ url: "{{secret:PW}}" }, store, { enabled: false, tool: "t" }),
    ToolError,
  );
  assertEquals([off.code, off.details.requiredCapability], ["capability-required", "secrets"]);
});

Deno.test("substituteArgs: wait_for text is matched, never filled; batch leaves inner calls theirs", () => {
  const on = { enabled: true, tool: "wait_for" };
  const e = assertThrows(() => substituteArgs({ text: "{{secret:PW}}" }, store, on), ToolError);
  assertEquals(e.code, "invalid-argument");
  assertIncludes(e.message, "matched against the page");
  const calls = { calls: [{ tool: "fill", args: { value: "{{secret:PW}}" } }] };
  for (const tool of ["batch", "flake_check"]) {
    assertTrue(substituteArgs(calls, store, { enabled: true, tool }) === calls, tool);
  }
});

Deno.test("maskResult: text content and structuredContent, not images", () => {
  const r = maskResult({
    content: [
      { type: "text", text: '{"v":"hunter22"}\nraw hunter22' },
      { type: "image", data: "aHVudGVyMjI=", mimeType: "image/png" },
    ],
    structuredContent: { v: "hunter22", list: [{ who: "alice" }] },
    isError: true,
  }, store);
  assertEquals(r, {
    content: [
      { type: "text", text: '{"v":"[secret:PW]"}\nraw [secret:PW]' },
      { type: "image", data: "aHVudGVyMjI=", mimeType: "image/png" },
    ],
    structuredContent: { v: "[secret:PW]", list: [{ who: "[secret:USER]" }] },
    isError: true,
  });
});

/** A tool that asks two confirm hooks, then echoes what it was given. */
const probeTool = defineTool({
  name: "probe",
  title: "Probe",
  description: "test tool",
  capability: "read",
  toolset: "core",
  annotations: {},
  outputSchema: resultOutput(),
  inputSchema: z.object({ value: z.string().describe("v") }),
  async handler(ctx, args) {
    await ctx.confirm({ hook: "submit", tool: "probe", summary: "first" });
    await ctx.confirm({ hook: "publish", tool: "probe", summary: "second" });
    return { structured: { ok: true, got: args.value } };
  },
}) as unknown as ToolDefinition;

Deno.test("callTool: substitutes, masks, and audits every confirm answer of a call", async () => {
  const workspace = await Deno.makeTempDir({ prefix: "browxai-policies-" });
  try {
    const config: ServerConfig = {
      capabilities: new Set(["read", "secrets"]),
      workspace,
      headful: false,
      confirmRequired: new Set(["submit", "publish"]),
      toolsets: "all",
      version: "test",
      secrets: store,
    };
    // The human: yes to submit; to publish, yes the first time and no the second.
    let publishes = 0;
    const confirm = (request: ConfirmRequest): Promise<ConfirmOutcome> => {
      if (request.hook === "submit") return Promise.resolve({ decision: "approved", by: "test" });
      if (publishes++ === 0) return Promise.resolve({ decision: "pre-approved", by: "grant" });
      return Promise.reject(blockedByPolicy(request, "the human said no"));
    };
    const ctx: ToolContext = {
      config,
      sessions: new SessionManager(new BrowserHost({ headful: false }), workspace),
      confirm,
      approvals: new ApprovalStore(),
      client: "unit",
      dispatch: () => Promise.reject(new Error("no inner calls here")),
    };
    const ok = await callTool({ tool: probeTool, args: { value: "{{secret:PW}}" }, ctx });
    assertEquals(ok.structuredContent, { ok: true, got: "[secret:PW]" });
    const refused = await callTool({ tool: probeTool, args: { value: "{{secret:PW}}" }, ctx });
    assertTrue(refused.isError);

    const dir = join(workspace, "audit");
    const [file] = [...Deno.readDirSync(dir)];
    const { entries, starts, bad } = parseAuditLog(await Deno.readTextFile(join(dir, file!.name)));
    assertEquals(bad, []);
    // Both handlers ran: each call has a start line, tied to its outcome by callId.
    assertEquals(starts.map((s) => [s.tool, s.args]), [
      ["probe", { value: "{{secret:PW}}" }],
      ["probe", { value: "{{secret:PW}}" }],
    ]);
    assertEquals(starts.map((s) => s.callId), entries.map((e) => e.callId));
    assertTrue(starts[0]!.callId !== starts[1]!.callId);
    assertEquals(entries.map((e) => [e.decision, e.ok, e.args]), [
      ["asked", true, { value: "{{secret:PW}}" }],
      ["refused", false, { value: "{{secret:PW}}" }],
    ]);
    assertEquals(entries[0]!.confirms, [
      { hook: "submit", answer: "approved", by: "test" },
      { hook: "publish", answer: "pre-approved", by: "grant" },
    ]);
    assertEquals(entries[1]!.confirms!.map((c) => c.answer), ["approved", "refused"]);
    assertIncludes(entries[1]!.reason!, "the human said no");
    assertEquals(entries[1]!.error, "blocked-by-policy");
    assertEquals(entries[0]!.client, "unit");
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});

/** A context for pipeline tests: `read` only, no browser is ever started. */
function unitContext(workspace: string): ToolContext {
  return {
    config: {
      capabilities: new Set(["read"]),
      workspace,
      headful: false,
      confirmRequired: new Set(),
      toolsets: "all",
      version: "test",
    },
    sessions: new SessionManager(new BrowserHost({ headful: false }), workspace),
    confirm: () => Promise.reject(new Error("no confirms here")),
    approvals: new ApprovalStore(),
    client: "unit",
    dispatch: () => Promise.reject(new Error("no inner calls here")),
  };
}

async function auditEntries(workspace: string) {
  const [file] = [...Deno.readDirSync(join(workspace, "audit"))];
  return parseAuditLog(await Deno.readTextFile(join(workspace, "audit", file!.name)));
}

Deno.test("callTool: an unexpected failure is internal, its hint names the audit callId", async () => {
  const workspace = await Deno.makeTempDir({ prefix: "browxai-policies-" });
  const buggy = defineTool({
    name: "buggy",
    title: "Buggy",
    description: "test tool",
    capability: "read",
    toolset: "core",
    annotations: {},
    outputSchema: resultOutput(),
    inputSchema: z.object({}),
    handler() {
      return Promise.reject(new TypeError("cannot read properties of undefined"));
    },
  }) as unknown as ToolDefinition;
  try {
    const r = await callTool({ tool: buggy, args: {}, ctx: unitContext(workspace) });
    assertTrue(r.isError);
    const error = r.structuredContent!.error as { code: string; message: string; hint: string };
    assertEquals(error.code, "internal");
    assertIncludes(error.message, 'Internal error in "buggy": TypeError');
    const id = /^retry the call; if it fails again, report it with audit callId ([0-9a-f-]{36})$/
      .exec(error.hint)?.[1];
    assertTrue(id !== undefined, error.hint);
    assertIncludes((r.content[0] as { text: string }).text, `Next: ${error.hint}`);
    const { entries } = await auditEntries(workspace);
    assertEquals([entries[0]!.callId, entries[0]!.error], [id, "internal"]);
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});

Deno.test("callTool: refusals never reach the handler and are audited from the typed outcome", async () => {
  const workspace = await Deno.makeTempDir({ prefix: "browxai-pipeline-" });
  let ran = 0;
  const acting = defineTool({
    name: "acting",
    title: "Acting",
    description: "test tool",
    capability: "action",
    toolset: "core",
    annotations: {},
    outputSchema: resultOutput(),
    inputSchema: z.object({}),
    handler() {
      ran++;
      return Promise.resolve({ structured: { ok: true } });
    },
  }) as unknown as ToolDefinition;
  try {
    const ctx = unitContext(workspace);
    const noCap = await callTool({ tool: acting, args: {}, ctx });
    assertEquals(noCap.structuredContent?.requiredCapability, "action");
    const badArgs = await callTool({ tool: probeTool, args: { value: 1 }, ctx });
    assertEquals((badArgs.structuredContent?.error as { code: string }).code, "invalid-argument");
    const unserved = await callTool({
      tool: acting,
      args: {},
      ctx,
      refusal: new ToolError("invalid-argument", 'Unknown tool "nope"', "call tools/list"),
    });
    assertIncludes(
      String(unserved.content[0]?.type === "text" && unserved.content[0].text),
      "nope",
    );
    assertEquals(ran, 0);
    const { entries, starts } = await auditEntries(workspace);
    // No start line: no handler ran.
    assertEquals(starts, []);
    assertEquals(entries.map((e) => [e.tool, e.ok, e.error]), [
      ["acting", false, "capability-required"],
      ["probe", false, "invalid-argument"],
      ["acting", false, "invalid-argument"],
    ]);
    assertEquals(entries[0]!.decision, "refused");
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});

Deno.test("callTool: a failure the handler reports as a result (ok: false) is audited with its code", async () => {
  const workspace = await Deno.makeTempDir({ prefix: "browxai-pipeline-" });
  const failing = defineTool({
    name: "failing",
    title: "Failing",
    description: "test tool",
    capability: "read",
    toolset: "core",
    annotations: {},
    outputSchema: resultOutput(),
    inputSchema: z.object({}),
    handler: () =>
      Promise.resolve({
        structured: {
          ok: false,
          error: { code: "covered", message: "Did not click", hint: "close it" },
        },
        isError: true,
      }),
  }) as unknown as ToolDefinition;
  try {
    const r = await callTool({ tool: failing, args: {}, ctx: unitContext(workspace) });
    assertTrue(r.isError);
    const { entries, starts } = await auditEntries(workspace);
    assertEquals(starts.length, 1);
    assertEquals([entries[0]!.ok, entries[0]!.error], [false, "covered"]);
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});

Deno.test("callTool: a result with ok: false that is not an error (wait_for's timeout) is audited ok: false", async () => {
  const workspace = await Deno.makeTempDir({ prefix: "browxai-pipeline-" });
  const notMet = defineTool({
    name: "not_met",
    title: "Not met",
    description: "test tool",
    capability: "read",
    toolset: "core",
    annotations: {},
    outputSchema: resultOutput(),
    inputSchema: z.object({}),
    handler: () => Promise.resolve({ structured: { ok: false, status: "timeout", waitedMs: 5 } }),
  }) as unknown as ToolDefinition;
  try {
    const r = await callTool({ tool: notMet, args: {}, ctx: unitContext(workspace) });
    // Still a result for the agent (not isError), but not a success for the audit.
    assertEquals([r.isError, r.structuredContent?.ok], [undefined, false]);
    const { entries } = await auditEntries(workspace);
    assertEquals([entries[0]!.ok, entries[0]!.error, entries[0]!.decision], [
      false,
      "timeout",
      "allowed",
    ]);
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});

Deno.test("callTool: a session's news comes once with its next result, masked, errors included", async () => {
  const workspace = await Deno.makeTempDir({ prefix: "browxai-pipeline-" });
  const between = new BetweenCalls<Page>();
  const session = {
    id: "default",
    closed: false,
    tabs: [],
    slots: new SessionSlots(),
    between,
    refs: new RefRegistry(),
  };
  const base = unitContext(workspace);
  // Masking on (secrets), and one session: the fake with the real news buffer.
  const ctx = {
    ...base,
    config: { ...base.config, capabilities: new Set(["read", "secrets"]), secrets: store },
    sessions: { list: () => [session] },
  } as unknown as ToolContext;
  const tool = (name: string, withSession: boolean, fail = false) =>
    defineTool({
      name,
      title: name,
      description: "test tool",
      capability: "read",
      toolset: "core",
      annotations: {},
      outputSchema: resultOutput(),
      inputSchema: withSession ? z.object({ session: z.string().optional() }) : z.object({}),
      handler() {
        if (fail) return Promise.reject(new ToolError("not-found", "Nothing here", "look again"));
        return Promise.resolve({ structured: { ok: true } });
      },
    }) as unknown as ToolDefinition;
  try {
    between.dialog({ kind: "alert", message: "pw is hunter22", handledAs: "accepted" });
    // A tool that names no session leaves the news for the session's next result.
    const other = await callTool({ tool: tool("plain", false), args: {}, ctx });
    assertEquals(other.structuredContent, { ok: true });
    const r = await callTool({ tool: tool("read", true), args: {}, ctx });
    assertEquals(r.structuredContent, {
      ok: true,
      sinceLastCall: {
        dialogs: [{ kind: "alert", message: "pw is [secret:PW]", handledAs: "accepted" }],
      },
    });
    assertIncludes((r.content[0] as { text: string }).text, '"sinceLastCall"');
    const again = await callTool({ tool: tool("read", true), args: {}, ctx });
    assertEquals(again.structuredContent, { ok: true });

    between.pageError("Error: boom");
    const failed = await callTool({ tool: tool("broken", true, true), args: {}, ctx });
    assertTrue(failed.isError);
    assertEquals(failed.structuredContent!.sinceLastCall, { pageErrors: ["Error: boom"] });
    assertIncludes((failed.content[0] as { text: string }).text, "Error: boom");
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});
