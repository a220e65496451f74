import { assertEquals, assertTrue } from "../../tests/_assert.ts";
import type { CdpSession } from "../../cdp/connection.ts";
import type { Page } from "../../cdp/page.ts";
import {
  callOnHandle,
  callUtility,
  preinstallLibrary,
  type RemoteHandle,
  withSignal,
} from "./mod.ts";

/** A fake CDP session that answers every call with `value` and keeps the options sent. */
function recordingSession(value: unknown) {
  const options: Array<{ signal?: AbortSignal | undefined } | undefined> = [];
  const session = {
    send(_method: string, _params: unknown, o?: { signal?: AbortSignal }) {
      options.push(o);
      return Promise.resolve({ result: { value } });
    },
  } as unknown as CdpSession;
  return { session, options };
}

Deno.test("withSignal: binds a handle's page calls to the call's signal; none keeps the handle", async () => {
  const { session, options } = recordingSession({ state: "ok" });
  const handle: RemoteHandle = { session, frameId: "F", objectId: "O1" };
  assertTrue(withSignal(handle, undefined) === handle, "no signal: the same handle");
  const signal = new AbortController().signal;
  const bound = withSignal(handle, signal);
  assertEquals(handle.signal, undefined, "the handle given is not changed");
  await callOnHandle(bound, "probe", [{}]);
  await callOnHandle(handle, "probe", [{}]);
  assertTrue(options[0]?.signal === signal, "the signal was sent with the call");
  assertEquals(options[1]?.signal, undefined);
});

Deno.test("callUtility: the call's signal goes with the page call", async () => {
  const { session, options } = recordingSession(true);
  const page = {
    utilityContext: () => Promise.resolve({ session, contextId: 1 }),
  } as unknown as Page;
  const signal = new AbortController().signal;
  assertEquals(await callUtility(page, "F", "hasText", ["x"], { signal }), true);
  assertTrue(options[0]?.signal === signal, "the signal was sent with the call");
});

/** What a fake session keeps of a command: the text sent, and the arguments of a function. */
function textOf(
  params: { expression?: string; functionDeclaration?: string; arguments?: unknown },
) {
  return params.expression ?? `${params.functionDeclaration} ${JSON.stringify(params.arguments)}`;
}

/** A fake page whose utility world is `world`; its session records each text sent. */
function pageWithWorld(world: { fresh: boolean; marks: Set<string> }, answers: unknown[]) {
  const expressions: string[] = [];
  const methods: string[] = [];
  const session = {
    send(method: string, params: { expression?: string; functionDeclaration?: string }) {
      methods.push(method);
      expressions.push(textOf(params));
      return Promise.resolve({ result: { value: answers.shift() } });
    },
  } as unknown as CdpSession;
  const page = {
    utilityContext: () =>
      Promise.resolve({ session, contextId: 1, world: { contextId: 1, ...world } }),
  } as unknown as Page;
  return { page, expressions, methods };
}

Deno.test("callUtility: a world made here gets the library with the first call, in one command", async () => {
  const world = { fresh: true, marks: new Set<string>() };
  const { page, expressions, methods } = pageWithWorld(world, [true, false]);
  assertEquals(await callUtility(page, "F", "hasText", ["x"]), true);
  assertEquals(expressions.length, 1, "no probe, no retry");
  assertEquals(methods[0], "Runtime.callFunctionOn");
  assertTrue(expressions[0]!.includes('Object.defineProperty(globalThis, "__browxai"'));
  assertTrue(expressions[0]!.includes('[{"value":"hasText"},{"value":["x"]}]'), "the call's args");
  // The world is marked: the next call is the short guarded one.
  assertEquals(await callUtility(page, "F", "hasText", ["y"]), false);
  assertEquals(expressions.length, 2);
  assertTrue(!expressions[1]!.includes("defineProperty"), "the library is not sent again");
});

Deno.test("callUtility: a world only seen in an event is probed first, then given the library with the call", async () => {
  const world = { fresh: false, marks: new Set<string>() };
  const { page, expressions } = pageWithWorld(world, ["__browxai_missing__", true, true]);
  assertEquals(await callUtility(page, "F", "hasText", ["x"]), true);
  assertEquals(expressions.length, 2, "probe, install and call");
  assertTrue(expressions[1]!.includes("defineProperty"));
  assertTrue(world.marks.size > 0, "the world is marked");
});

Deno.test("callUtility: the same install text goes with every call (compiled once per renderer)", async () => {
  const texts: string[] = [];
  for (const [method, args] of [["hasText", ["x"]], ["pageText", []]] as const) {
    const { page, expressions } = pageWithWorld({ fresh: true, marks: new Set() }, [1]);
    await callUtility(page, "F", method, args as never);
    texts.push(expressions[0]!.slice(0, expressions[0]!.lastIndexOf(" [")));
  }
  assertEquals(texts[0], texts[1]);
});

Deno.test("callUtility: a world given the core gets an on-demand group with its first call, once", async () => {
  const world = { fresh: false, marks: new Set<string>(["browxai:core"]) };
  const { page, expressions, methods } = pageWithWorld(world, [["x"], ["y"]]);
  assertEquals(await callUtility(page, "F", "formsSendTo"), ["x"]);
  assertEquals(expressions.length, 1, "no probe: the group goes with the call");
  assertEquals(methods[0], "Runtime.callFunctionOn");
  assertTrue(expressions[0]!.includes('"__forms"'), "the group was sent");
  assertTrue(expressions[0]!.includes('"__act"'), "with the group it needs");
  assertTrue(!expressions[0]!.includes('defineProperty(globalThis, "__browxai"'), "not the core");
  assertEquals(await callUtility(page, "F", "formsSendTo"), ["y"]);
  assertTrue(expressions[1]!.length < 500, "the group is not sent again");
});

Deno.test("callUtility: a group whose needed group went to the world is sent without it", async () => {
  const world = { fresh: false, marks: new Set<string>(["browxai:core", "browxai:__act"]) };
  const { page, expressions } = pageWithWorld(world, [["x"]]);
  assertEquals(await callUtility(page, "F", "formsSendTo"), ["x"]);
  assertTrue(expressions[0]!.includes('"__forms"'), "the group was sent");
  assertTrue(!expressions[0]!.includes('(api, "__act"'), "not the acting group again");
});

Deno.test("callUtility: a world seen with the core but not a group is probed, then given the group", async () => {
  const world = { fresh: false, marks: new Set<string>() };
  const { page, expressions } = pageWithWorld(world, ["__browxai_missing_group__", ["x"]]);
  assertEquals(await callUtility(page, "F", "formsSendTo"), ["x"]);
  assertEquals(expressions.length, 2, "probe, install and call");
  assertTrue(expressions[1]!.includes('"__forms"'), "the group was sent");
  assertTrue(!expressions[1]!.includes('defineProperty(globalThis, "__browxai"'), "not the core");
});

Deno.test("callOnHandle: a handle of a known world carries a missing group with its first call", async () => {
  const sent: Array<{ functionDeclaration: string }> = [];
  const session = {
    send(_method: string, params: { functionDeclaration: string }) {
      sent.push(params);
      return Promise.resolve({ result: { value: { form: false } } });
    },
  } as unknown as CdpSession;
  const marks = new Set<string>(["browxai:core"]);
  const handle: RemoteHandle = { session, frameId: "F", objectId: "O", marks };
  await callOnHandle(handle, "formWatchSubmit");
  await callOnHandle(handle, "formSubmitState");
  await callOnHandle(handle, "probe", [{}]);
  assertEquals(sent.length, 3, "no probes");
  assertTrue(sent[0]!.functionDeclaration.includes('"__forms"'), "the group went first");
  assertTrue(sent[1]!.functionDeclaration.length < 500, "once");
  assertTrue(sent[2]!.functionDeclaration.length < 500, "the acting group came with the forms");
  // An unknown world is probed first.
  const unknown: RemoteHandle = { session, frameId: "F", objectId: "O" };
  await callOnHandle(unknown, "formSubmitState");
  assertTrue(sent[3]!.functionDeclaration.includes("__browxai_missing__"), "a probe");
});

Deno.test("preinstallLibrary: the library goes once; a call that follows probes for it", async () => {
  const sent: string[] = [];
  const session = {
    send(_method: string, params: { expression?: string; functionDeclaration?: string }) {
      sent.push(textOf(params));
      return Promise.resolve({ result: { value: 7 } });
    },
  } as unknown as CdpSession;
  const world = { contextId: 1, fresh: true, marks: new Set<string>() };
  const page = {
    mainFrameId: "F",
    utilityContext: () => Promise.resolve({ session, contextId: 1, world }),
  } as unknown as Page;
  preinstallLibrary(page);
  assertEquals(await callUtility(page, "F", "generation"), 7);
  assertEquals(sent.length, 2);
  assertTrue(sent[0]!.includes("globalThis.__browxai || "), "the install went first");
  assertTrue(sent[1]!.length < 500, `the call did not send the library again (${sent[1]!.length})`);
  // A world that has it already gets nothing more.
  preinstallLibrary(page);
  for (let i = 0; i < 10; i++) await Promise.resolve(); // its page calls would be sent by now
  assertEquals(sent.length, 2);
});
