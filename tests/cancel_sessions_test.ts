/**
 * A cancelled `open_session` or `tabs({ action: "new" })` leaves no session or tab behind
 * (red team: five cancelled open_session calls left five live sessions and their Chromium
 * processes).
 */
import { join } from "node:path";
import { assertTrue } from "./_assert.ts";
import { type McpHarness, startStdio } from "./_mcp.ts";
import { eventually } from "./_util.ts";
import { parseAuditLog } from "../policy/audit.ts";

async function started(mcp: McpHarness, tool: string, count: number): Promise<boolean> {
  let text = "";
  try {
    for await (const f of Deno.readDir(join(mcp.workspace, "audit"))) {
      text += await Deno.readTextFile(join(mcp.workspace, "audit", f.name));
    }
  } catch {
    return false;
  }
  const log = parseAuditLog(text);
  return log.starts.filter((s) => s.tool === tool).length >= count &&
    log.entries.filter((e) => e.tool === tool).length >= count;
}

Deno.test("cancel: a cancelled open_session or new tab leaves nothing behind", async () => {
  const mcp = await startStdio();
  try {
    // Starts the shared browser, so the cancelled opens below are quick context opens.
    await mcp.ok("open_session", { session: "warm" });
    for (const [i, name] of ["gone1", "gone2", "gone3"].entries()) {
      const ac = new AbortController();
      const call = mcp.client.callTool(
        { name: "open_session", arguments: { session: name } },
        undefined,
        {
          signal: ac.signal,
        },
      ).then(() => false, () => true);
      // Cancelled at three moments: at once, once its handler started, a little later.
      if (i > 0) {
        await eventually(
          async () => {
            let text = "";
            for await (const f of Deno.readDir(join(mcp.workspace, "audit"))) {
              text += await Deno.readTextFile(join(mcp.workspace, "audit", f.name));
            }
            return parseAuditLog(text).starts.some((s) => s.session === name);
          },
          10_000,
          `${name} to start`,
        );
      }
      ac.abort("no");
      assertTrue(await call);
    }
    // Every cancelled call is over (its outcome written), and none left a session.
    await eventually(() => started(mcp, "open_session", 3), 15_000, "the outcome lines");
    await eventually(
      async () => {
        const list = await mcp.ok("list_sessions", {});
        const names = (list.sessions as Array<{ name?: string; session?: string }>).map((s) =>
          s.name ?? s.session
        );
        return !names.some((n) => n?.startsWith("gone"));
      },
      15_000,
      "no cancelled session to be listed",
    );

    const before = ((await mcp.ok("tabs", { action: "list", session: "warm" })).tabs as unknown[])
      .length;
    const ac = new AbortController();
    const call = mcp.client.callTool(
      {
        name: "tabs",
        arguments: { action: "new", session: "warm" },
      },
      undefined,
      { signal: ac.signal },
    ).then(() => false, () => true);
    ac.abort("no");
    assertTrue(await call);
    await eventually(
      async () => {
        const tabs = (await mcp.ok("tabs", { action: "list", session: "warm" })).tabs as unknown[];
        return tabs.length === before;
      },
      10_000,
      "the tab count to be back",
    );
  } finally {
    await mcp.close();
  }
});
