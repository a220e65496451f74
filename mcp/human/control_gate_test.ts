import { assertEquals } from "../../tests/_assert.ts";
import { ALL_TOOLS } from "../../tools/mod.ts";
import type { SessionManager } from "../../browser/sessions/session_manager.ts";
import { HumanState } from "../../browser/sessions/human_state.ts";
import { humanControlRefusal, mutates, stopOnTakeover } from "./control_gate.ts";

Deno.test("control gate: what counts as a mutation, from annotations and capability", () => {
  const byName = new Map(ALL_TOOLS.map((t) => [t.name, t]));
  const kept = (names: string[]) => names.filter((n) => mutates(byName.get(n)!));
  // Reads, the human tools, and tools that only run other calls go through.
  assertEquals(
    kept([
      "snapshot",
      "find",
      "text_search",
      "get_url",
      "console_read",
      "screenshot",
      "wait_for",
      "downloads_list",
      "picked",
      "takeover",
      "release",
      "batch",
      "execute",
      "flake_check",
      "dump_storage_state",
    ]),
    [],
  );
  // Anything that acts on a page or a session's state is refused.
  const acting = [
    "click",
    "fill",
    "type",
    "press",
    "navigate",
    "reload",
    "tabs",
    "scroll",
    "eval_js",
    "cookies_set",
    "close_session",
    "set_viewport",
    "upload_file",
    "drag",
    "mouse",
  ];
  assertEquals(kept(acting), acting);
});

Deno.test("control gate: refuses only a mutation of a session a person controls", () => {
  const human = new HumanState();
  const sessions = { list: () => [{ id: "a", human }] } as unknown as SessionManager;
  const click = ALL_TOOLS.find((t) => t.name === "click")!;
  const snapshot = ALL_TOOLS.find((t) => t.name === "snapshot")!;
  assertEquals(humanControlRefusal(click, "a", sessions), undefined);
  human.setControl("human", "2FA");
  const refusal = humanControlRefusal(click, "a", sessions)!;
  assertEquals(refusal.code, "human-has-control");
  assertEquals(refusal.message.includes("(2FA)"), true);
  assertEquals(humanControlRefusal(snapshot, "a", sessions), undefined);
  assertEquals(humanControlRefusal(click, "b", sessions), undefined);
  assertEquals(humanControlRefusal(click, undefined, sessions), undefined);
});

Deno.test("control gate: a takeover between the gate and the handler's start stops the call", () => {
  // The pipeline checks humanControlRefusal, then awaits the audit's start line, then calls
  // stopOnTakeover: a person who took control in that gap must not be acted under.
  const human = new HumanState();
  const sessions = { list: () => [{ id: "a", human }] } as unknown as SessionManager;
  const click = ALL_TOOLS.find((t) => t.name === "click")!;
  assertEquals(humanControlRefusal(click, "a", sessions), undefined);
  human.setControl("human", "taken over in the console");
  const stopped: string[] = [];
  const off = stopOnTakeover(click, "a", sessions, (e) => stopped.push(e.code));
  off();
  assertEquals(stopped, ["human-has-control"]);
  // A read is never stopped.
  const snapshot = ALL_TOOLS.find((t) => t.name === "snapshot")!;
  stopOnTakeover(snapshot, "a", sessions, (e) => stopped.push(e.code))();
  assertEquals(stopped, ["human-has-control"]);
});
