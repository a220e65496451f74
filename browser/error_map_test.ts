import { assertEquals, assertIncludes, assertTrue } from "../tests/_assert.ts";
import {
  ConnectionClosedError,
  ProtocolError,
  TargetClosedError,
  TimeoutError,
} from "../cdp/errors.ts";
import { toToolError } from "./error_map.ts";
import { ToolError } from "./tool_error.ts";

const call = { name: "probe", takesTimeout: true };

Deno.test("toToolError: every CDP and file failure gets a precise code and a next step", () => {
  const table: Array<[unknown, string, string]> = [
    [new ConnectionClosedError("Connection closed: socket"), "browser-crashed", "fresh session"],
    [new TargetClosedError("Target crashed"), "page-crashed", "reload or navigate"],
    [new TargetClosedError("Target closed"), "page-closed", 'tabs({ action: "list" })'],
    [
      new ProtocolError("DOM.focus", -32000, "No target with given id found"),
      "page-closed",
      "tabs",
    ],
    [
      new ProtocolError("Runtime.callFunctionOn", -32000, "Cannot find context with specified id"),
      "page-changed",
      "new snapshot",
    ],
    [
      new ProtocolError("Runtime.evaluate", -32000, "Execution context was destroyed."),
      "page-changed",
      "new snapshot",
    ],
    [
      new ProtocolError("DOM.describeNode", -32000, "No node with given id found"),
      "page-changed",
      "fresh refs",
    ],
    [
      new ProtocolError("Runtime.callFunctionOn", -32000, "Could not find object with given id"),
      "page-changed",
      "fresh refs",
    ],
    [
      new ProtocolError("Runtime.evaluate", -32000, "Inspected target navigated or closed"),
      "page-changed",
      "new snapshot",
    ],
    [
      new TimeoutError('Timed out after 30000 ms: "Runtime.evaluate"'),
      "timeout",
      "larger timeoutMs",
    ],
    [
      new ProtocolError("Runtime.evaluate", -32000, "Object reference chain is too long"),
      "not-json",
      "plain data",
    ],
    [
      new ProtocolError("Runtime.evaluate", -32000, "Object couldn't be returned by value"),
      "not-json",
      "plain data",
    ],
    [
      new ProtocolError("DOM.getBoxModel", -32000, "Could not compute box model."),
      "not-visible",
      "visible",
    ],
    [
      new ProtocolError(
        "Emulation.setDeviceMetricsOverride",
        -32602,
        "Invalid parameters: Failed to deserialize params.width - BINDINGS: int32 value expected",
      ),
      "invalid-argument",
      "check the arguments",
    ],
    [
      new ProtocolError("Page.navigate", -32000, "Cannot navigate to invalid URL"),
      "invalid-argument",
      "absolute",
    ],
    [
      new ProtocolError("Foo.bar", -32601, "'Foo.bar' wasn't found"),
      "browser-unavailable",
      "current Chrome",
    ],
    [
      new Deno.errors.IsADirectory("Is a directory: writefile '/w/dir'"),
      "invalid-argument",
      "not a folder",
    ],
    [new Deno.errors.NotFound("No such file: open '/w/a/b'"), "not-found", "check the path"],
    [new Deno.errors.PermissionDenied("Permission denied: open '/w/x'"), "refused", "another path"],
    [
      new Deno.errors.NotADirectory("Not a directory: '/w/f/x'"),
      "invalid-argument",
      "fix the path",
    ],
  ];
  for (const [thrown, code, hint] of table) {
    const e = toToolError(thrown, call);
    const label = `${(thrown as Error).message} → ${e.code}: ${e.message} / ${e.hint}`;
    assertEquals(e.code, code, label);
    assertIncludes(e.hint, hint, label);
  }
  // The field Chromium named is in the message.
  const invalid = toToolError(table[13]![0], call);
  assertIncludes(invalid.message, '"width"');
  // A timeout names the CDP method; raising timeoutMs is offered only to tools that take it.
  const t = toToolError(new TimeoutError('Timed out after 30000 ms: "Runtime.evaluate"'), {
    name: "read_form",
  });
  assertIncludes(t.message, '"Runtime.evaluate"');
  assertTrue(!t.hint.includes("timeoutMs"), t.hint);
});

Deno.test("toToolError: a ToolError passes through; anything else is internal with a way on", () => {
  const mine = new ToolError("not-found", "x", "y");
  assertTrue(toToolError(mine, call) === mine);
  const bug = toToolError(new TypeError("x is undefined"), call);
  assertEquals(bug.code, "internal");
  assertIncludes(bug.message, 'Internal error in "probe": TypeError: x is undefined');
  assertEquals(bug.hint, "retry the call");
  const odd = toToolError(new ProtocolError("DOM.weird", -32000, "Something new"), call);
  assertEquals(odd.code, "internal");
  assertIncludes(odd.message, "DOM.weird");
  assertIncludes(odd.hint, "retry the call");
});

Deno.test("toToolError: the other shapes Chromium and Deno use map to the same codes", () => {
  const table: Array<[unknown, string, RegExp]> = [
    [
      new ProtocolError("DOM.getContentQuads", -32000, "Could not compute content quads."),
      "not-visible",
      /no box on the page/,
    ],
    [
      new ProtocolError("DOM.scrollIntoViewIfNeeded", -32000, "Node does not have a layout object"),
      "not-visible",
      /no box on the page/,
    ],
    [
      new ProtocolError("Input.dispatchKeyEvent", -32602, "Invalid parameters"),
      "invalid-argument",
      /refused a value "probe" passed on \(Input\.dispatchKeyEvent\)/,
    ],
    [
      new ProtocolError("Foo.bar", -32000, "Method 'Foo.bar' not found"),
      "browser-unavailable",
      /does not support Foo\.bar/,
    ],
    [new Error("Target crashed"), "page-crashed", /renderer process died/],
    [new Deno.errors.AlreadyExists("File exists: '/w/a'"), "invalid-argument", /could not use/],
    [new Deno.errors.NotCapable("Requires write access"), "refused", /could not use the file/],
    ["a thrown string", "internal", /Internal error in "probe": a thrown string/],
  ];
  for (const [thrown, code, message] of table) {
    const e = toToolError(thrown, call);
    assertEquals(e.code, code, `${String(thrown)} → ${e.code}: ${e.message}`);
    assertTrue(message.test(e.message), e.message);
    assertTrue(e.hint.length > 0, `${e.code} has a next step`);
  }
  // Without a call, the message still names something.
  assertIncludes(toToolError(new TypeError("x")).message, '"the call"');
});
