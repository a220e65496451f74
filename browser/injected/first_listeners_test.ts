/**
 * The first listeners' script and the library's side of it, run in Deno's own global (an
 * EventTarget, as a window is): subscribers run in order, one that throws does not keep the
 * event from the others, a type the script does not listen for falls back to a plain listener,
 * and a second run of the script keeps the first hub.
 */
import { assertEquals, assertIncludes, assertTrue } from "../../tests/_assert.ts";
import { FIRST_HUB, FIRST_LISTENERS_SOURCE, installFirstLib } from "./first_listeners.ts";
import { installHitLib } from "./hit_lib.ts";
import type { PageApi } from "./page_api.ts";

Deno.test("first listeners: subscribers in order, isolated failures, fallback, one hub", () => {
  // The hub cannot be removed (not configurable, as in a page): this file's only such test.
  const g = globalThis as unknown as Record<string, unknown>;
  new Function(FIRST_LISTENERS_SOURCE)();
  const hub = g[FIRST_HUB];
  assertTrue(hub !== undefined, "the hub is defined");
  new Function(FIRST_LISTENERS_SOURCE)();
  assertTrue(g[FIRST_HUB] === hub, "a second run keeps the first hub");
  const api = {} as PageApi;
  installFirstLib(api);
  const seen: string[] = [];
  const a = () => seen.push("a");
  api.onFirst("click", a);
  api.onFirst("click", () => {
    throw new Error("a check failing");
  });
  api.onFirst("click", () => seen.push("c"));
  // Not one of the script's types: an ordinary capture listener.
  const other = () => seen.push("other");
  api.onFirst("browxai-test", other);
  dispatchEvent(new Event("click"));
  dispatchEvent(new Event("browxai-test"));
  assertEquals(seen, ["a", "c", "other"]);
  api.offFirst("click", a);
  api.offFirst("browxai-test", other);
  dispatchEvent(new Event("click"));
  dispatchEvent(new Event("browxai-test"));
  assertEquals(seen, ["a", "c", "other", "c"]);
});

Deno.test("first listeners: the library's parts name the hub the script defines", () => {
  // Parts are sent as source text: they name the hub by its string, not by the constant.
  assertIncludes(installFirstLib.toString(), FIRST_HUB);
  // The press guard subscribes through the api (so through the hub).
  assertIncludes(installHitLib.toString(), "api.onFirst(");
});
