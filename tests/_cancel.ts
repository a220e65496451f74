/**
 * Helpers of the cancel tests: a call cancelled once its handler started, the audit outcomes it
 * leaves, and a site whose pages never answer or wait to be released.
 *
 * @module
 */
import { join } from "node:path";
import { assertTrue } from "./_assert.ts";
import type { McpHarness } from "./_mcp.ts";
import { eventually } from "./_util.ts";
import { parseAuditLog, type ParsedAuditLog } from "../policy/audit.ts";

/** The session's audit log so far (all its files). */
export async function auditLog(workspace: string): Promise<ParsedAuditLog> {
  let text = "";
  try {
    for await (const f of Deno.readDir(join(workspace, "audit"))) {
      text += await Deno.readTextFile(join(workspace, "audit", f.name));
    }
  } catch {
    // No audit folder yet.
  }
  return parseAuditLog(text);
}

/** Calls `tool` and cancels it once its handler started (its audit start line is written). */
export async function callAndCancel(
  mcp: McpHarness,
  tool: string,
  args: Record<string, unknown>,
  started: () => Promise<unknown>,
): Promise<number> {
  const before = (await auditLog(mcp.workspace)).entries.length;
  const ac = new AbortController();
  const call = mcp.client.callTool({ name: tool, arguments: args }, undefined, {
    signal: ac.signal,
    timeout: 120_000,
  });
  const rejected = call.then(() => false, () => true);
  await started();
  ac.abort("the agent changed its mind");
  assertTrue(await rejected, `${tool}: the client's call rejects on cancel`);
  return before;
}

/**
 * The outcome line `cancelled` of a `tool` call written after the first `before` lines, once
 * written (the pipeline answered): waited for well inside the 30 s each call would take.
 */
export async function cancelledOutcome(mcp: McpHarness, tool: string, before: number) {
  return await eventually(
    async () => {
      const log = await auditLog(mcp.workspace);
      return log.entries.slice(before).find((e) => e.tool === tool && e.error === "cancelled");
    },
    10_000,
    `the audit outcome "cancelled" of ${tool}`,
  );
}

/** The audit outcome of a `tool` call written after the first `before` lines, once written. */
export async function outcomeAfter(mcp: McpHarness, tool: string, before: number) {
  return await eventually(
    async () => (await auditLog(mcp.workspace)).entries.slice(before).find((e) => e.tool === tool),
    20_000,
    `the audit outcome of ${tool}`,
  );
}

/**
 * A site for the abandoned-work cases: `/button` (a button that navigates to `/never` and a
 * heading), `/never` (never answered until the test ends), `/looping` and `/missing` (marks
 * that a script or a wait began), `/release` (answers "go" once `released`).
 */
export function startSite() {
  const held: Array<() => void> = [];
  const hits: string[] = [];
  const state = { released: false };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    hits.push(path);
    const headers = { "cache-control": "no-store", "content-type": "text/html" };
    switch (path) {
      case "/button":
        return new Response(
          `<!doctype html><title>Button</title><h1>Ready</h1>
          <button id="go" onclick="location.href='/never'">Go</button>
          <button id="stay" onclick="this.textContent='Stayed'">Stay</button>`,
          { headers },
        );
      case "/never":
        return new Promise<Response>((resolve) =>
          held.push(() => resolve(new Response("late", { headers })))
        );
      case "/release":
        return new Response(state.released ? "go" : "wait", { headers });
      default:
        return new Response("ok", { headers });
    }
  });
  const url = (path: string) => `http://127.0.0.1:${server.addr.port}${path}`;
  return {
    url,
    hits,
    held,
    state,
    async close() {
      for (const release of held) release();
      await server.shutdown();
    },
  };
}
