/**
 * The `live` prop's coordinate mapping (ui/src/live.js): the console's pointer over the live
 * image ↔ CSS px in the page's viewport, which pick, highlight and takeover panels rely on.
 *
 * @module
 */
import { assertEquals } from "./_assert.ts";
// @ts-types="./_ui_live.d.ts"
import { makeLive } from "../ui/src/live.js";

/** An <img> 640×400 px drawn at (100, 50) in the console's window. */
const img = {
  clientWidth: 640,
  clientHeight: 400,
  getBoundingClientRect: () => ({ left: 100, top: 50, width: 640, height: 400 }),
};
const metadata = { deviceWidth: 1280, deviceHeight: 800, offsetTop: 0, pageScaleFactor: 1 };

Deno.test("ui live: toPage maps the window to page CSS px, toView back; outside or before a frame: null", () => {
  const live = makeLive(img, metadata);
  assertEquals(live.toPage(100, 50), { x: 0, y: 0 });
  assertEquals(live.toPage(420, 250), { x: 640, y: 400 });
  assertEquals(live.toPage(740, 450), { x: 1280, y: 800 });
  assertEquals(live.toPage(99, 60), null);
  assertEquals(live.toPage(300, 451), null);
  assertEquals(live.toView(640, 400), { left: 320, top: 200 });
  assertEquals(live.scale, 0.5);
  const none = makeLive(null, null);
  assertEquals(none.toPage(1, 1), null);
  assertEquals(none.toView(1, 1), null);
  assertEquals(none.scale, null);
});
