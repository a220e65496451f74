import { assertEquals, assertIncludes } from "../../tests/_assert.ts";
import { ToolError } from "../tool_error.ts";
import { ActionResultBuilder } from "./result_builder.ts";
import { QUIET_URL, quietFacts } from "../../tests/_fake_session.ts";

const FROM = QUIET_URL;

Deno.test("builder: a quiet click on a ref, in seed 000's key order", () => {
  const b = new ActionResultBuilder("click");
  b.target = { kind: "element", ref: "e4" };
  const r = b.build({
    ...quietFacts(),
    element: { stillAttached: true, focused: true, displayText: "More options" },
    delta: {
      delta: { mode: "delta", scope: "changed", tree: "+ - button", truncated: false },
      appeared: [{ role: "dialog", name: "Confirm" }],
      removed: [],
    },
  });
  assertEquals(r, {
    ok: true,
    action: { type: "click", ref: "e4" },
    navigation: { changed: false, from: FROM, to: FROM, kind: null },
    structure: { appeared: [{ role: "dialog", name: "Confirm" }], removed: [], newTabs: [] },
    console: { errors: [], warnings: 0 },
    pageErrors: [],
    element: { ref: "e4", stillAttached: true, focused: true, displayText: "More options" },
    snapshotDelta: { mode: "delta", scope: "changed", tree: "+ - button", truncated: false },
    network: { summary: { total: 0, byType: {}, failed: 0 }, requests: [], mutations: [] },
    tokensEstimate: null,
    warnings: [],
    error: null,
  });
  assertEquals(Object.keys(r), [
    "ok",
    "action",
    "navigation",
    "structure",
    "console",
    "pageErrors",
    "element",
    "snapshotDelta",
    "network",
    "tokensEstimate",
    "warnings",
    "error",
  ]);
});

Deno.test("builder: optional parts come in order, tool fields and error details before the tail", () => {
  const b = new ActionResultBuilder("navigate", { actionInfo: { url: "http://x/" } });
  b.fail(
    new ToolError("blocked-by-policy", "policy: stopped", "ask", { blockedUrl: "http://y/" }),
  );
  const r = b.build({
    ...quietFacts({
      dialogs: [{ kind: "alert", message: "Hi", handledAs: "accepted" }],
      newTabs: [{ index: 1, url: "http://p/", title: "P" }],
      newTabCount: 3,
    }),
    downloads: {
      downloads: [{
        id: "d1",
        filename: "a.txt",
        path: "/w/a.txt",
        sizeBytes: 1,
        url: "http://x/a.txt",
        urlOrigin: "http://x",
      }],
      blocked: [{ filename: "b.txt", url: "http://x/b.txt", urlOrigin: "http://x" }],
    },
    extra: { url: "http://x/", httpStatus: 200 },
  });
  assertEquals(Object.keys(r), [
    "ok",
    "action",
    "navigation",
    "structure",
    "console",
    "pageErrors",
    "network",
    "dialogs",
    "downloads",
    "downloadsBlocked",
    "hint",
    "url",
    "httpStatus",
    "blockedUrl",
    "tokensEstimate",
    "warnings",
    "error",
  ]);
  assertEquals(r.structure.newTabCount, 3);
  // A tool's `url` is where the tab stands after settling.
  assertEquals(r.url, FROM);
  assertEquals(r.action, { type: "navigate", url: "http://x/" });
  assertEquals(r.ok, false);
  assertEquals(r.error, { code: "blocked-by-policy", message: "policy: stopped", hint: "ask" });
  // A saved file is read back by its id, whatever else happened.
  assertEquals(r.hint, 'read the saved file with download_get({ id: "d1" })');
});

Deno.test("builder: the first error stands; a stopped navigation overrides it", () => {
  const first = new ToolError("not-actionable", "first", "h1");
  const later = new ToolError("download-blocked", "later", "h2");
  const stopped = new ToolError("blocked-by-policy", "stopped", "h3");
  const b = new ActionResultBuilder("click").fail(first).fail(later).fail(undefined);
  assertEquals(b.error, first);
  b.fail(stopped, { overrides: true });
  assertEquals(b.build(quietFacts()).error?.code, "blocked-by-policy");
  // Nothing failed: no error at all.
  assertEquals(new ActionResultBuilder("click").fail(undefined).build(quietFacts()).ok, true);
});

Deno.test("builder: a dialog raised under the raise policy fails the action as the app's", () => {
  const r = new ActionResultBuilder("click").build(quietFacts({
    dialogs: [{ kind: "confirm", message: "Delete?", handledAs: "dismissed", raised: true }],
  }));
  assertEquals(r.ok, false);
  assertEquals(r.error, null);
  assertEquals(r.failure?.source, "app");
  assertIncludes(r.failure!.hint, 'the page raised a confirm ("Delete?")');
  assertIncludes(r.failure!.hint, "handle_dialog");
});

Deno.test("builder: warnings in order, the tool's last; its element facts over the probe's", () => {
  const b = new ActionResultBuilder("scroll").warn("first").warn("second", "third");
  b.target = { kind: "element", selector: "#panel" };
  const r = b.build({
    ...quietFacts(),
    element: { stillAttached: true, focused: false },
    extra: { element: { scroll: { y: 500 }, focused: true }, warnings: ["the tool's"] },
  });
  assertEquals(r.warnings, ["first", "second", "third", "the tool's"]);
  assertEquals(r.element, { stillAttached: true, focused: true, scroll: { y: 500 } });
  assertEquals(r.action, { type: "scroll", selector: "#panel" });
  // No element target: the tool's facts alone (a window scroll).
  const w = new ActionResultBuilder("scroll").build({
    ...quietFacts(),
    extra: { element: { scroll: { y: 800 } } },
  });
  assertEquals(w.element, { scroll: { y: 800 } });
  // Coordinates are echoed; there is no element.
  const c = new ActionResultBuilder("click");
  c.target = { kind: "coords", x: 5, y: 6 };
  const cr = c.build(quietFacts());
  assertEquals(cr.action, { type: "click", coords: { x: 5, y: 6 } });
  assertEquals("element" in cr, false);
});

Deno.test("builder: what the call's time cut short makes timedOut true and is named", () => {
  const b = new ActionResultBuilder("navigate");
  b.cutShort("waiting for the page to settle").cutShort("the snapshot");
  // The tool's own wait ended in time (timedOut: false), what followed did not.
  const r = b.build({ ...quietFacts(), extra: { timedOut: false, warnings: ["tool's"] } });
  assertEquals(r.timedOut, true);
  assertEquals(r.warnings, [
    "tool's",
    "timeoutMs ran out: cut short waiting for the page to settle, the snapshot",
  ]);
  assertEquals(new ActionResultBuilder("click").build(quietFacts()).timedOut, undefined);
});

Deno.test("builder: a load warning leads the warnings, unless the tool's error says it", () => {
  const loadWarning = "the server answered 404 Not Found";
  const b = new ActionResultBuilder("click").warn("a window warning");
  assertEquals(b.build(quietFacts({ loadWarning })).warnings, [loadWarning, "a window warning"]);
  const nav = new ActionResultBuilder("navigate").fail(
    new ToolError("navigation-failed", 'Cannot navigate to "http://x/": net::ERR_FAILED', "check"),
  );
  assertEquals(nav.build(quietFacts({ loadWarning })).warnings, []);
});
