import { assertEquals } from "../../tests/_assert.ts";
import { nextButtonAfter, onlyOwnLineChanged } from "./idle_outcome.ts";

Deno.test("onlyOwnLineChanged: the field's own line, context lines, or nothing", () => {
  assertEquals(onlyOwnLineChanged('+ - textbox "Query" [ref=e1] [focused]: cats', "e1"), true);
  assertEquals(onlyOwnLineChanged("", "e1"), true);
  assertEquals(
    onlyOwnLineChanged(
      '  - form "Find"\n- - textbox "Query" [ref=e1]\n+ - textbox "Query" [ref=e1]: a',
      "e1",
    ),
    true,
  );
});

Deno.test("onlyOwnLineChanged: another line, a new item or a note is a change", () => {
  assertEquals(onlyOwnLineChanged('+ - textbox "Query" [ref=e1]: a\n+ - listitem: a', "e1"), false);
  assertEquals(onlyOwnLineChanged('+ - textbox "Query" [ref=e12]: a', "e1"), false);
  assertEquals(onlyOwnLineChanged("refs e3, e4 re-created them as e9, e10", "e1"), false);
});

Deno.test("nextButtonAfter: the first button or link after the field, close to it", () => {
  const tree = [
    '- button "Menu" [ref=e1]',
    '- textbox "Query" [ref=e2]',
    "- text: Results",
    '- button "Search" [ref=e3]',
  ].join("\n");
  assertEquals(nextButtonAfter(tree, "e2"), 'button "Search" [ref=e3]');
  assertEquals(nextButtonAfter(tree, "e3"), undefined);
  assertEquals(nextButtonAfter(tree, "e9"), undefined);
  const far = ['- textbox "Q" [ref=e1]', ...Array(13).fill("- text: x"), '- button "Go" [ref=e2]'];
  assertEquals(nextButtonAfter(far.join("\n"), "e1"), undefined);
});
