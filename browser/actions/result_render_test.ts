import { assertEquals, assertIncludes, assertTrue } from "../../tests/_assert.ts";
import { QUIET_URL, quietFacts } from "../../tests/_fake_session.ts";
import { ToolError } from "../tool_error.ts";
import { MAX_FIELD_CHARS, MAX_RAW_CHARS } from "../output.ts";
import type { ActionResult } from "./action_result.ts";
import { ActionResultBuilder } from "./result_builder.ts";
import { actionOutput, renderActionResult, textOmissions } from "./result_render.ts";

const TREE = '  - main\n+   - button "More options" [ref=e4] [expanded]';

/** A click on e4 that changed a little of the page and nothing else. */
function quietClick(): ActionResult {
  const b = new ActionResultBuilder("click");
  b.target = { kind: "element", ref: "e4" };
  return b.build({
    ...quietFacts(),
    element: { stillAttached: true, focused: true, displayText: "More options" },
    delta: {
      delta: { mode: "delta", scope: "changed", tree: TREE, truncated: false },
      appeared: [],
      removed: [],
    },
  });
}

Deno.test("render: a quiet click's text carries the news only, the tree raw after the JSON", () => {
  const result = quietClick();
  const { text, structured } = renderActionResult(result);
  assertEquals(
    text,
    `{"ok":true,"element":{"displayText":"More options"}}\ndelta (changes since the call began):\n${TREE}`,
  );
  // structuredContent keeps every field, with the estimate filled in: chars / 4 of the text.
  assertEquals(structured.tokensEstimate, Math.ceil(text.length / 4));
  assertEquals({ ...structured, tokensEstimate: null }, result);
  // The result handed in is left as it was.
  assertEquals(result.tokensEstimate, null);
});

Deno.test("render: what changed is shown — navigation, traffic, warnings, focus, a full page", () => {
  const b = new ActionResultBuilder("click");
  b.target = { kind: "element", selector: "#go" };
  const to = "http://127.0.0.1:8000/b.html";
  const result = b.build({
    ...quietFacts({
      navigation: { changed: true, from: QUIET_URL, to, kind: "full_load" },
      console: { errors: [], warnings: 2 },
      network: {
        summary: { total: 1, byType: { document: 1 }, failed: 0 },
        requests: [{ method: "GET", url: to, type: "Document", status: 200 }],
        mutations: [],
      },
    }),
    element: { stillAttached: false },
    delta: {
      delta: {
        mode: "full",
        scope: "full",
        tree: "- main",
        truncated: true,
        hint: "call snapshot with offset to read the rest",
      },
      appeared: [],
      removed: [],
    },
  });
  const { text } = renderActionResult(result);
  const head = JSON.parse(text.split("\n")[0]!);
  assertEquals(head, {
    ok: true,
    navigation: { changed: true, from: QUIET_URL, to, kind: "full_load" },
    console: { warnings: 2 },
    element: { stillAttached: false },
    snapshotDelta: {
      mode: "full",
      truncated: true,
      hint: "call snapshot with offset to read the rest",
    },
    network: {
      summary: { total: 1, byType: { document: 1 }, failed: 0 },
      requests: [{ method: "GET", url: to, type: "Document", status: 200 }],
    },
  });
  // The page whole, labelled so: never to be read as a delta.
  assertTrue(text.endsWith("\nsnapshot (full page):\n- main"), text);
  // A focus the action did not give, or lost, is news too.
  const unfocused = quietClick();
  unfocused.element!.focused = false;
  assertIncludes(renderActionResult(unfocused).text, '"focused":false');
});

Deno.test("render: a failed action leads with its message and next step", () => {
  const result = new ActionResultBuilder("fill")
    .fail(new ToolError("not-actionable", "Enter did not send the form", "pass submits: true"))
    .build({ ...quietFacts(), element: { stillAttached: true, value: "Bob" } });
  const { text } = renderActionResult(result);
  const [message, next, json] = text.split("\n");
  assertEquals(message, "Enter did not send the form");
  assertEquals(next, "Next: pass submits: true");
  assertEquals(JSON.parse(json!), {
    ok: false,
    element: { value: "Bob" },
    // Said once, in the lead: the JSON keeps the code (structuredContent keeps everything).
    error: { code: "not-actionable" },
  });
  assertEquals(result.error?.message, "Enter did not send the form");
  // No snapshot asked for: no tail.
  assertEquals(text.split("\n").length, 3);
  // A raised dialog fails without an error: no lead, the failure says why.
  const raised = new ActionResultBuilder("click").build(quietFacts({
    dialogs: [{ kind: "alert", message: "Hi", handledAs: "dismissed", raised: true }],
  }));
  assertTrue(renderActionResult(raised).text.startsWith('{"ok":false,'));
});

Deno.test("render: long strings are cut in text and structure; the tree only past its own cap", () => {
  const result = quietClick();
  result.element!.value = "v".repeat(MAX_FIELD_CHARS + 10);
  result.snapshotDelta!.tree = "t".repeat(MAX_FIELD_CHARS * 2);
  let { text, structured } = renderActionResult(result);
  const cut = `${"v".repeat(MAX_FIELD_CHARS)}…[10 more chars]`;
  assertEquals(structured.element!.value, cut);
  assertIncludes(text, `"value":"${cut}"`);
  assertEquals(structured.snapshotDelta!.tree, "t".repeat(MAX_FIELD_CHARS * 2));
  result.snapshotDelta!.tree = "t".repeat(MAX_RAW_CHARS + 5);
  ({ text, structured } = renderActionResult(result));
  assertTrue(text.endsWith("t\n…[cut: 5 more chars]"), text.slice(-40));
  assertEquals(
    structured.snapshotDelta!.tree.length,
    MAX_RAW_CHARS + "\n…[cut: 5 more chars]".length,
  );
  assertEquals(structured.tokensEstimate, Math.ceil(text.length / 4));
});

Deno.test("render: the omissions, and the output the call pipeline renders", () => {
  const result = quietClick();
  assertEquals(textOmissions(result), [
    "action",
    "element.ref",
    "snapshotDelta.scope",
    "tokensEstimate",
    "navigation",
    "element.stillAttached",
    "element.focused",
    "snapshotDelta.mode",
    "console.warnings",
    "network",
    "snapshotDelta.truncated",
  ]);
  const out = actionOutput(result);
  assertEquals(out.isError, undefined);
  assertEquals(out.structured, result);
  // The pipeline renders what it holds last (secrets masked, a tool's edits made).
  const masked = { ...result, element: { ...result.element, displayText: "••••" } };
  const rendered = out.render(masked);
  assertIncludes(rendered.text, '"displayText":"••••"');
  assertEquals(rendered.structured.tokensEstimate, Math.ceil(rendered.text.length / 4));
  const failed = new ActionResultBuilder("click")
    .fail(new ToolError("timeout", "slow", "wait"))
    .build(quietFacts());
  assertEquals(actionOutput(failed).isError, true);
});
