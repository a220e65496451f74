/**
 * A list the page renders anew (new nodes, the same rows, prices ticking), as a new user's
 * ticker did every 700 ms: every ref was gone by the next call, and "take a new snapshot"
 * looped forever. A ref whose node is gone acts on the one element that now matches its whole
 * identity (role, name, row) and says so; none or several (the row removed, a twin row, a row
 * told only by its bare number): `ref-gone`, saying which (and where the one element of its
 * role and name sits, if one is left), and nothing is bought; so is a button no row tells. A ref a
 * result announced as re-created (`~ e7 is gone: the page re-created it as e11`) names its new
 * ref in its `ref-gone`.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { errorOf } from "./_results.ts";

/** The ref of the "Buy" button in the row of `item` (its line follows the row's). */
function buyOf(tree: string, item: string): string {
  const m = new RegExp(`${item} \\$[\\d.]+[^\\n]*\\n\\s*- button "Buy" \\[ref=(e\\d+)\\]`).exec(
    tree,
  );
  if (!m) throw new Error(`no Buy of ${item} in:\n${tree}`);
  return m[1]!;
}

Deno.test("ref rerender: a ref whose row the page rendered anew acts on the same row", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const evalJs = async (expression: string) =>
    (await mcp.ok("eval_js", { expression })).value as string;
  const open = async (setup = "") => {
    await mcp.ok("navigate", { url: fx.url("rerender_list.html"), snapshot: "none" });
    if (setup) await evalJs(setup);
    return String((await mcp.ok("snapshot")).tree);
  };
  const bought = () => evalJs(`document.getElementById("msg").textContent`);
  try {
    await t.step("rendered anew, the same rows: acted on, and said", async () => {
      const ref = buyOf(await open("step = 0"), "INITECH");
      await evalJs("render()");
      const r = await mcp.call("click", { ref });
      assertEquals(r.isError, undefined, textOf(r));
      const said = new RegExp(
        `${ref}'s element was re-rendered by the page; acted on the same button .{0,2}Buy.{0,2} in a list item .{0,2}INITECH \\$30\\.25.{0,2}, now e\\d+`,
      );
      assertTrue(said.test(textOf(r)), textOf(r));
      assertEquals(await bought(), "Bought INITECH");
      // The new ref named works like any; so does the old one, after another render.
      const now = /now (e\d+)/.exec(textOf(r))![1]!;
      await evalJs(`document.getElementById("msg").textContent = ""; render()`);
      const again = await mcp.call("click", { ref: now });
      assertEquals(again.isError, undefined, textOf(again));
      assertEquals(await bought(), "Bought INITECH");
    });

    await t.step("rendered anew with a time that ticked: acted on", async () => {
      const ref = buyOf(await open(`step = 0; suffix = " 3s ago"; render()`), "INITECH");
      await evalJs(`suffix = " 5s ago"; render()`);
      const r = await mcp.call("click", { ref });
      assertEquals(r.isError, undefined, textOf(r));
      assertEquals(await bought(), "Bought INITECH");
    });

    let last = "";
    const refused = async (setup: string, expected: string, item = "INITECH") => {
      const ref = buyOf(await open("step = 0"), item);
      await evalJs(setup);
      const r = await mcp.call("click", { ref });
      last = textOf(r);
      assertEquals(errorOf(r).code, "ref-gone", textOf(r));
      assertIncludes(textOf(r), expected);
      assertEquals(await bought(), "No action yet");
    };
    await t.step(
      "rendered anew with another price: told first; then acted on, saying what it read",
      async () => {
        await refused("step = 0.5; render()", `now reads "INITECH $30.75", not "INITECH $30.25"`);
        // Told its numbers change on their own, the agent acts again: the row whatever it reads.
        const ref = /Ref "(e\d+)"/.exec(last)![1]!;
        await evalJs("render()");
        const r = await mcp.call("click", { ref });
        assertEquals(r.isError, undefined, textOf(r));
        assertIncludes(
          textOf(r).replaceAll('\\"', '"'),
          `"INITECH $31.25" (shown as "INITECH $30.25"`,
        );
        assertEquals(await bought(), "Bought INITECH");
      },
    );
    await t.step("the row removed: ref-gone, no match", async () => {
      await refused(`drop("INITECH")`, "no element now matches it (same role, name and row)");
    });
    await t.step("a twin row: ref-gone, ambiguous", async () => {
      await refused(`twin("INITECH")`, "2 or more elements now match it");
    });
    await t.step("the one such button left, in another row: ref-gone says where", async () => {
      const ref = buyOf(await open(`st = [["INITECH", 30]]; render()`), "INITECH");
      await evalJs(`rename("INITECH", "INITECK")`);
      const r = await mcp.call("click", { ref });
      assertEquals(errorOf(r).code, "ref-gone", textOf(r));
      assertIncludes(textOf(r), `the only button "Buy" sits in a list item "INITECK $30.5"`);
      assertEquals(await bought(), "No action yet");
    });

    await t.step(
      "the one such button left, shown to the agent since: ref-gone names it",
      async () => {
        const ref = buyOf(await open(`st = [["INITECH", 30]]; render()`), "INITECH");
        await evalJs(`rename("INITECH", "INITECK")`);
        const now = buyOf(String((await mcp.ok("snapshot")).tree), "INITECK");
        const r = await mcp.call("click", { ref });
        assertEquals(errorOf(r).code, "ref-gone", textOf(r));
        assertIncludes(textOf(r), `(shown to you as ${now})`);
        assertIncludes(textOf(r), `use ${now}`);
        assertEquals(await bought(), "No action yet");
      },
    );

    await t.step("rows told by a bare number: another's is no match", async () => {
      await open();
      await evalJs(`rename("ACME", "Task 1"); rename("GLOBX", "Task 2")`);
      const ref = buyOf(String((await mcp.ok("snapshot")).tree), "Task 1");
      await evalJs(`drop("Task 1")`);
      const r = await mcp.call("click", { ref });
      assertEquals(errorOf(r).code, "ref-gone", textOf(r));
      assertEquals(await bought(), "No action yet");
    });

    await t.step("a re-creation a result announced: ref-gone names the new ref", async () => {
      // Prices that stay: the page re-creates the rows with the same content.
      const tree = await open("step = 0");
      const ref = buyOf(tree, "INITECH");
      const refresh = /button "Refresh" \[ref=(e\d+)\]/.exec(tree)![1]!;
      const r = textOf(await mcp.call("click", { ref: refresh }));
      const note = / are gone: the page re-created them as (e\d+(?:, e\d+)*)/.exec(r);
      if (!note) throw new Error(`no renewed note in:\n${r}`);
      const renewed = /^~ (e\d+(?:, e\d+)*)/m.exec(r)![1]!.split(", ");
      const to = note[1]!.split(", ")[renewed.indexOf(ref)]!;
      await evalJs(`twin("INITECH")`);
      const gone = await mcp.call("click", { ref });
      assertEquals(errorOf(gone).code, "ref-gone", textOf(gone));
      assertIncludes(textOf(gone), `the page re-created it as ${to}\nNext: use ${to}`);
      assertEquals(await bought(), "No action yet");
    });

    await t.step("a button told by its role and name alone is not searched for", async () => {
      const tree = await open();
      const refresh = /button "Refresh" \[ref=(e\d+)\]/.exec(tree)![1]!;
      await evalJs("newRefresh()");
      const r = await mcp.call("click", { ref: refresh });
      assertEquals(errorOf(r).code, "ref-gone", textOf(r));
      assertIncludes(textOf(r), "was removed from the page");
    });

    await t.step("bad input: a ref never issued is refused as before", async () => {
      await open();
      const r = await mcp.call("click", { ref: "e9999" });
      assertEquals(errorOf(r).code, "ref-gone", textOf(r));
      assertIncludes(textOf(r), "never issued");
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
