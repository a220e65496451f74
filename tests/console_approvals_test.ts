/**
 * The web console as a human channel, over MCP against real Chromium, with the console's viewer
 * played through the hub (`hub.handle`, as the live socket dispatches): a declared submit waits
 * for a yes, shows in the `approvals` slice (tool, redacted args, site, hook, the target's box),
 * completes when the person approves, is refused with the tab unmoved when they deny; the
 * client's elicitation, asked at the same time, is withdrawn when the console answers; "approve
 * for this site" lets the next one through, until the session closes; the audit says who
 * answered.
 *
 * The server runs in this process (`_in_process.ts`: the hub is an object here); the MCP client
 * talks to it over the SDK's in-memory transport, the way a client on stdio would.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { eventually, refOf } from "./_util.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import type { ToolResult } from "./_mcp.ts";
import { startInProcess } from "./_in_process.ts";
import type { Viewer } from "../mcp/console/hub.ts";
import type { ApprovalEntry } from "../mcp/console/approval_queue.ts";

type R = Record<string, unknown>;

Deno.test("console approvals: approve, deny and approve for the site a declared submit; elicitation withdrawn", async () => {
  const fx = await startFixtureServer();
  // The client's person never answers; each question's end is recorded.
  const elicited: Array<{ withdrawn: boolean }> = [];
  const server = await startInProcess({
    BROWX_CONFIRM_REQUIRED: "submit",
    BROWX_CONFIRM_TIMEOUT_MS: "60000",
  }, (_params, signal) => {
    const q = { withdrawn: false };
    elicited.push(q);
    return new Promise((_, reject) => {
      signal.addEventListener("abort", () => {
        q.withdrawn = true;
        reject(new Error("withdrawn"));
      });
    });
  });
  const { hub, call, workspace } = server;
  const viewer: Viewer = { id: 1, send: () => {} };
  hub.addViewer(viewer);
  const pending = () => hub.state().approvals as ApprovalEntry[];
  const text = (r: ToolResult) => r.content.map((c) => c.text ?? "").join("\n");
  try {
    await call("navigate", { url: fx.url("form.html"), snapshot: "none" });
    const tree = String((await call("snapshot", {})).structuredContent?.tree);
    const button = refOf(tree, "Sign up");
    await call("fill", { selector: "#name", value: "Ada" });

    // 1. Approve once: the call waits, the console shows it, the person approves.
    const approved = call("click", { ref: button, submits: true });
    const [entry] = await eventually(() => pending().length === 1 && pending(), 10_000, "entry");
    assertEquals(entry!.client, "stdio");
    assertEquals(entry!.tool, "click");
    assertEquals(entry!.hook, "submit");
    assertEquals(entry!.session, "default");
    assertEquals(entry!.origin, fx.origin);
    // An IP's site is its host and port (approving one port approves no other).
    assertEquals(entry!.site, new URL(fx.origin).host);
    assertEquals((entry!.args as R).ref, button);
    assertEquals((entry!.args as R).submits, true);
    assertEquals(entry!.target?.ref, button);
    const box = await eventually(() => pending()[0]?.target?.box, 5000, "the target's box");
    assertTrue(box.width > 0 && box.height > 0, JSON.stringify(box));
    await eventually(() => elicited.length === 1, 5000, "elicitation asked too");
    const reply = await hub.handle({ type: "approve", id: entry!.id, scope: "once" }, viewer);
    assertEquals(reply, { type: "approved", id: entry!.id, scope: "once" });
    const done = await approved;
    assertEquals(done.isError, undefined, text(done));
    assertEquals(pending(), []);
    await eventually(() => elicited[0]!.withdrawn, 5000, "the elicitation withdrawn");
    const moved = await call("get_url", {});
    assertIncludes(String(moved.structuredContent?.url), "/api/echo");

    // 2. Deny: refused, the tab has not moved.
    await call("navigate", { url: fx.url("form.html"), snapshot: "none" });
    const ref2 = refOf(String((await call("snapshot", {})).structuredContent?.tree), "Sign up");
    const denied = call("click", { ref: ref2, submits: true });
    const [second] = await eventually(() => pending().length === 1 && pending(), 10_000, "entry");
    assertEquals(await hub.handle({ type: "deny", id: second!.id }, viewer), {
      type: "denied",
      id: second!.id,
    });
    const no = await denied;
    assertEquals(no.isError, true);
    assertEquals((no.structuredContent?.error as R).code, "blocked-by-policy");
    assertIncludes(text(no), "the human said no (through console)");
    assertEquals((await call("get_url", {})).structuredContent?.url, fx.url("form.html"));
    // Answered: the id is no longer pending.
    const late = await hub.handle({ type: "approve", id: second!.id }, viewer);
    assertEquals(late?.type, "error");

    // 3. Approve for the site: the next submit on the site passes without a question.
    const siteWide = call("click", { ref: ref2, submits: true });
    const [third] = await eventually(() => pending().length === 1 && pending(), 10_000, "entry");
    await hub.handle({ type: "approve", id: third!.id, scope: "site" }, viewer);
    assertEquals((await siteWide).isError, undefined);
    await call("navigate", { url: fx.url("form.html"), snapshot: "none" });
    const ref3 = refOf(String((await call("snapshot", {})).structuredContent?.tree), "Sign up");
    const asksBefore = elicited.length;
    const free = await call("click", { ref: ref3, submits: true });
    assertEquals(free.isError, undefined, text(free));
    assertEquals(elicited.length, asksBefore, "nobody was asked");

    // Closing the session discards the site approval it earned: asked again in the new one.
    await call("close_session", { session: "default" });
    await call("navigate", { url: fx.url("form.html"), snapshot: "none" });
    const ref4 = refOf(String((await call("snapshot", {})).structuredContent?.tree), "Sign up");
    const reopened = call("click", { ref: ref4, submits: true });
    const [fourth] = await eventually(() => pending().length === 1 && pending(), 10_000, "entry");
    await hub.handle({ type: "deny", id: fourth!.id }, viewer);
    assertEquals((await reopened).isError, true);

    // The audit says who answered each.
    const day = new Date().toISOString().slice(0, 10);
    const lines = (await Deno.readTextFile(`${workspace}/audit/${day}.jsonl`)).trim().split("\n")
      .map((l) => JSON.parse(l) as R).filter((l) => l.tool === "click" && l.phase !== "start");
    const confirms = lines.map((l) => (l.confirms as R[] | undefined)?.[0]);
    assertEquals(confirms.map((c) => [c?.answer, c?.by]), [
      ["approved", "console"],
      ["refused", "console"],
      ["approved", "console"],
      ["pre-approved", "site"],
      ["refused", "console"],
    ]);
  } finally {
    hub.removeViewer(viewer);
    await server.close();
    await fx.close();
  }
});
