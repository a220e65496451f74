/**
 * `select({ label })` matches the label as written first; when no option reads so, the one
 * option whose label differs only in case is chosen, with a warning that says so. Two options
 * alike but for case are not guessed between.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { servePages } from "./_util.ts";

const PAGE = `<!doctype html><title>Country</title>
<label>Country <select id="c"><option value="fr">France</option><option value="de">Germany</option>
<option value="x1">Georgia</option><option value="x2">GEORGIA</option></select></label>`;

type R = Record<string, unknown>;

Deno.test("select by label: another case is matched and said; an ambiguous one is refused", async () => {
  const pages = servePages({ "/country.html": PAGE });
  const mcp = await startStdio();
  try {
    await mcp.ok("navigate", { url: `${pages.base}/country.html`, snapshot: "none" });
    const r = await mcp.call("select", { selector: "#c", label: "germany", snapshot: "none" });
    assertEquals(r.isError, undefined, textOf(r));
    assertEquals(r.structuredContent!.selected, { value: "de", label: "Germany" });
    assertIncludes(
      JSON.stringify(r.structuredContent!.warnings),
      'no option is labelled exactly \\"germany\\": chose \\"Germany\\"',
    );
    // Exact wins without a word.
    const exact = await mcp.call("select", { selector: "#c", label: "France", snapshot: "none" });
    assertEquals(exact.structuredContent!.warnings ?? [], [], textOf(exact));
    // Bad input: two options read "georgia" but for case: nothing is guessed.
    const both = await mcp.call("select", { selector: "#c", label: "georgia", snapshot: "none" });
    assertEquals(both.isError, true, textOf(both));
    assertEquals((both.structuredContent!.error as R).code, "not-found");
  } finally {
    await mcp.close();
    await pages.close();
  }
});
