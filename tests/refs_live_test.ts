/**
 * Refs on rows that change while the agent holds them (`refs_live.html`), from a red team's
 * findings: rows a pager rewrites for items never shown hold their refs (ref-gone on use, and
 * the delta says so); a page of a snapshot that does not show a ref leaves it as shown before;
 * and the false alarms: a Follow toggle flipped twice, a row whose "Ns ago" ticks, a row whose
 * counter follows what `fill` typed with `snapshot: "none"` — each acts on the same item.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { act, errorOf } from "./_results.ts";

/** The refs of the buttons named `name`, in page order. */
function buttons(tree: string, name: string): string[] {
  return [...tree.matchAll(new RegExp(`- button "${name}" \\[ref=(e\\d+)\\]`, "g"))].map((m) =>
    m[1]!
  );
}

Deno.test("refs on live rows: held when the row is another item, kept when it only ticks", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const logText = async () =>
    (await mcp.ok("eval_js", { expression: `document.getElementById("log").textContent` }))
      .value as string;
  const open = async (mode: string) => {
    await mcp.ok("navigate", { url: fx.url(`refs_live.html?mode=${mode}`), snapshot: "none" });
    return String((await mcp.ok("snapshot")).tree);
  };
  try {
    await t.step("a pager rewrites its rows: the old refs fail, the delta says so", async () => {
      const tree = await open("pager");
      const first = buttons(tree, "Cancel")[0]!;
      const next = buttons(tree, "Next")[0]!;
      const r = await act(mcp, "click", { ref: next });
      assertIncludes(r.snapshotDelta!.tree, `${first},`);
      assertIncludes(r.snapshotDelta!.tree, "take a snapshot before using them");
      const stale = await mcp.call("click", { ref: first });
      assertEquals(errorOf(stale).code, "ref-gone", textOf(stale));
      assertIncludes(textOf(stale), "Order #1001");
      assertEquals(await logText(), "No action yet");
      // Shown again, the ref is the row's new item.
      await mcp.ok("snapshot");
      await act(mcp, "click", { ref: first });
      assertEquals(await logText(), "Cancelled Order #1004");
    });

    await t.step("a snapshot page that does not show a ref leaves it as shown", async () => {
      const tree = await open("pad");
      const alpha = buttons(tree, "Delete")[0]!;
      await mcp.ok("eval_js", { expression: "reverseItems()" });
      // The first page of a small snapshot ends before the list.
      const page1 = String((await mcp.ok("snapshot", { maxTokens: 200 })).tree);
      assertEquals(page1.includes(`[ref=${alpha}]`), false, page1);
      const stale = await mcp.call("click", { ref: alpha });
      assertEquals(errorOf(stale).code, "ref-gone", textOf(stale));
      assertIncludes(textOf(stale), `("Delta" instead of "Alpha")`);
      assertEquals(await logText(), "No action yet");
    });

    await t.step("a Follow toggle flips both ways on the same ref", async () => {
      const tree = await open("follow");
      const alice = buttons(tree, "Follow")[0]!;
      await act(mcp, "click", { ref: alice });
      assertEquals(await logText(), "Followed Alice");
      await act(mcp, "click", { ref: alice });
      assertEquals(await logText(), "Unfollowed Alice");
      await act(mcp, "click", { ref: alice });
      assertEquals(await logText(), "Followed Alice");
    });

    await t.step("a row whose time ticks between calls is the same item", async () => {
      const retry = buttons(await open("tick"), "Retry")[0]!;
      // Wait on the page (not time): the row's text has changed since the snapshot.
      await mcp.ok("eval_js", {
        expression: `new Promise((done) => {
          const ago = () => document.querySelector(".ago").textContent;
          const was = ago();
          const id = setInterval(() => ago() !== was && (clearInterval(id), done(true)), 20);
        })`,
      });
      const r = await act(mcp, "click", { ref: retry, snapshot: "none" });
      assertEquals(r.ok, true);
      assertEquals(await logText(), "Retried Build 42");
    });

    await t.step("a row whose count ticks during the click itself is the same item", async () => {
      const retry = buttons(await open("presses"), "Retry")[0]!;
      const r = await act(mcp, "click", { ref: retry, snapshot: "none" });
      assertEquals(r.ok, true);
      assertEquals(await logText(), "Retried Build 7");
    });

    await t.step("fill without a snapshot, then the row's Save (its counter moved)", async () => {
      const tree = await open("counter");
      const field = /- textbox "Message" \[ref=(e\d+)\]/.exec(tree)![1]!;
      const save = buttons(tree, "Save")[0]!;
      await act(mcp, "fill", { ref: field, value: "hello", snapshot: "none" });
      await act(mcp, "click", { ref: save });
      assertEquals(await logText(), "Saved hello");
    });

    await t.step(
      "a blur that re-sorts the rows during the click: the click is stopped",
      async () => {
        const tree = await open("resort");
        const rename = /- textbox "Rename first" \[ref=(e\d+)\]/.exec(tree)![1]!;
        const delta = buttons(tree, "Delete")[2]!; // Delta's row
        await act(mcp, "fill", { ref: rename, value: "Zulu" });
        const r = await mcp.call("click", { ref: delta });
        assertEquals(errorOf(r).code, "ref-gone", textOf(r));
        assertIncludes(textOf(r), "during the press");
        assertIncludes(textOf(r), "its click was stopped");
        assertEquals(await logText(), "No action yet");
      },
    );

    await t.step("a mousedown handler that re-sorts: the click is stopped", async () => {
      const delta = buttons(await open("resort&press=1"), "Delete")[2]!;
      const r = await mcp.call("click", { ref: delta });
      assertEquals(errorOf(r).code, "ref-gone", textOf(r));
      assertEquals(await logText(), "No action yet");
    });

    await t.step("fill after an edit that re-sorts on blur: nothing typed", async () => {
      const tree = await open("resort");
      const rename = /- textbox "Rename first" \[ref=(e\d+)\]/.exec(tree)![1]!;
      const note = [...tree.matchAll(/- textbox "Note" \[ref=(e\d+)\]/g)][2]![1]!; // Delta's
      await act(mcp, "fill", { ref: rename, value: "Zulu", snapshot: "none" });
      const r = await mcp.call("fill", { ref: note, value: "call back" });
      assertEquals(errorOf(r).code, "ref-gone", textOf(r));
      assertIncludes(textOf(r), "nothing was typed");
      assertEquals(await logText(), "No action yet");
    });

    await t.step(
      "an overlay put up on pointerdown takes the click: the result says so",
      async () => {
        const openRef = buttons(await open("overlay"), "Open")[0]!;
        const r = await act(mcp, "click", { ref: openRef });
        assertIncludes((r.warnings ?? []).join("\n"), "its click landed on");
        assertEquals(await logText(), "No action yet");
      },
    );

    await t.step("bad input: a ref never issued says so", async () => {
      const r = await mcp.call("click", { ref: "e99999" });
      assertEquals(errorOf(r).code, "ref-gone");
      assertIncludes(textOf(r), "never issued");
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
