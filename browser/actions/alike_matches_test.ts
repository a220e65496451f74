import { assertEquals } from "../../tests/_assert.ts";
import { alikeIndexes } from "./alike_matches.ts";
import type { TextCandidate } from "./text_choice.ts";

const button = (name: string, more: Partial<TextCandidate> = {}): TextCandidate => ({
  role: "button",
  name,
  actionable: true,
  ...more,
});

Deno.test("alikeIndexes: the chosen one's twins by role and name, the chosen included", () => {
  const cs = [
    { role: "paragraph", name: "Delete", actionable: false },
    button("Delete"),
    button("Delete all"),
    button("Delete"),
  ];
  assertEquals(alikeIndexes(cs, 1), [1, 3]);
  // A button among a heading and a label reading the same: clearly the one, no twins.
  assertEquals(
    alikeIndexes([{ role: "heading", name: "Search", actionable: false }, button("Search")], 1),
    [],
  );
  // Invisible copies are no twins of a seen one; undescribed (no name) ones are not judged.
  assertEquals(alikeIndexes([button("Go"), button("Go", { faint: true })], 0), []);
  assertEquals(alikeIndexes([button(""), button("")], 0), []);
});
