import { assertEquals, assertTrue } from "../../tests/_assert.ts";
import type { CdpSession } from "../../cdp/connection.ts";
import type { Page } from "../../cdp/page.ts";
import { callOnHandle, callUtility, type RemoteHandle, withSignal } from "./mod.ts";

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
