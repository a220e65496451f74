/**
 * End-to-end tests of the policy gates over MCP: get_config, pre-approvals
 * (approve_actions / list_approvals), the navigation allowlist and its
 * `navigate_off_allowlist` hook, per-site approvals with the `human`
 * capability, and the human channel through MCP elicitation with a real
 * client that answers (yes, no, or not at all).
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { type McpHarness, startHttp, startStdio, type ToolResult } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { join } from "./_paths.ts";
import { eventually } from "./_util.ts";
import { type AuditStart, parseAuditLog } from "../policy/audit.ts";
import { errorOf } from "./_results.ts";

const textOf = (r: ToolResult) => r.content.map((c) => c.text ?? "").join("\n");

/** The audit start lines written so far in `workspace`. */
async function auditStarts(workspace: string): Promise<AuditStart[]> {
  let text = "";
  for await (const f of Deno.readDir(join(workspace, "audit"))) {
    text += await Deno.readTextFile(join(workspace, "audit", f.name)) + "\n";
  }
  return parseAuditLog(text).starts;
}
type R = Record<string, unknown>;

async function tabUrl(mcp: McpHarness): Promise<string> {
  const t = await mcp.ok("tabs", { action: "list" });
  return String(((t.tabs as R[]).find((x) => x.active) ?? {}).url);
}

Deno.test("policy: config, pre-approvals and the allowlist hook", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({
    env: {
      BROWX_CAPABILITIES: "read,navigation,action,self-approval",
      BROWX_CONFIRM_REQUIRED: "navigate_off_allowlist",
      BROWX_ALLOWED_ORIGINS: "127.0.0.1",
      BROWX_TOOLSETS: "core,sessions,policy",
    },
  });
  try {
    await t.step("get_config shows the effective policy", async () => {
      const c = await mcp.ok("get_config");
      assertEquals(c.confirmRequired, ["navigate_off_allowlist"]);
      assertEquals(c.allowedOrigins, ["127.0.0.1"]);
      assertTrue((c.capabilities as string[]).includes("self-approval"));
      assertEquals((c.limits as R).maxTimeoutMs, 30000);
    });

    await t.step(
      "off the allowlist: held by the hook, refused with no channel; tab unmoved",
      async () => {
        await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
        const r = await mcp.call("navigate", { url: fx.crossUrl("basic.html"), snapshot: "none" });
        assertEquals(r.isError, true);
        assertEquals((r.structuredContent!.error as R).code, "blocked-by-policy");
        assertIncludes(textOf(r), "navigate_off_allowlist");
        assertIncludes(textOf(r), "no human channel");
        assertEquals(await tabUrl(mcp), fx.url("basic.html"));
      },
    );

    await t.step("approve_actions lets the hook pass; list_approvals counts uses", async () => {
      const g = await mcp.ok("approve_actions", {
        scopes: ["navigate_off_allowlist"],
        ttlSeconds: 60,
      });
      assertEquals((g.granted as R[])[0]!.scope, "navigate_off_allowlist");
      const r = await mcp.ok("navigate", { url: fx.crossUrl("basic.html"), snapshot: "none" });
      assertEquals(r.url, fx.crossUrl("basic.html"));
      const list = (await mcp.ok("list_approvals")).approvals as R[];
      assertEquals(list.length, 1);
      assertEquals(list[0]!.uses, 1);
      assertTrue(
        (list[0]!.remainingMs as number) > 50_000 && (list[0]!.remainingMs as number) <= 60_000,
      );
    });

    await t.step("bad grants are refused with what is allowed", async () => {
      for (
        const [args, msg] of [
          [{ scopes: ["publish"] }, "cannot be pre-approved"],
          [{ scopes: ["byob"] }, '"byob"'],
          [{ scopes: [] }, "empty"],
          [{ scopes: ["submit"], ttlSeconds: 86401 }, "out of range"],
        ] as Array<[R, string]>
      ) {
        const r = await mcp.call("approve_actions", args);
        assertEquals(r.isError, true, JSON.stringify(args));
        assertIncludes(textOf(r), msg);
      }
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("policy: allowlist without a hook, self-approval off, read-only config", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({
    env: { BROWX_ALLOWED_ORIGINS: "127.0.0.1", BROWX_TOOLSETS: "core,sessions,policy" },
  });
  const ro = await startStdio({
    env: {
      BROWX_CONFIG_READONLY: "1",
      BROWX_CAPABILITIES: "read,navigation,action,self-approval",
      BROWX_TOOLSETS: "all",
    },
  });
  try {
    const r = await mcp.call("navigate", { url: fx.crossUrl("basic.html"), snapshot: "none" });
    assertEquals((r.structuredContent!.error as R).code, "blocked-by-policy");
    assertIncludes(textOf(r), "not on the navigation allowlist");
    assertIncludes(textOf(r), "BROWX_ALLOWED_ORIGINS");
    // A data: document is the agent's own script: it needs eval, like eval_js.
    for (const tool of ["navigate", "open_session"]) {
      const d = await mcp.call(tool, { url: "data:text/html,<script>1</script>", session: "d" });
      assertEquals(d.structuredContent!.requiredCapability, "eval", textOf(d));
    }
    const a = await mcp.call("approve_actions", { scopes: ["byob_action"] });
    assertEquals(a.structuredContent!.requiredCapability, "self-approval");
    assertEquals((await mcp.ok("list_approvals")).approvals, []);
    const names = (await ro.client.listTools()).tools.map((x) => x.name);
    assertTrue(!names.includes("approve_actions") && names.includes("list_approvals"));
    const hidden = await ro.call("approve_actions", { scopes: ["byob_action"] });
    assertEquals(hidden.isError, true);
    assertIncludes(textOf(hidden), "read-only");
    // Calls to tools that are not served are refused and audited like any other; a name no
    // toolset serves is a JSON-RPC error (-32602), as MCP says.
    const unknown = await ro.call("no_such_tool", { x: 1 }).then(
      () => undefined,
      (e: { code?: number; message?: string }) => e,
    );
    assertEquals(unknown?.code, -32602, String(unknown?.message));
    assertIncludes(String(unknown?.message), 'Unknown tool "no_such_tool"');
    // Said once: the client adds its own "MCP error -32602:" to what the server sent.
    assertEquals(String(unknown?.message).split("MCP error").length, 2, String(unknown?.message));
    const day = new Date().toISOString().slice(0, 10);
    const lines = (await Deno.readTextFile(`${ro.workspace}/audit/${day}.jsonl`)).trim().split("\n")
      .map((l) => JSON.parse(l) as R);
    const tools = lines.map((l) => [l.tool, l.decision]);
    assertEquals(tools.slice(-2), [["approve_actions", "refused"], ["no_such_tool", "refused"]]);
  } finally {
    await mcp.close();
    await ro.close();
    await fx.close();
  }
});

Deno.test("policy: a human answers through MCP elicitation", async (t) => {
  const fx = await startFixtureServer();
  const asked: string[] = [];
  let answer: "yes" | "no" | "silent" = "yes";
  const mcp = await startStdio({
    env: {
      // eval: data: documents run the agent's own scripts.
      BROWX_CAPABILITIES: "read,navigation,action,human,eval",
      BROWX_CONFIRM_REQUIRED: "navigate_off_allowlist",
      BROWX_ALLOWED_ORIGINS: "127.0.0.1,localhost",
      BROWX_CONFIRM_TIMEOUT_MS: "1500",
    },
    elicit(params) {
      asked.push(params.message);
      if (answer === "silent") return new Promise(() => {});
      return answer === "yes"
        ? { action: "accept", content: { approve: true } }
        : { action: "accept", content: { approve: false } };
    },
  });
  try {
    await t.step("a new site is asked once per session; moving within it is not", async () => {
      await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
      assertEquals(asked.length, 1);
      assertIncludes(asked[0]!, "127.0.0.1");
      await mcp.ok("navigate", { url: fx.url("form.html"), snapshot: "none" });
      assertEquals(asked.length, 1);
      await mcp.ok("navigate", { url: fx.crossUrl("basic.html"), snapshot: "none" });
      assertEquals(asked.length, 2);
      assertIncludes(asked[1]!, "localhost");
      await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
      assertEquals(asked.length, 2, "127.0.0.1 was approved already");
    });

    await t.step("a data: URL is asked every time", async () => {
      await mcp.ok("navigate", { url: "data:text/html,<p>one</p>", snapshot: "none" });
      await mcp.ok("navigate", { url: "data:text/html,<p>one</p>", snapshot: "none" });
      assertEquals(asked.length, 4);
    });

    await t.step("a no refuses, and the tab stays", async () => {
      await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
      answer = "no";
      const r = await mcp.call("navigate", { url: "data:text/html,<p>two</p>", snapshot: "none" });
      assertEquals((r.structuredContent!.error as R).code, "blocked-by-policy");
      assertIncludes(textOf(r), "the human said no");
      assertEquals(await tabUrl(mcp), fx.url("basic.html"));
    });

    await t.step("no answer in time is a no, and the server goes on", async () => {
      answer = "silent";
      const started = Date.now();
      const r = await mcp.call("navigate", {
        url: "data:text/html,<p>three</p>",
        snapshot: "none",
      });
      assertIncludes(textOf(r), "nobody answered");
      assertTrue(Date.now() - started < 10_000);
      answer = "yes";
      await mcp.ok("navigate", { url: fx.url("form.html"), snapshot: "none" });
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("policy: elicitation over Streamable HTTP", async () => {
  const fx = await startFixtureServer();
  const server = await startHttp({
    env: { BROWX_CAPABILITIES: "read,navigation,action,human" },
  });
  try {
    let asked = 0;
    const a = await server.connect({}, () => {
      asked++;
      return { action: "accept", content: { approve: true } };
    });
    await a.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    assertEquals(asked, 1);
    // A client that cannot be asked is refused, never left hanging.
    const b = await server.connect();
    const r = await b.call("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    assertIncludes(textOf(r), "no human channel");
    // Nothing was approved for it: the hint says how to connect a channel, not to "stay" anywhere.
    const next = String((r.structuredContent!.error as R).hint);
    for (
      const way of ["elicitation", "--headful", "BROWX_DEVTOOLS_CONFIRM=1", "BROWX_CAPABILITIES"]
    ) {
      assertIncludes(next, way);
    }
    assertTrue(!next.includes("approved so far"), next);
  } finally {
    await server.close();
    await fx.close();
  }
});

Deno.test("policy: what the human approves is what runs (the session is held while asking)", async () => {
  const fx = await startFixtureServer();
  const guard = fx.url(`guard.html?cross=${encodeURIComponent(fx.crossOrigin)}`);
  let sneaky: Promise<ToolResult> | undefined;
  let sneakyDone = false;
  // deno-lint-ignore prefer-const
  let mcp: Awaited<ReturnType<typeof startStdio>>;
  mcp = await startStdio({
    env: { BROWX_CONFIRM_REQUIRED: "submit" },
    async elicit() {
      // While the human reads the question, the agent tries to move the tab elsewhere.
      sneaky = mcp.call("navigate", { url: fx.url("basic.html"), snapshot: "none" });
      sneaky.then(() => sneakyDone = true);
      // Its handler started (the audit's start line), and waits for the session.
      await eventually(
        async () =>
          (await auditStarts(mcp.workspace)).some((s) =>
            s.tool === "navigate" &&
            String((s.args as R).url).includes("basic.html")
          ),
        10_000,
        "the other call to reach its handler",
      );
      assertEquals(sneakyDone, false, "another call ran while the human was asked");
      return { action: "accept", content: { approve: true } };
    },
  });
  try {
    await mcp.ok("navigate", { url: guard, snapshot: "none" });
    const r = await mcp.ok("click", { selector: "#send", submits: true });
    // The form of the page the question named was sent, then the other call ran.
    assertEquals((r.navigation as R).changed, true);
    const post = fx.requests.find((q) => q.method === "POST" && q.path.startsWith("/api/echo"));
    assertEquals(post?.headers["referer"]?.startsWith(fx.url("guard.html")), true);
    const after = await sneaky!;
    assertEquals(after.isError, undefined, textOf(after));
    // The other call's page load came after the approved form was sent.
    const load = fx.requests.findIndex((q) => q.path === "/basic.html");
    assertTrue(load > fx.requests.indexOf(post!), "the other call waited for the approved one");
    assertEquals(await tabUrl(mcp), fx.url("basic.html"));
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("policy: the submit question says where the page's forms send, not only the page", async () => {
  const fx = await startFixtureServer();
  const asked: string[] = [];
  const mcp = await startStdio({
    env: { BROWX_CONFIRM_REQUIRED: "submit" },
    elicit(params) {
      asked.push(params.message);
      return { action: "accept", content: { approve: false } };
    },
  });
  try {
    const page = fx.url(`form_elsewhere.html?to=${encodeURIComponent(fx.crossOrigin)}`);
    await mcp.ok("navigate", { url: page, snapshot: "none" });
    const r = await mcp.call("click", { selector: "#send", submits: true });
    assertEquals(errorOf(r).code, "blocked-by-policy");
    assertEquals(asked.length, 1);
    // The question names the other site the data would go to.
    assertIncludes(asked[0]!, `POST ${fx.crossOrigin}/api/collect`);
    assertTrue(!fx.requests.some((q) => q.path.startsWith("/api/collect")), "nothing was sent");
  } finally {
    await mcp.close();
    await fx.close();
  }
});
