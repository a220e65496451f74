/**
 * The console's asks and highlights through the hub as a viewer sees them (a fake session: its
 * human state and between-call news are the real ones, no browser): an ask shows until the
 * person marks it done, the client is notified, the session's next news carries it once.
 */
import { assertEquals, assertIncludes, assertRejects } from "../../tests/_assert.ts";
import { HumanState } from "../../browser/sessions/human_state.ts";
import { BetweenCalls } from "../../browser/sessions/between_calls.ts";
import type { BrowserSession } from "../../browser/sessions/browser_session.ts";
import { askHuman } from "../../browser/human/asks.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { ConsoleHub, type Viewer } from "./hub.ts";
import { type AskView, type HighlightView, installHumanAsks } from "./human_asks.ts";

const viewer: Viewer = { id: 1, send: () => {} };

function setUp(headful = false) {
  const session = {
    id: "default",
    headful,
    closed: false,
    human: new HumanState(),
    between: new BetweenCalls(),
  } as unknown as BrowserSession;
  const hub = new ConsoleHub();
  const notes: unknown[] = [];
  hub.registerClient({
    label: "stdio",
    clientName: () => "test",
    sessions: { list: () => [session] } as never,
    notify: (_level, data) => {
      notes.push(data);
      return Promise.resolve();
    },
  });
  installHumanAsks(hub);
  installHumanAsks(hub); // once per hub: a second install is a no-op
  return { hub, session, notes };
}

const take = (s: BrowserSession) => s.between.take({ indexOf: () => -1, active: undefined });

Deno.test("human asks: unattended at once without a viewer or a shown browser", async () => {
  const { session } = setUp();
  const e = await assertRejects(
    () => askHuman(session, { instruction: "Log in" }, { serverHeadful: false }),
    ToolError,
  );
  assertEquals(e.code, "unattended");
  assertIncludes(e.hint, "--console");
  assertIncludes(e.hint, "headful: true");
  assertEquals(session.human.asks, []);
});

Deno.test("human asks: shown until done; the client is told and the next result carries it once", async () => {
  const { hub, session, notes } = setUp();
  session.human.addViewer(1);
  const ask = await askHuman(session, { instruction: "Solve the CAPTCHA" }, {
    serverHeadful: false,
  });
  assertEquals(ask.status, "awaiting_user");
  const shown = hub.state().asks as AskView[];
  assertEquals(shown.map((a) => [a.id, a.client, a.session, a.status]), [
    [ask.id, "stdio", "default", "awaiting_user"],
  ]);
  assertEquals(take(session), undefined, "no news before it is done");
  const reply = await hub.handle({ type: "ask-done", id: ask.id }, viewer);
  assertEquals(reply, { type: "ask-done", id: ask.id });
  assertEquals((hub.state().asks as AskView[])[0]!.status, "done");
  assertEquals(notes, [{
    event: "ask-done",
    session: "default",
    ask: ask.id,
    instruction: "Solve the CAPTCHA",
  }]);
  assertEquals(take(session)?.asksDone, [{ id: ask.id, instruction: "Solve the CAPTCHA" }]);
  assertEquals(take(session), undefined, "carried once");
  // Done already, unknown, missing: error replies.
  for (
    const [m, error] of [
      [{ type: "ask-done", id: ask.id }, "no pending ask"],
      [{ type: "ask-done", id: "a999" }, "no pending ask"],
      [{ type: "ask-done" }, 'missing "id"'],
    ] as const
  ) {
    const r = await hub.handle(m, viewer);
    assertEquals(r?.type, "error");
    assertIncludes(String(r?.error), error);
  }
});

Deno.test("human asks: a shown browser is attended; highlights are listed per session", async () => {
  const { hub, session } = setUp(true);
  const ask = await askHuman(session, { instruction: "Pay" }, { serverHeadful: false });
  assertEquals(ask.status, "awaiting_user");
  session.human.highlights.push({ ref: "e3", note: "this one", created: 1 });
  assertEquals(
    (hub.state().highlights as HighlightView[]).map((h) => [h.client, h.session, h.ref, h.note]),
    [["stdio", "default", "e3", "this one"]],
  );
});
