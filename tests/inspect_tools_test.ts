/**
 * `dom_read`, `styles_read` and `styles_write` end to end over MCP: the tree with refs that
 * other tools take, depth and node caps, shadow roots; computed styles (design set, named,
 * all); a live inline edit that a navigation undoes; bad input for each, and the capability
 * gate of the one tool that changes the page.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { type McpHarness, startStdio, textOf } from "./_mcp.ts";
import { errorOf } from "./_results.ts";
import { refOf } from "./_util.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { sharedSiteCases } from "./_shared_cases.ts";

const TOOLSETS = "core,sessions,debug,power";

// One server (default capabilities) and fixture site for the cases on it; each case starts in a
// fresh default session.
const cases = sharedSiteCases("dom_read, styles_read, styles_write, one server", {
  env: { BROWX_TOOLSETS: TOOLSETS, BROWX_CAPABILITIES: "read,navigation,action" },
});

/** Runs `fn` on inspect.html: on the shared server, or on a server of its own `capabilities`. */
async function withInspect(
  fn: (mcp: McpHarness, url: string) => Promise<void>,
  capabilities?: string,
): Promise<void> {
  if (capabilities === undefined) {
    return await cases.withPage(
      "inspect.html",
      (mcp, _tree, fx) => fn(mcp, fx.url("inspect.html")),
    );
  }
  const fx = await startFixtureServer();
  const mcp = await startStdio({
    env: { BROWX_TOOLSETS: TOOLSETS, BROWX_CAPABILITIES: capabilities },
  });
  try {
    const url = fx.url("inspect.html");
    await mcp.ok("navigate", { url, snapshot: "none" });
    await fn(mcp, url);
  } finally {
    await mcp.close();
    await fx.close();
  }
}

type Node = {
  tag: string;
  id?: string;
  ref?: string;
  text?: string;
  child_count: number;
  children?: Node[];
};

cases.test("dom_read: tags, ids, classes and refs other tools take; depth, caps; bad input", async () => {
  await withInspect(async (mcp) => {
    const whole = await mcp.ok("dom_read");
    const tree = String(whole.tree);
    assertEquals((whole.root as Node).tag, "html");
    assertEquals(whole.depth, 3);
    assertIncludes(tree, "main#app.card.wide [ref=");
    // Depth 3 from <html>: body (1), main (2), its children (3); theirs are counted, not shown.
    assertIncludes(tree, "button#go [ref=");
    assertTrue(/p\.lead \[ref=e\d+\] \(3\)/.test(tree), tree);
    // The text form carries the tree once (as the outline), not the JSON root too.
    const r = await mcp.call("dom_read");
    assertEquals(textOf(r).includes('"child_count"'), false);

    // A subtree by its ref, text nodes and the shadow root in it.
    const main = refOf(tree, /main#app/);
    const sub = await mcp.ok("dom_read", { ref: main, depth: 4 });
    const subTree = String(sub.tree);
    assertIncludes(subTree, '"Inspect me"');
    assertIncludes(subTree, '"bold"');
    assertIncludes(subTree, "#shadow-root");
    assertIncludes(subTree, '"Shadow text"');
    assertEquals((sub.root as Node).ref, main);

    // Its refs work in acting tools.
    const go = refOf(subTree, /button#go/);
    await mcp.ok("click", { ref: go, snapshot: "none" });
    const after = await mcp.ok("dom_read", { ref: refOf(tree, /p#clicked/), depth: 1 });
    assertIncludes(String(after.tree), '"clicked"');

    // The node cap: 500 list items, read breadth first, cut and said.
    const many = await mcp.ok("dom_read", { ref: refOf(tree, /ul#many/), depth: 2 });
    assertEquals(many.truncated, true);
    assertTrue(Number(many.nodes) <= 400, `nodes ${many.nodes}`);
    assertIncludes(String(many.hint), "subtree");
    assertEquals((many.root as Node).child_count, 500);
    assertEquals((many.root as Node).children!.length, 399);
    assertIncludes(String(many.tree), "ul#many [ref=");
    assertIncludes(String(many.tree), "(500, first 399)");

    // Bad input.
    const gone = await mcp.call("dom_read", { ref: "e9999" });
    assertEquals(errorOf(gone).code, "ref-gone");
    const malformed = await mcp.call("dom_read", { ref: "#app" });
    assertEquals(errorOf(malformed).code, "ref-gone");
    assertIncludes(textOf(malformed), "is not a ref");
    const deep = await mcp.call("dom_read", { depth: 99 });
    assertEquals(deep.isError, true);
  });
});

cases.test("styles_read: a design set, named properties, all; bad input", async () => {
  await withInspect(async (mcp) => {
    const tree = String((await mcp.ok("dom_read")).tree);
    const main = refOf(tree, /main#app/);
    const design = await mcp.ok("styles_read", { ref: main });
    const props = design.properties as Record<string, string>;
    assertEquals(props["display"], "flex");
    assertEquals(props["color"], "rgb(200, 0, 0)");
    assertEquals(props["font-size"], "18px");
    assertEquals(props["width"], "400px");
    assertEquals(props["margin"], "4px 0px 8px");
    assertEquals(design.inline_style, "");

    const named = await mcp.ok("styles_read", {
      ref: main,
      properties: ["border-radius", "--brand", "colr"],
    });
    assertEquals(named.properties, { "border-radius": "6px", "--brand": "#3355ff" });
    assertEquals(named.unknown, ["colr"]);

    const all = await mcp.ok("styles_read", { ref: main, properties: ["*"] });
    assertTrue(Object.keys(all.properties as object).length > 200, "every computed property");

    const unknown = await mcp.call("styles_read", { ref: main, properties: ["colr"] });
    assertEquals(errorOf(unknown).code, "invalid-argument");
    assertIncludes(errorOf(unknown).message, '"colr"');
    // A selector works too; no target, or two, is refused.
    const bySelector = await mcp.ok("styles_read", { selector: "#app", properties: ["gap"] });
    assertEquals(bySelector.properties, { gap: "8px" });
    const noRef = await mcp.call("styles_read", {});
    assertEquals(errorOf(noRef).code, "invalid-argument");
    assertIncludes(errorOf(noRef).message, "Missing target");
    const two = await mcp.call("styles_read", { ref: main, selector: "#app" });
    assertEquals(errorOf(two).code, "invalid-argument");
    const none = await mcp.call("styles_read", { selector: "#nothing" });
    assertEquals(errorOf(none).code, "not-found");
    const gone = await mcp.call("styles_read", { ref: "e9999" });
    assertEquals(errorOf(gone).code, "ref-gone");
  });
});

cases.test("styles_write: a live inline edit, !important, removal; a navigation undoes it", async () => {
  await withInspect(async (mcp, url) => {
    const tree = String((await mcp.ok("dom_read")).tree);
    const go = refOf(tree, /button#go/);
    const set = await mcp.ok("styles_write", {
      ref: go,
      property: "background-color",
      value: "#101418",
    });
    assertEquals(set.ok, true);
    assertEquals(set.inline_style, "background-color: rgb(16, 20, 24);");
    assertEquals(set.computed, "rgb(16, 20, 24)");
    const read = await mcp.ok("styles_read", { ref: go, properties: ["background-color"] });
    assertEquals(read.properties, { "background-color": "rgb(16, 20, 24)" });

    const imp = await mcp.ok("styles_write", {
      ref: go,
      property: "color",
      value: "white",
      important: true,
    });
    assertIncludes(String(imp.inline_style), "color: white !important");

    // An empty value removes the property.
    const removed = await mcp.ok("styles_write", {
      ref: go,
      property: "background-color",
      value: "",
    });
    assertEquals(removed.inline_style, "color: white !important;");
    assertEquals(removed.computed, "rgb(240, 240, 240)");

    // Display none: the page changes, and the result's delta says so.
    const hidden = await mcp.ok("styles_write", { ref: go, property: "display", value: "none" });
    assertIncludes(JSON.stringify(hidden.snapshotDelta), "Go");

    // Bad input: nothing changes.
    const badProp = await mcp.call("styles_write", { ref: go, property: "colr", value: "red" });
    assertEquals(errorOf(badProp).code, "invalid-argument");
    assertIncludes(errorOf(badProp).message, "unknown CSS property");
    const badValue = await mcp.call("styles_write", { ref: go, property: "width", value: "wide" });
    assertEquals(errorOf(badValue).code, "invalid-argument");
    assertIncludes(errorOf(badValue).message, "not a valid value");
    const gone = await mcp.call("styles_write", { ref: "e9999", property: "color", value: "red" });
    assertEquals(errorOf(gone).code, "ref-gone");

    // The next navigation ends the edit: the old ref is gone, the new element has no inline style.
    await mcp.ok("navigate", { url, snapshot: "none" });
    const stale = await mcp.call("styles_read", { ref: go });
    assertEquals(errorOf(stale).code, "ref-gone");
    const fresh = refOf(String((await mcp.ok("dom_read")).tree), /button#go/);
    const again = await mcp.ok("styles_read", { ref: fresh, properties: ["display"] });
    assertEquals(again.properties, { display: "block" });
    assertEquals(again.inline_style, "");
  });
});

Deno.test("styles_write needs the action capability; dom_read and styles_read only read", async () => {
  await withInspect(async (mcp) => {
    const tree = String((await mcp.ok("dom_read")).tree);
    const go = refOf(tree, /button#go/);
    await mcp.ok("styles_read", { ref: go });
    const r = await mcp.call("styles_write", { ref: go, property: "color", value: "red" });
    assertEquals(r.isError, true);
    assertIncludes(textOf(r), "action");
  }, "read,navigation");
});
