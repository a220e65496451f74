/**
 * The console's approval queue driven through the hub as a viewer would (no browser): an entry
 * per question with what the person must see, approve once / for the site / deny, errors for
 * ids that are not pending, and withdrawal when the question's signal aborts.
 */
import { assertEquals, assertIncludes, assertRejects, assertTrue } from "../../tests/_assert.ts";
import type { ConfirmRequest } from "../../policy/confirm.ts";
import { ConsoleHub, type Viewer } from "./hub.ts";
import { type ApprovalEntry, ConsoleApprovals, installApprovals } from "./approval_queue.ts";

const viewer: Viewer = { id: 1, send: () => {} };
const noSessions = { list: () => [] } as never;

const REQUEST: ConfirmRequest = {
  hook: "submit",
  tool: "click",
  session: "default",
  summary: "click may send a form",
  origin: "http://127.0.0.1:8123",
  args: { ref: "e4", submits: true },
  target: { ref: "e4" },
};

function setUp() {
  const hub = new ConsoleHub();
  const queue = installApprovals(hub);
  const channel = queue.channel({ label: "stdio", sessions: noSessions });
  const changes: string[] = [];
  hub.addEventListener("change", (e) => changes.push((e as CustomEvent<string>).detail));
  return { hub, queue, channel, changes };
}

const pending = (hub: ConsoleHub) => hub.state().approvals as ApprovalEntry[];

Deno.test("console approvals: available only while a viewer is connected", () => {
  const { hub, channel } = setUp();
  assertEquals(channel.available(REQUEST), false);
  hub.addViewer(viewer);
  assertEquals(channel.available(REQUEST), true);
  hub.removeViewer(viewer);
  assertEquals(channel.available(REQUEST), false);
  assertEquals(installApprovals(hub) === installApprovals(hub), true, "installed once per hub");
});

Deno.test("console approvals: an entry shows the call, and approve once answers yes", async () => {
  const { hub, channel, changes } = setUp();
  const answer = channel.ask(REQUEST, new AbortController().signal);
  const [entry] = pending(hub);
  assertEquals(entry!.id, "q1");
  assertEquals(entry!.client, "stdio");
  assertEquals(entry!.tool, "click");
  assertEquals(entry!.hook, "submit");
  assertEquals(entry!.args, { ref: "e4", submits: true });
  assertEquals(entry!.site, "127.0.0.1:8123");
  assertEquals(entry!.target, { ref: "e4" });
  assertTrue(changes.includes("approvals"), "the slice change is announced");
  const reply = await hub.handle({ type: "approve", id: "q1", scope: "once" }, viewer);
  assertEquals(reply, { type: "approved", id: "q1", scope: "once" });
  assertEquals(await answer, true);
  assertEquals(pending(hub), []);
  // Answered: the id is no longer pending.
  const again = await hub.handle({ type: "approve", id: "q1" }, viewer);
  assertEquals(again?.type, "error");
  assertIncludes(String(again?.error), 'no pending approval "q1"');
});

Deno.test("console approvals: approve for the site and deny", async () => {
  const { hub, channel } = setUp();
  const site = channel.ask(REQUEST, new AbortController().signal);
  await hub.handle({ type: "approve", id: "q1", scope: "site" }, viewer);
  assertEquals(await site, "site");
  const no = channel.ask(REQUEST, new AbortController().signal);
  assertEquals(await hub.handle({ type: "deny", id: "q2" }, viewer), { type: "denied", id: "q2" });
  assertEquals(await no, false);
});

Deno.test("console approvals: site scope where policy refuses it, bad ids and scopes are error replies", async () => {
  const { hub, channel } = setUp();
  const publish = channel.ask({ ...REQUEST, hook: "publish" }, new AbortController().signal);
  const [entry] = pending(hub);
  assertEquals(entry!.site, undefined);
  assertIncludes(entry!.siteRefused!, "every time");
  for (
    const [message, error] of [
      [{ type: "approve", id: "q1", scope: "site" }, "cannot be approved for the site"],
      [{ type: "approve", id: "q1", scope: "forever" }, 'scope must be "once" or "site"'],
      [{ type: "approve" }, 'missing "id"'],
      [{ type: "deny", id: 7 }, 'missing "id"'],
      [{ type: "deny", id: "q99" }, 'no pending approval "q99"'],
    ] as const
  ) {
    const r = await hub.handle(message, viewer);
    assertEquals(r?.type, "error", JSON.stringify(message));
    assertIncludes(String(r?.error), error);
  }
  assertEquals(pending(hub).length, 1, "nothing was answered by a bad message");
  await hub.handle({ type: "approve", id: "q1" }, viewer);
  assertEquals(await publish, true);
});

Deno.test("console approvals: a withdrawn question disappears and rejects with the reason", async () => {
  const { hub, channel } = setUp();
  const ac = new AbortController();
  const asked = channel.ask(REQUEST, ac.signal);
  assertEquals(pending(hub).length, 1);
  ac.abort(new Error("answered through elicitation"));
  const e = await assertRejects(() => asked, Error);
  assertEquals(e.message, "answered through elicitation");
  assertEquals(pending(hub), []);
  const r = await hub.handle({ type: "approve", id: "q1" }, viewer);
  assertEquals(r?.type, "error");
  // Already aborted: never shown.
  await assertRejects(() => channel.ask(REQUEST, ac.signal), Error);
  assertEquals(pending(hub), []);
});

Deno.test("console approvals: questions fail once the last viewer has left (a reload in time keeps them)", async () => {
  const hub = new ConsoleHub();
  const queue = new ConsoleApprovals(hub, { viewerGoneMs: 20 });
  const channel = queue.channel({ label: "stdio", sessions: noSessions });
  hub.addViewer(viewer);
  const asked = channel.ask(REQUEST, new AbortController().signal);
  hub.removeViewer(viewer);
  const e = await assertRejects(() => asked, Error);
  assertIncludes(e.message, "the last console viewer left");
  assertEquals(queue.list(), []);

  // Gone and back before the time is up (a reload): the question waits for its answer.
  const slow = new ConsoleApprovals(hub, { viewerGoneMs: 60_000 });
  const kept = slow.channel({ label: "stdio", sessions: noSessions });
  hub.addViewer(viewer);
  const waiting = kept.ask(REQUEST, new AbortController().signal);
  hub.removeViewer(viewer);
  hub.addViewer(viewer);
  slow.answer(slow.list()[0]!.id, true);
  assertEquals(await waiting, true);
  hub.removeViewer(viewer);
});
