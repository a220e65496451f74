import { assertEquals } from "../../tests/_assert.ts";
import { onlyOwnLineChanged } from "./idle_outcome.ts";

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
