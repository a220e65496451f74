import { assertEquals } from "../../tests/_assert.ts";
import { BrowserSession } from "./browser_session.ts";
import { SessionSlot, SessionSlots } from "./session_slots.ts";

const COUNT = new SessionSlot<number>("count");
const NAME = new SessionSlot<string>("name");

Deno.test("SessionSlots: typed values by slot, deleted one by one or all at once", () => {
  const slots = new SessionSlots();
  assertEquals(slots.get(COUNT), undefined);
  slots.set(COUNT, 2);
  slots.set(NAME, "a");
  assertEquals([slots.get(COUNT), slots.get(NAME)], [2, "a"]);
  assertEquals(slots.names(), ["count", "name"]);
  slots.delete(COUNT);
  assertEquals([slots.get(COUNT), slots.names()], [undefined, ["name"]]);
  slots.clear();
  assertEquals(slots.names(), []);
});

Deno.test("BrowserSession.close drops the session's slots", async () => {
  // A fake browser the session lets go of (owned, and neither context nor browser its own).
  const routed = {
    router: { claim: () => [], release: () => {} },
    browser: { closed: new Promise(() => {}), owned: true },
  };
  const session = new BrowserSession({
    id: "s",
    mode: "incognito",
    routed: routed as never,
    browserContextId: "ctx",
    ownsContext: false,
    ownsBrowser: false,
  });
  session.slots.set(COUNT, 1);
  assertEquals(session.slots.names(), ["count"]);
  assertEquals(await session.close(), true);
  assertEquals([session.slots.get(COUNT), session.slots.names()], [undefined, []]);
});
