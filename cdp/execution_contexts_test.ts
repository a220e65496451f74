import { assertEquals, assertTrue } from "../tests/_assert.ts";
import type { CdpSession } from "./connection.ts";
import { ExecutionContexts, UTILITY_WORLD } from "./execution_contexts.ts";
import type { FrameInfo } from "./frame_tree.ts";

/** A frame whose session answers Page.createIsolatedWorld with `contextId`, after `before()`. */
function frameAnswering(contextId: number, before: () => void = () => {}) {
  let calls = 0;
  const session = {
    id: "S",
    send(method: string) {
      calls++;
      assertEquals(method, "Page.createIsolatedWorld");
      before();
      return Promise.resolve({ executionContextId: contextId });
    },
  } as unknown as CdpSession;
  const frame = { frameId: "F", session } as FrameInfo;
  return { frame, session, calls: () => calls };
}

function created(contexts: ExecutionContexts, session: CdpSession, id: number) {
  contexts.apply("Runtime.executionContextCreated", {
    context: {
      id,
      origin: "",
      name: UTILITY_WORLD,
      uniqueId: `u${id}`,
      auxData: { frameId: "F", isDefault: false },
    },
  }, session);
}

Deno.test("ExecutionContexts.utility: a world made here is created once, marked created here, and keeps its marks", async () => {
  const contexts = new ExecutionContexts();
  const { frame, calls } = frameAnswering(7);
  contexts.addSession("S");
  const [a, b] = await Promise.all([contexts.utility(frame), contexts.utility(frame)]);
  assertEquals(calls(), 1, "one Page.createIsolatedWorld for callers asking together");
  assertTrue(a === b);
  assertEquals(a.contextId, 7);
  assertEquals(a.fresh, true);
  a.marks.add("lib");
  assertTrue((await contexts.utility(frame)).marks.has("lib"), "the known world, marks kept");
});

Deno.test("ExecutionContexts.utility: the creation event before the reply is the same world; another context is a new one", async () => {
  const contexts = new ExecutionContexts();
  contexts.addSession("S");
  // Chromium sends executionContextCreated before the reply to createIsolatedWorld.
  const fake = frameAnswering(7, () => created(contexts, fake.session, 7));
  const world = await contexts.utility(fake.frame);
  assertEquals(world.fresh, true);
  world.marks.add("lib");
  created(contexts, fake.session, 7); // the same context seen again: nothing changes
  assertTrue(await contexts.utility(fake.frame) === world);
  created(contexts, fake.session, 9); // a new world in the frame: no marks, not made here
  const next = await contexts.utility(fake.frame);
  assertEquals(next.contextId, 9);
  assertEquals(next.fresh, false);
  assertEquals(next.marks.size, 0);
  assertEquals(fake.calls(), 1);
});

Deno.test("ExecutionContexts.utility: a world reported after the session's Runtime.enable answered is fresh; one reported before is not", async () => {
  const contexts = new ExecutionContexts();
  const { frame, session, calls } = frameAnswering(99);
  contexts.addSession("S");
  created(contexts, session, 3); // reported by Runtime.enable: it existed (an attached tab)
  assertEquals((await contexts.utility(frame)).fresh, false);
  contexts.enabled("S");
  created(contexts, session, 4); // a new document's world, made by its start script
  const world = await contexts.utility(frame);
  assertEquals([world.contextId, world.fresh], [4, true]);
  assertEquals(calls(), 0, "a known world: no Page.createIsolatedWorld");
  contexts.dropSession("S");
  contexts.addSession("S");
  created(contexts, session, 5); // the session attached again: reported by its Runtime.enable
  assertEquals((await contexts.utility(frame)).fresh, false);
});
