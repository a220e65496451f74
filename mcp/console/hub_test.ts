import { assertEquals } from "../../tests/_assert.ts";
import { ConsoleHub } from "./hub.ts";
import type { SessionManager } from "../../browser/sessions/session_manager.ts";

const noSessions = { list: () => [] } as unknown as SessionManager;

Deno.test("hub: clients get labels, and removal says so", () => {
  const hub = new ConsoleHub();
  const changes: string[] = [];
  hub.addEventListener("change", (e) => changes.push((e as CustomEvent<string>).detail));
  const a = hub.registerClient({
    label: "stdio",
    clientName: () => "x",
    sessions: noSessions,
    notify: async () => {},
  });
  const b = hub.registerClient({
    clientName: () => undefined,
    sessions: noSessions,
    notify: async () => {},
  });
  assertEquals([a.label, b.label], ["stdio", "c1"]);
  assertEquals(hub.clients().map((c) => c.label), ["stdio", "c1"]);
  b.remove();
  b.remove();
  assertEquals(hub.clients().map((c) => c.label), ["stdio"]);
  assertEquals(changes, ["sessions", "sessions", "sessions"]);
});

Deno.test("hub: state composes providers; messages dispatch; unknown types and throws are errors", async () => {
  const hub = new ConsoleHub();
  hub.addStateProvider("n", () => 1);
  hub.addStateProvider("s", () => ["a"]);
  assertEquals(hub.state(), { n: 1, s: ["a"] });
  hub.onMessage("ping", (m) => ({ type: "pong", echo: m.x }));
  hub.onMessage("boom", () => {
    throw new Error("broke");
  });
  const viewer = { id: 1, send: () => {} };
  assertEquals(await hub.handle({ type: "ping", x: 2 }, viewer), { type: "pong", echo: 2 });
  assertEquals(await hub.handle({ type: "boom" }, viewer), { type: "error", error: "broke" });
  assertEquals(await hub.handle({ type: "nope" }, viewer), {
    type: "error",
    error: 'unknown message type "nope"',
  });
});

Deno.test("hub: activity keeps the last entries in order, read since a seq", () => {
  const hub = new ConsoleHub();
  for (let i = 0; i < 502; i++) {
    hub.recordCall({ time: i, client: "stdio", tool: "t", args: {}, ok: true, summary: "", ms: 1 });
  }
  const all = hub.activity();
  assertEquals(all.length, 500);
  assertEquals(all[0]!.seq, 3);
  assertEquals(hub.activity(501).map((e) => e.seq), [502]);
});
