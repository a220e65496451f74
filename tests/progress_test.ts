/**
 * MCP progress notifications (issue 17): a call that carries a progress token hears how it
 * goes — navigate's phases, wait_for's time waited, batch's steps, flake_check's runs, a big
 * snapshot's frames — always increasing; a call without a token hears nothing.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startRawStdio } from "./_wire.ts";
import { startStdio, type ToolResult } from "./_mcp.ts";

type Note = { progress: number; total?: number | undefined; message?: string | undefined };

/** Pages served by the test: `/slow` answers late, `/late` shows its text late, `/frames` has iframes. */
function servePages(): { url: (path: string) => string; close: () => Promise<void> } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const html = (body: string) =>
      new Response(`<!doctype html>${body}`, { headers: { "content-type": "text/html" } });
    if (path === "/slow") {
      await new Promise((r) => setTimeout(r, 600));
      return html("<title>Slow</title><h1>Slow page</h1>");
    }
    if (path === "/late") {
      return html(
        "<title>Late</title><h1>Waiting</h1><script>setTimeout(() => document.body" +
          ".insertAdjacentHTML('beforeend', '<p>Arrived now</p>'), 1300)</script>",
      );
    }
    if (path === "/frames") {
      return html('<h1>Frames</h1><iframe src="/slow"></iframe><iframe src="/late"></iframe>');
    }
    return html("<title>Plain</title><p>plain</p>");
  });
  const port = (server.addr as Deno.NetAddr).port;
  return { url: (p) => `http://127.0.0.1:${port}${p}`, close: () => server.shutdown() };
}

/** Checks what MCP requires of a token's notifications: progress increases; total holds it. */
function assertIncreasing(notes: Note[], what: string): void {
  assertTrue(notes.length > 0, `${what}: progress notifications`);
  for (let i = 1; i < notes.length; i++) {
    assertTrue(
      notes[i]!.progress > notes[i - 1]!.progress,
      `${what}: increasing ${JSON.stringify(notes)}`,
    );
  }
  for (const n of notes) {
    if (n.total !== undefined) assertTrue(n.progress <= n.total, `${what}: within total`);
  }
}

Deno.test("progress: notifications for each long tool when asked, none without a token", async () => {
  const pages = servePages();
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,sessions,power,testing" } });
  // A notification for a token the client did not send (or no longer waits on: after the
  // answer) is an error to the SDK client: "Received a progress notification for an unknown token".
  // The server leaves a gap before each answer (mcp/progress.ts ANSWER_GAP_MS), but a client
  // process descheduled longer (a busy machine) reads a call's last notification together with
  // its answer, and the SDK then handles the answer first: such a late one is kept apart (the
  // wire test below checks the server's order itself).
  const stray: string[] = [];
  const late: { progressToken: unknown; message?: string }[] = [];
  const LATE = "Received a progress notification for an unknown token: ";
  mcp.client.onerror = (e) => {
    if (e.message.startsWith(LATE)) late.push(JSON.parse(e.message.slice(LATE.length)).params);
    else stray.push(e.message);
  };
  const withProgress = async (name: string, args: Record<string, unknown>) => {
    const notes: Note[] = [];
    const lateBefore = late.length;
    const r = await mcp.client.callTool({ name, arguments: args }, undefined, {
      onprogress: (p) => notes.push(p),
      timeout: 60_000,
    }) as ToolResult;
    assertEquals(r.isError ?? false, false, JSON.stringify(r.content));
    assertIncreasing(notes, name);
    const lateOnes = late.slice(lateBefore).map((n) => n.message ?? "");
    return [...notes.map((n) => n.message ?? ""), ...lateOnes];
  };
  try {
    // navigate: a page the server answers late goes through every phase.
    const nav = await withProgress("navigate", { url: pages.url("/slow"), snapshot: "none" });
    // A late one is handled a microtask after its answer: the next call's answer comes after it.
    await mcp.ok("list_sessions");
    const navAll = [...nav, ...late.map((n) => n.message ?? "")];
    for (const phase of ["request sent", "response", "DOMContentLoaded", "load", "settled"]) {
      assertTrue(
        navAll.some((m) => m.endsWith(`: ${phase}`)),
        `navigate phase ${phase}: ${navAll}`,
      );
    }

    // wait_for: text that appears later; the time waited is reported while it waits.
    await mcp.ok("navigate", { url: pages.url("/late"), snapshot: "none" });
    const waited = await withProgress("wait_for", { text: "Arrived now", timeoutMs: 10_000 });
    assertTrue(waited.length >= 2, `several reports while waiting: ${waited}`);
    assertIncludes(waited[0]!, 'waiting for text "Arrived now"');

    // batch of 3: one report per step, then the end.
    const steps = await withProgress("batch", {
      calls: [
        { tool: "navigate", args: { url: pages.url("/plain"), snapshot: "none" } },
        { tool: "list_sessions" },
        { tool: "snapshot" },
      ],
    });
    assertEquals(steps.slice(0, 3), [
      "step 1 of 3: navigate",
      "step 2 of 3: list_sessions",
      "step 3 of 3: snapshot",
    ]);

    // flake_check: each run's steps.
    const runs = await withProgress("flake_check", {
      calls: [{ tool: "list_sessions" }],
      n: 3,
    });
    for (let i = 1; i <= 3; i++) {
      assertTrue(runs.some((m) => m.startsWith(`run ${i} of 3`)), `run ${i}: ${runs}`);
    }

    // A snapshot of a page with frames: each frame document read.
    await mcp.ok("navigate", { url: pages.url("/frames"), snapshot: "none" });
    const snap = await withProgress("snapshot", {});
    // One message per frame document read (3 here; on a loaded machine a child frame may miss
    // its 3 s budget and go unread: the count then stops at 2, still one per frame read).
    const counts = snap.map((m) => Number(/^snapshot: (\d+) frame\(s\) read/.exec(m)?.[1] ?? 0));
    assertTrue(Math.max(...counts) >= 2, `frames: ${snap}`);
    assertTrue(counts.filter((n) => n > 0).length >= 2, `a message per frame: ${snap}`);

    // Without a token: no notification at all.
    const lateBefore = late.length;
    await mcp.ok("navigate", { url: pages.url("/slow"), snapshot: "none" });
    await mcp.ok("batch", { calls: [{ tool: "list_sessions" }, { tool: "list_sessions" }] });
    await mcp.ok("wait_for", { text: "Slow page" });
    // Anything late of the calls above is handled before this answer.
    await mcp.ok("list_sessions");
    assertEquals(late.slice(lateBefore), []);
    assertEquals(stray, []);
  } finally {
    await mcp.close();
    await pages.close();
  }
});

Deno.test("progress: on the wire, a call's notifications all come before its answer", async () => {
  const pages = servePages();
  const raw = await startRawStdio({ BROWX_TOOLSETS: "core,power" });
  try {
    const call = (id: number, name: string, args: Record<string, unknown>) =>
      raw.send({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name, arguments: args, _meta: { progressToken: `t${id}` } },
      });
    await call(1, "navigate", { url: pages.url("/slow"), snapshot: "none" });
    await raw.reply(1);
    await call(2, "batch", {
      calls: [{ tool: "list_sessions" }, { tool: "snapshot" }, { tool: "list_sessions" }],
    });
    await raw.reply(2);
    // Written in order: whatever the server sent after an answer comes before this reply.
    await raw.send({ jsonrpc: "2.0", id: 3, method: "ping" });
    await raw.reply(3);
    const seen = raw.seen();
    for (const id of [1, 2]) {
      const answeredAt = seen.findIndex((m) => m.id === id);
      const notes = seen.flatMap((m, i) =>
        (m.params as { progressToken?: unknown } | undefined)?.progressToken === `t${id}` ? [i] : []
      );
      assertTrue(notes.length > 0, `call ${id}: progress notifications`);
      assertTrue(
        notes.every((i) => i < answeredAt),
        `call ${id}: a notification after the answer: ${JSON.stringify(seen)}`,
      );
    }
  } finally {
    await raw.close();
    await pages.close();
  }
});
