import { assertEquals } from "../tests/_assert.ts";
import { ProtocolError, TimeoutError } from "../cdp/errors.ts";
import type { CdpSession } from "../cdp/connection.ts";
import { stopBusyScript } from "./stuck_script.ts";

/** A fake session: answers the probe as told and logs every method sent. */
function fakeSession(probe: "answers" | "times out" | "refused") {
  const sent: string[] = [];
  const session = {
    send(method: string) {
      sent.push(method);
      if (method !== "Runtime.evaluate" || probe === "answers") return Promise.resolve({});
      return Promise.reject(
        probe === "times out"
          ? new TimeoutError(`Timed out after 500 ms: "${method}"`)
          : new ProtocolError(method, -32000, "Cannot find context with specified id"),
      );
    },
  } as unknown as Pick<CdpSession, "send">;
  return { session, sent };
}

Deno.test("stopBusyScript: a busy main thread (no answer to the probe) is terminated", async () => {
  const { session, sent } = fakeSession("times out");
  assertEquals(await stopBusyScript(session), true);
  assertEquals(sent, ["Runtime.evaluate", "Runtime.terminateExecution"]);
});

Deno.test("stopBusyScript: a free thread, or a target that refuses, is left alone", async () => {
  // Terminating with nothing running would kill the next script (the page's or ours).
  for (const probe of ["answers", "refused"] as const) {
    const { session, sent } = fakeSession(probe);
    assertEquals(await stopBusyScript(session), false, probe);
    assertEquals(sent, ["Runtime.evaluate"], probe);
  }
});
