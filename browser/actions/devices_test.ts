import { assertEquals, assertRejects } from "../../tests/_assert.ts";
import { TargetClosedError } from "../../cdp/errors.ts";
import { inputTaken } from "./devices.ts";

Deno.test("inputTaken: an event whose reply was lost with the tab counts as taken", async () => {
  // Sent, then the tab closed (a Close button's window.close()): the page took the input.
  assertEquals(
    await inputTaken(Promise.reject(new TargetClosedError("Target closed", { sent: true }))),
    undefined,
  );
  assertEquals(await inputTaken(Promise.resolve({})), undefined);
});

Deno.test("inputTaken: an event refused before it was sent still fails", async () => {
  await assertRejects(
    () => inputTaken(Promise.reject(new TargetClosedError('Cannot send "x": target closed'))),
    TargetClosedError,
  );
  await assertRejects(() => inputTaken(Promise.reject(new RangeError("bad button"))), RangeError);
});
