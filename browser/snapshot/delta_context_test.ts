import { assertEquals, assertNotIncludes } from "../../tests/_assert.ts";
import { diffSnapshots } from "./delta.ts";

Deno.test("diffSnapshots: a change in <main> is shown under its own section's heading", () => {
  const page = (notes: string, dest: string[], saved: string) =>
    [
      "- main",
      "  ## Book a trip",
      '  - button "Book now" [ref=e3]',
      "  ## Trip notes",
      `  - textbox "Trip notes" [ref=e8]${notes}`,
      '  - button "Save notes" [ref=e9]',
      "  ## All destinations",
      ...dest.map((d) => `  * ${d}`),
      "  ## Status",
      `  ${saved}`,
    ].join("\n");
  const typed = diffSnapshots(
    page("", ["Paris #1"], "Idle"),
    page(": Hello", ["Paris #1"], "Idle"),
  );
  assertEquals(typed.text.split("\n"), [
    "  - main",
    "    ## Trip notes",
    '+   - textbox "Trip notes" [ref=e8]: Hello',
  ]);
  // Gone in one section, new in another: each under its own heading, not joined under the first.
  const d = diffSnapshots(page("", ["Paris #1"], "Idle"), page("", ["Kyoto #101"], "Saved"));
  assertEquals(d.text.split("\n"), [
    "  - main",
    "    ## All destinations",
    "-   * Paris #1",
    "+   * Kyoto #101",
    "    ## Status",
    "-   Idle",
    "+   Saved",
  ]);
  assertNotIncludes(d.text, "Book a trip");
});
