import { assertEquals, assertTrue } from "../../tests/_assert.ts";
import { eventually } from "../../tests/_util.ts";
import { HumanState } from "../../browser/sessions/human_state.ts";
import { PageLogs } from "../../browser/sessions/page_logs.ts";
import type { SessionManager } from "../../browser/sessions/session_manager.ts";
import { ConsoleHub } from "./hub.ts";
import { LiveSockets } from "./live_socket.ts";

type Handler = (params: unknown, session: unknown) => void;

/** A tab whose screencast events the test fires. */
function fakePage() {
  const handlers = new Set<{ name: string; fn: Handler }>();
  const session = {};
  const page = {
    target: { targetId: "T1", title: "t" },
    session,
    isClosed: false,
    crashed: false,
    url: "http://x/",
    onEvent(name: string, fn: Handler) {
      const h = { name, fn };
      handlers.add(h);
      return () => handlers.delete(h);
    },
    send: () => Promise.resolve({}),
  };
  const frame = (n: number) => {
    for (const h of [...handlers]) {
      if (h.name === "Page.screencastFrame") {
        h.fn({
          data: `jpeg${n}`,
          sessionId: n,
          metadata: { deviceWidth: 800, deviceHeight: 600, offsetTop: 0 },
        }, session);
      }
    }
  };
  return { page, frame };
}

/** A socket as Deno.upgradeWebSocket gives it, recording what is sent. */
function fakeSocket() {
  const sock = {
    readyState: WebSocket.OPEN as number,
    bufferedAmount: 0,
    sent: [] as Array<Record<string, unknown>>,
    send(text: string) {
      sock.sent.push(JSON.parse(text));
    },
    close() {
      sock.readyState = WebSocket.CLOSED;
      sock.onclose?.();
    },
    onopen: undefined as undefined | (() => void),
    onmessage: undefined as undefined | ((e: { data: unknown }) => void),
    onclose: undefined as undefined | (() => void),
    onerror: undefined as undefined | (() => void),
  };
  return sock;
}

function setup() {
  const hub = new ConsoleHub();
  const { page, frame } = fakePage();
  const closing = new AbortController();
  const session = {
    id: "default",
    mode: "incognito",
    human: new HumanState(),
    logs: new PageLogs(),
    activePage: page,
    tabs: [page],
    closed: false,
    acting: false,
    closedSignal: closing.signal,
  };
  hub.registerClient({
    label: "stdio",
    clientName: () => "test",
    sessions: { list: () => [session] } as unknown as SessionManager,
    notify: () => Promise.resolve(),
  });
  const live = new LiveSockets(hub, { mask: (t) => t, sessions: () => [] });
  const sock = fakeSocket();
  live.accept(sock as unknown as WebSocket);
  sock.onopen?.();
  const say = (m: unknown) => sock.onmessage?.({ data: JSON.stringify(m) });
  const frames = () => sock.sent.filter((m) => m.type === "frame").map((m) => m.data);
  return { hub, live, sock, session, frame, say, frames, close: () => closing.abort() };
}

Deno.test("live socket: a watcher gets frames; a backlogged one gets only the latest once drained", async () => {
  const t = setup();
  t.say({ type: "watch", session: { client: "stdio", session: "default" }, maxWidth: 800 });
  await eventually(() => t.sock.sent.some((m) => m.type === "watching"), 2000, "watching");
  assertEquals(t.session.human.viewers, 1);
  t.frame(1);
  assertEquals(t.frames(), ["jpeg1"]);
  t.sock.bufferedAmount = 10 * 1024 * 1024;
  t.frame(2);
  t.frame(3);
  t.frame(4);
  assertEquals(t.frames(), ["jpeg1"]);
  t.sock.bufferedAmount = 0;
  await eventually(() => t.frames().length === 2, 2000, "the held frame");
  assertEquals(t.frames(), ["jpeg1", "jpeg4"]);
  const f = t.sock.sent.find((m) => m.type === "frame")!;
  assertEquals(f.session, { client: "stdio", session: "default" });
  assertTrue(typeof f.metadata === "object");
  // Leaving: the session is no longer watched.
  t.sock.close();
  assertEquals(t.session.human.viewers, 0);
  assertEquals(t.hub.viewerCount, 0);
  t.live.close();
  t.close();
});

Deno.test("live socket: watch null stops the frames and the session's viewer count", async () => {
  const t = setup();
  t.say({ type: "watch", session: { client: "stdio", session: "default" } });
  await eventually(() => t.session.human.viewers === 1, 2000, "one viewer");
  t.say({ type: "watch", session: null });
  await eventually(() => t.session.human.viewers === 0, 2000, "no viewer");
  t.frame(1);
  assertEquals(t.frames(), []);
  t.live.close();
  t.close();
});

Deno.test("live socket: a state provider that throws is logged, never thrown out of the socket's handlers", async () => {
  const t = setup();
  t.hub.addStateProvider("broken", () => {
    throw new Error("boom");
  });
  const logged: unknown[] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => logged.push(args);
  try {
    const sock = fakeSocket();
    t.live.accept(sock as unknown as WebSocket);
    sock.onopen?.(); // the first state: logged
    t.hub.changed("x"); // a coalesced push: logged
    await eventually(() => logged.length >= 2, 2000, "both failures logged");
    sock.onmessage?.({ data: '{"type":"nope"}' });
    await eventually(() => sock.sent.some((m) => m.type === "error"), 2000, "an answer");
    assertEquals(sock.readyState, WebSocket.OPEN);
  } finally {
    console.error = error;
    t.live.close();
    t.close();
  }
});

Deno.test("live socket: a viewer that does not read gets no queue of states, only the latest once drained", async () => {
  const t = setup();
  const states = () => t.sock.sent.filter((m) => m.type === "state");
  let n = 0;
  t.hub.addStateProvider("n", () => n);
  await eventually(() => states().length >= 1, 2000, "the first state");
  const before = states().length;
  // The socket stops draining (the viewer does not read): changes keep coming, each its own
  // coalesced push (the next change is made once the push looked at the socket).
  let backlog = 10 * 1024 * 1024, looks = 0;
  Object.defineProperty(t.sock, "bufferedAmount", {
    get: () => (looks++, backlog),
  });
  for (n = 1; n <= 5; n++) {
    const seen = looks;
    t.hub.changed("n");
    const sent = states().length;
    await eventually(() => looks > seen || states().length > sent, 2000, "the push");
  }
  assertEquals(states().length, before);
  backlog = 0;
  await eventually(() => states().length === before + 1, 2000, "the latest state");
  assertEquals((states().at(-1)!.state as Record<string, unknown>).n, 6);
  t.live.close();
  t.close();
});
