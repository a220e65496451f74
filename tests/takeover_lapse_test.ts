/**
 * A takeover whose console is gone ends by itself (session 17, new-user finding 1): with the
 * default toolsets a person takes over in the real web console and closes it; the agent's
 * mutations are refused meanwhile with a hint that names only what it can do (no `release()`:
 * the `human` toolset is off), and within the lapse control comes back to the agent, which is
 * told in `sinceLastCall.control`. The person's Take over and the hand-back are audit lines.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { type ConsoleViewer, openConsole, startConsoleStdio } from "./_console.ts";
import { eventually, servePages } from "./_util.ts";

type R = Record<string, unknown>;

const PAGE = `<!doctype html><title>Counter</title>
<button id="add" onclick="n.textContent = +n.textContent + 1">Add</button> <b id="n">0</b>`;

Deno.test("takeover lapse: a console closed after Take over gives control back; audited", async () => {
  const pages = servePages({ "/": PAGE });
  const server = await startConsoleStdio();
  let viewer: ConsoleViewer | undefined;
  try {
    const mcp = server.mcp;
    await mcp.ok("navigate", { url: pages.base + "/", snapshot: "none" });
    viewer = await openConsole(server.url);
    const v = viewer;
    await v.waitFor('[data-panel="control"][data-control="agent"]');
    await eventually(async () => (await v.frame()).count > 0, 15_000, "a live frame");
    await v.click("[data-takeover]");
    await v.waitFor('[data-panel="control"][data-control="human"]');

    // While the person watches: refused; the hint says to wait, and names no tool that is off.
    const held = await mcp.call("click", { selector: "#add" });
    const error = (held.structuredContent as R).error as R;
    assertEquals(error.code, "human-has-control");
    assertIncludes(String(error.hint), "the person holds the tab: wait and call again later");
    assertEquals(String(error.hint).includes("release"), false);

    // The person closes the console: nobody watches, so control comes back within the lapse.
    await viewer.close();
    viewer = undefined;
    // Until then a refusal says it is coming (unless the lapse was quicker than this look).
    const seen = await eventually(
      async () => {
        const r = await mcp.call("click", { selector: "#add" });
        if (!r.isError) return { through: r.structuredContent as R };
        const e = (r.structuredContent as R).error as R;
        return String(e.hint).includes("control comes back to you within 5 s")
          ? { refused: r.structuredContent as R }
          : undefined;
      },
      20_000,
      "the refusal to say control comes back",
    );
    if (seen.refused) assertEquals(seen.refused.retryAfterMs, 5000);
    const back = seen.through ?? await eventually(
      async () => {
        const r = await mcp.call("click", { selector: "#add" });
        return r.isError ? undefined : r.structuredContent as R;
      },
      20_000,
      "the agent's click to go through once the console is gone",
    );
    assertEquals(back.ok, true);
    // The first result after the lapse tells the agent why it has control again.
    const control = (back.sinceLastCall as R | undefined)?.control as R | undefined;
    assertEquals(control?.by, "agent");
    assertIncludes(String(control?.reason), "nobody watched the session");
    await mcp.ok("close_session", { session: "default" });

    // The audit log: the person's Take over, then the hand-back nobody pressed.
    const lines = await eventually(
      async () => {
        const all: R[] = [];
        for await (const f of Deno.readDir(`${mcp.workspace}/audit`)) {
          const text = await Deno.readTextFile(`${mcp.workspace}/audit/${f.name}`);
          for (const l of text.trim().split("\n")) if (l) all.push(JSON.parse(l));
        }
        const acts = all.filter((l) => String(l.tool).startsWith("console:"));
        return acts.length >= 2 ? acts : undefined;
      },
      10_000,
      "the console's audit lines",
    );
    assertEquals(lines.map((l) => l.tool), ["console:takeover", "console:handback"]);
    assertEquals(lines[0]!.session, "default");
    assertEquals((lines[0]!.args as R).reason, "taken over in the console");
    assertEquals((lines[1]!.args as R).automatic, true);
    assertTrue(lines.every((l) => l.client === "stdio" && l.decision === "allowed"));
  } finally {
    await viewer?.close().catch(() => {});
    await server.close();
    await pages.close();
  }
});
