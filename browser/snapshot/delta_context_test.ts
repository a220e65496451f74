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

Deno.test("diffSnapshots: lines after a new heading follow it, in the section it stands in", () => {
  const d = diffSnapshots(
    "- main\n  # Reports\n  Loading report…",
    '- main\n  # Reports\n  - button "Stop" [ref=e1]\n  ## Report ready\n  - button "Get" [ref=e2]',
  );
  assertEquals(d.text.split("\n"), [
    "  - main",
    "    # Reports",
    "-   Loading report…",
    '+   - button "Stop" [ref=e1]',
    "+   ## Report ready",
    '+   - button "Get" [ref=e2]',
  ]);
});
