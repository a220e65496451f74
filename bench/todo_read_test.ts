/**
 * Reading TodoMVC state out of both servers' snapshots (texts as the servers returned them on
 * real apps), and the delta check of the flow.
 */
import { assertEquals } from "../tests/_assert.ts";
import {
  countShown,
  filterRef,
  lineWords,
  newTodoRef,
  rowOf,
  stateMismatch,
  toggleLine,
} from "./todo_read.ts";
import { deltaMismatch } from "./todomvc_flow.ts";

const OURS = `# todos
- textbox "What needs to be done?" [ref=e4]: Walk the dog
- checkbox "Mark all as complete" [ref=e8]
- listitem
  - checkbox [ref=e9] [checked] (.toggle)
  Buy milk
  - button [ref=e20] (.destroy)
- listitem
  - checkbox [ref=e13] (.toggle)
  Walk the dog
**1** item left
[All](#/)[ref=e10]
[Active][ref=e11]
- contentinfo
  Part of [TodoMVC](http://todomvc.com/)[ref=e7]`;

const PEER = `- generic [ref=e1]:
  - list [ref=e20]:
    - listitem [ref=e21]:
      - link "Source" [ref=e22] [cursor=pointer]:
        - /url: https://example.com/
  - textbox "What needs to be done?" [active] [ref=e44]
  - generic [ref=e57] [cursor=pointer]:
    - checkbox [checked] [ref=e58]: ✔
    - generic [ref=e59]: Buy milk
  - generic [ref=e60] [cursor=pointer]:
    - checkbox [ref=e61]: ✔
    - generic [ref=e62]: Walk the dog
  - generic [ref=e63]:
    - strong [ref=e64]: "1"
    - text: item left
  - link "Active" [ref=e69] [cursor=pointer]:
    - /url: "#/active"`;

const TOGGLED = { shown: ["Buy milk", "Walk the dog"], hidden: [], count: 1, done: ["Buy milk"] };

Deno.test("todo_read: words of a line drop roles, refs, states and link targets", () => {
  assertEquals(lineWords(`- strong [ref=e4]: "2"`), "2");
  assertEquals(lineWords(`[Active](#/active)[ref=e9]`), "Active");
  assertEquals(lineWords(`- checkbox "Done" [checked] [ref=e3]`), "Done");
  assertEquals(lineWords(`  - /url: "#/active"`), "");
});

Deno.test("todo_read: both servers' snapshots read the same state", () => {
  for (const text of [OURS, PEER]) {
    const lines = text.split("\n");
    assertEquals(countShown(lines), 1);
    assertEquals(stateMismatch(text, TOGGLED), undefined);
  }
  assertEquals(newTodoRef(OURS.split("\n")), "e4");
  assertEquals(newTodoRef(PEER.split("\n")), "e44");
  assertEquals(filterRef(OURS.split("\n"), "Active"), "e11");
  assertEquals(filterRef(PEER.split("\n"), "Active"), "e69");
  // Rows outside any list item are the text's parent; a list elsewhere is not the row.
  assertEquals(toggleLine(PEER.split("\n"), "Walk the dog")?.trim(), "- checkbox [ref=e61]: ✔");
  assertEquals(rowOf(OURS.split("\n"), "Walk the dog")?.length, 3);
});

Deno.test("todo_read: a state the page does not show is named", () => {
  assertEquals(
    stateMismatch(OURS, { ...TOGGLED, done: [] }),
    `"Buy milk" checked: - checkbox [ref=e9] [checked] (.toggle)`,
  );
  assertEquals(stateMismatch(OURS, { ...TOGGLED, count: 2 }), "shows 1 items left, not 2");
  // The text left in the new-todo box is not a shown todo.
  assertEquals(
    stateMismatch(OURS.replace(/\n.*\n\s+Walk the dog/, ""), TOGGLED),
    `"Walk the dog" not shown`,
  );
  assertEquals(
    stateMismatch(PEER, { ...TOGGLED, hidden: ["Buy milk"] }),
    `"Buy milk" still shown`,
  );
});

Deno.test("todomvc_flow: the delta must show each step's change", () => {
  const add2 = `  - listitem
+ - listitem
+   - checkbox [ref=e14] (.toggle)
+   Walk the dog
- 1 item left
+ 2 items left`;
  assertEquals(deltaMismatch({ mode: "delta", tree: add2 }, "add2"), undefined);
  assertEquals(
    deltaMismatch({ mode: "delta", tree: add2.replace("+ 2 items", "  2 items") }, "add2"),
    `no added line shows "2 item(s) left"`,
  );
  assertEquals(
    deltaMismatch({ mode: "delta", tree: "" }, "toggle"),
    "the delta is empty (unchanged)",
  );
  const toggle = `  - listitem
+   - checkbox [ref=e9] [checked] (.toggle)
- 2 items left
+ 1 item left`;
  assertEquals(deltaMismatch({ mode: "delta", tree: toggle }, "toggle"), undefined);
  assertEquals(
    deltaMismatch({ mode: "delta", tree: toggle.replace(" [checked]", "") }, "toggle"),
    "no checkbox shown checked",
  );
  // Filtering: the done todo goes; one re-rendered (gone and back) is still shown.
  const active = `- - listitem
-   - checkbox [ref=e9] [checked] (.toggle)
-   Buy milk
- - listitem
-   Walk the dog
+ - listitem
+   Walk the dog`;
  assertEquals(deltaMismatch({ mode: "delta", tree: active }, "active"), undefined);
  assertEquals(
    deltaMismatch({ mode: "delta", tree: active.split("\n").slice(0, 5).join("\n") }, "active"),
    `"Walk the dog" shown gone`,
  );
  // A whole page in the result is read as a page.
  assertEquals(deltaMismatch({ mode: "full", tree: OURS }, "toggle"), undefined);
});
