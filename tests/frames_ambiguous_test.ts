/**
 * A selector that matches in two iframes (session 17, new-user finding 5): the action goes to
 * the first frame (snapshot order), and its warning names the other frame that matched too,
 * with its iframe's ref, as the main frame's ambiguous `text=` matches are said.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { eventually } from "./_util.ts";

type R = Record<string, unknown>;

Deno.test("frames: a selector matching in two iframes names the other one", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio();
  try {
    const url = fx.url(`nu17-frames.html?cross=${encodeURIComponent(fx.crossOrigin)}`);
    await mcp.ok("navigate", { url, snapshot: "none" });
    // Both widgets loaded: the snapshot shows two Pay buttons (and gives the iframes refs).
    const tree = await eventually(
      async () => {
        const t = String((await mcp.ok("snapshot")).tree);
        return (t.match(/button "Pay"/g) ?? []).length === 2 ? t : undefined;
      },
      15_000,
      "both frames' Pay buttons",
    );
    const payRef = /iframe "Payment widget" \[ref=(e\d+)\]/.exec(tree)?.[1];
    assertEquals(typeof payRef, "string", tree);

    const filled = await mcp.ok("fill", { selector: "#card", value: "1111", snapshot: "none" });
    const said = (filled.warnings as string[]).find((w) =>
      w.includes("no match in the main frame")
    );
    assertIncludes(String(said), "nu17-inner.html");
    assertIncludes(
      String(said),
      `it matches in the iframe [ref=${payRef}] showing ${fx.crossOrigin}`,
    );
    assertIncludes(String(said), "too");

    const clicked = await mcp.ok("click", { selector: "text=Pay", snapshot: "none" });
    const w = (clicked.warnings as string[]).join("\n");
    assertIncludes(w, `[ref=${payRef}]`);
    // The first frame (same origin) got the action: its text says so.
    assertIncludes(String((await mcp.ok("snapshot")).tree), "Paid with 1111");

    // A selector that matches in one frame only (the paid one): no "too".
    const one = await mcp.ok("click", { selector: "text=Paid with", snapshot: "none" });
    const onlyOne = (one.warnings as string[]).find((x) => x.includes("no match in the main"));
    assertIncludes(String(onlyOne), "nu17-inner.html");
    assertEquals(String(onlyOne).includes("too"), false);
  } finally {
    await mcp.close();
    await fx.close();
  }
});
