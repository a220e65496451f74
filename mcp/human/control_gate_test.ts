import { assertEquals } from "../../tests/_assert.ts";
import { ALL_TOOLS } from "../../tools/mod.ts";
import type { SessionManager } from "../../browser/sessions/session_manager.ts";
import { HumanState } from "../../browser/sessions/human_state.ts";
import type { Toolset } from "../../policy/toolsets.ts";
import type { Capability } from "../../policy/capabilities.ts";
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

/** A configuration with `toolsets` (the default capabilities, plus `human`). */
function config(toolsets: Toolset[]) {
  return {
    headful: false,
    toolsets: new Set(toolsets),
    capabilities: new Set<Capability>(["read", "navigation", "action", "human"]),
  };
}

Deno.test("control gate: refuses only a mutation of a session a person controls", () => {
  const human = new HumanState();
  const sessions = { list: () => [{ id: "a", human }] } as unknown as SessionManager;
  const click = ALL_TOOLS.find((t) => t.name === "click")!;
  const snapshot = ALL_TOOLS.find((t) => t.name === "snapshot")!;
  const cfg = config(["core", "sessions", "debug"]);
  assertEquals(humanControlRefusal(click, "a", sessions, cfg), undefined);
  human.setControl("human", "2FA");
  const refusal = humanControlRefusal(click, "a", sessions, cfg)!;
  assertEquals(refusal.code, "human-has-control");
  assertEquals(refusal.message.includes("(2FA)"), true);
  assertEquals(humanControlRefusal(snapshot, "a", sessions, cfg), undefined);
  assertEquals(humanControlRefusal(click, "b", sessions, cfg), undefined);
  assertEquals(humanControlRefusal(click, undefined, sessions, cfg), undefined);
});

Deno.test("control gate: the refusal's hint names release() only when it is enabled", () => {
  const human = new HumanState();
  const sessions = { list: () => [{ id: "a", human }] } as unknown as SessionManager;
  const click = ALL_TOOLS.find((t) => t.name === "click")!;
  human.setControl("human", "taken over in the console");
  // Nobody watches (headless, no viewer): control comes back by itself; call again then.
  const lean = humanControlRefusal(click, "a", sessions, config(["core", "sessions", "debug"]))!;
  assertEquals(lean.hint.includes("release"), false);
  assertEquals(lean.hint.includes("call again"), true);
  assertEquals(lean.details.retryAfterMs, 5000);
  const withHuman = humanControlRefusal(click, "a", sessions, config(["core", "human"]))!;
  assertEquals(withHuman.hint.includes("call release() to ask them"), true);
  // Someone watches: the person holds the tab; no promise of a time.
  human.addViewer(1);
  const watched = humanControlRefusal(click, "a", sessions, config(["core"]))!;
  assertEquals(watched.hint.includes("the person holds the tab: wait and call again"), true);
  assertEquals(watched.details.retryAfterMs, undefined);
});

Deno.test("control gate: a takeover between the gate and the handler's start stops the call", () => {
  // The pipeline checks humanControlRefusal, then awaits the audit's start line, then calls
  // stopOnTakeover: a person who took control in that gap must not be acted under.
  const human = new HumanState();
  const sessions = { list: () => [{ id: "a", human }] } as unknown as SessionManager;
  const click = ALL_TOOLS.find((t) => t.name === "click")!;
  assertEquals(humanControlRefusal(click, "a", sessions, config(["core"])), undefined);
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
