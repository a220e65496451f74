/**
 * Refs whose rows the page re-uses for another item during the action itself
 * (`recycle_during.html`, a red team's cases): on pointerdown, mouseup, pointerover or focus the
 * list shifts by one item, with rows told apart only by a link's href, a button's own
 * aria-label, a select's value or a field's placeholder; a delegated listener on the document
 * (capture) that re-renders on click; `select` and `fill_form` on a list that shifts when a
 * field takes the focus. Each fails `ref-gone` saying what the row showed and shows, and the
 * page's handlers act on no item (a fill_form field re-used as its own input event ran fails
 * too, saying its value went in). Without a shift, the same refs act, also after the agent chose
 * or filled in the row.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { textOf } from "./_mcp.ts";
import { act, errorOf } from "./_results.ts";
import { sharedSiteCases } from "./_shared_cases.ts";

const cases = sharedSiteCases("refs re-used during the action", {
  env: { BROWX_CAPABILITIES: "read,navigation,action,eval", BROWX_TOOLSETS: "all" },
});

/** Row 3's control (Carol Cruz's) per mode: its line in the outline, and the item words. */
const CONTROL: Record<string, { line: RegExp; was: string; now: string }> = {
  href: {
    line: /\[Open\]\(\/item\/[^)]*\)\[ref=(e\d+)\]/g,
    was: "/item/Carol%20Cruz",
    now: "/item/Dave%20Dunn",
  },
  btnaria: {
    line: /button "Delete [^"]*" \[ref=(e\d+)\]/g,
    was: `button "Delete Carol Cruz"`,
    now: `button "Delete Dave Dunn"`,
  },
  select: { line: /button "Delete" \[ref=(e\d+)\]/g, was: `"Carol Cruz"`, now: `"Dave Dunn"` },
  placeholder: {
    line: /button "Delete" \[ref=(e\d+)\]/g,
    was: `"Carol Cruz"`,
    now: `"Dave Dunn"`,
  },
  text: { line: /button "Delete" \[ref=(e\d+)\]/g, was: `"Carol Cruz"`, now: `"Dave Dunn"` },
};

/** The refs of the lines matching `line`, in order (5 rows). */
function refsOf(tree: string, line: RegExp): string[] {
  const refs = [...tree.matchAll(line)].map((m) => m[1]!);
  assertEquals(refs.length, 5, `5 rows of ${line} in:\n${tree}`);
  return refs;
}

const evalJs = async (expression: string) =>
  (await cases.value.mcp.ok("eval_js", { expression })).value as string;
const logText = () => evalJs(`document.getElementById("log").textContent`);

for (const mode of ["href", "btnaria", "select", "placeholder"]) {
  cases.test(`${mode}: re-used on the press's events or focus: ref-gone`, async () => {
    for (const on of ["pointerdown", "mouseup", "pointerover", "focus"]) {
      await cases.withPage(`recycle_during.html?mode=${mode}&on=${on}`, async (mcp, tree) => {
        const { line, was, now } = CONTROL[mode]!;
        const r = await mcp.call("click", { ref: refsOf(tree, line)[2]! });
        assertEquals(errorOf(r).code, "ref-gone", `${on}: ${textOf(r)}`);
        assertIncludes(textOf(r), was);
        assertIncludes(textOf(r), now);
        assertEquals(await logText(), "No action yet", on);
        // The rows did shift: the check was not passed by luck of timing.
        assertEquals(await evalJs("itemTexts()[2]"), "Dave Dunn", on);
      });
    }
  });
}

cases.test("href, select, placeholder: re-used between calls: ref-gone", async () => {
  for (const mode of ["href", "select", "placeholder"]) {
    await cases.withPage(`recycle_during.html?mode=${mode}`, async (mcp, tree) => {
      const { line, was, now } = CONTROL[mode]!;
      await evalJs("shift()");
      const r = await mcp.call("click", { ref: refsOf(tree, line)[2]! });
      assertEquals(errorOf(r).code, "ref-gone", `${mode}: ${textOf(r)}`);
      assertIncludes(textOf(r), `(${JSON.stringify(now.replace(/"/g, ""))} instead of`);
      assertIncludes(textOf(r), was.replace(/"/g, ""));
      assertEquals(await logText(), "No action yet", mode);
    });
  }
});

cases.test("a row that reads only its button's label, renamed at the press: ref-gone", async () => {
  // Row 5 becomes "Zed Zulu", a name no ref was shown with: its name was all the row said.
  await cases.withPage("recycle_during.html?mode=btnaria&on=pointerdown", async (mcp, tree) => {
    const r = await mcp.call("click", { ref: refsOf(tree, CONTROL.btnaria!.line)[4]! });
    assertEquals(errorOf(r).code, "ref-gone", textOf(r));
    assertIncludes(textOf(r), `to button "Delete Zed Zulu"`);
    assertEquals(await logText(), "No action yet");
  });
});

cases.test("a delegated capturing listener above the row re-renders on click: ref-gone", async () => {
  for (const at of ["document", "list", "window"]) {
    for (const on of ["click", "mousedown"]) {
      await cases.withPage(`recycle_during.html?mode=text&on=${on}&at=${at}`, async (mcp, tree) => {
        const r = await mcp.call("click", { ref: refsOf(tree, CONTROL.text!.line)[2]! });
        assertEquals(errorOf(r).code, "ref-gone", `${at} ${on}: ${textOf(r)}`);
        assertIncludes(textOf(r), `("Dave Dunn" instead of "Carol Cruz")`);
        assertEquals(await logText(), "No action yet", `${at} ${on}`);
      });
    }
  }
});

cases.test("select and fill_form on a list that shifts on focus: ref-gone, nothing set", async () => {
  for (const on of ["focus", "focusin"]) {
    await cases.withPage(`recycle_during.html?mode=fields&on=${on}`, async (mcp, tree) => {
      const choice = refsOf(tree, /combobox "Action" \[ref=(e\d+)\]/g)[2]!;
      const r = await mcp.call("select", { ref: choice, value: "refund" });
      assertEquals(errorOf(r).code, "ref-gone", `${on}: ${textOf(r)}`);
      assertIncludes(textOf(r), `("Dave Dunn none" instead of "Carol Cruz none")`);
      assertIncludes(textOf(r), "nothing was chosen");
      assertEquals(
        await evalJs("[...document.querySelectorAll('select')].map((s) => s.value).join()"),
        "none,none,none,none,none",
      );
    });
    await cases.withPage(`recycle_during.html?mode=fields&on=${on}`, async (mcp, tree) => {
      const note = refsOf(tree, /textbox "Note" \[ref=(e\d+)\]/g)[2]!;
      const choice = refsOf(tree, /combobox "Action" \[ref=(e\d+)\]/g)[2]!;
      const r = await mcp.call("fill_form", {
        fields: [{ ref: note, value: "VIP" }, { ref: choice, value: "refund" }],
      });
      assertEquals(errorOf(r).code, "ref-gone", `${on}: ${textOf(r)}`);
      assertIncludes(textOf(r), "2 of 2 field(s) not set");
      assertIncludes(textOf(r), "nothing was set in it");
      assertEquals(
        await evalJs("[...document.querySelectorAll('input')].map((s) => s.value).join()"),
        ",,,,",
      );
      await mcp.ok("press", { key: "Tab" });
      assertEquals(await logText(), "No action yet", on);
    });
  }
});

cases.test("fill_form, the list shifting on the field's input: failed, saying it went in", async () => {
  await cases.withPage("recycle_during.html?mode=fields&on=input", async (mcp, tree) => {
    const note = refsOf(tree, /textbox "Note" \[ref=(e\d+)\]/g)[2]!;
    const choice = refsOf(tree, /combobox "Action" \[ref=(e\d+)\]/g)[2]!;
    const r = await mcp.call("fill_form", {
      fields: [{ ref: note, value: "VIP" }, { ref: choice, value: "refund" }],
    });
    assertEquals(errorOf(r).code, "ref-gone", textOf(r));
    assertIncludes(textOf(r), "2 of 2 field(s) failed (1 set before the page re-used it)");
    assertIncludes(textOf(r), "as its input and change events ran");
    assertIncludes(textOf(r), "its value was set first");
    const fields = r.structuredContent?.fields as Array<{ ok: boolean; set?: boolean }>;
    assertEquals(fields.map((f) => [f.ok, f.set ?? false]), [[false, true], [false, false]]);
    // The second field was re-used before it was set: nothing chosen.
    assertEquals(
      await evalJs("[...document.querySelectorAll('select')].map((s) => s.value).join()"),
      "none,none,none,none,none",
    );
  });
});

cases.test("no shift: the same refs act, also after the agent chose and filled", async () => {
  for (const mode of ["href", "btnaria", "select", "placeholder"]) {
    await cases.withPage(`recycle_during.html?mode=${mode}`, async (mcp, tree) => {
      await act(mcp, "click", { ref: refsOf(tree, CONTROL[mode]!.line)[2]! });
      assertEquals(await logText(), "Clicked Carol Cruz", mode);
    });
  }
  // The agent's own choice in a row's select is no re-use of the row.
  await cases.withPage("recycle_during.html?mode=select", async (mcp, tree) => {
    const select = refsOf(tree, /combobox \[ref=(e\d+)\]/g)[2]!;
    await act(mcp, "select", { ref: select, label: "Zed Zulu" });
    await act(mcp, "click", { ref: refsOf(tree, CONTROL.select!.line)[2]! });
    await act(mcp, "fill_form", { fields: [{ ref: select, value: "Bob Brown" }] });
    await act(mcp, "click", { ref: refsOf(tree, CONTROL.select!.line)[2]! });
    assertEquals(await logText(), "Clicked Carol Cruz; Clicked Carol Cruz");
  });
  await cases.withPage("recycle_during.html?mode=placeholder", async (mcp, tree) => {
    await act(mcp, "fill", {
      ref: refsOf(tree, /textbox "[^"]*" \[ref=(e\d+)\]/g)[2]!,
      value: "x",
    });
    await act(mcp, "click", { ref: refsOf(tree, CONTROL.placeholder!.line)[2]! });
    assertEquals(await logText(), "Clicked Carol Cruz");
  });
  await cases.withPage("recycle_during.html?mode=fields", async (mcp, tree) => {
    const note = refsOf(tree, /textbox "Note" \[ref=(e\d+)\]/g)[1]!;
    const choice = refsOf(tree, /combobox "Action" \[ref=(e\d+)\]/g)[1]!;
    await act(mcp, "fill_form", {
      fields: [{ ref: note, value: "VIP" }, { ref: choice, value: "ship" }],
    });
    await act(mcp, "select", { ref: choice, value: "refund" });
    assertEquals(
      await logText(),
      "Noted Bob Brown=VIP; Chose Bob Brown=ship; Chose Bob Brown=refund",
    );
  });
});

cases.test("bad input: select of a missing option on a row is not-found, nothing chosen", async () => {
  await cases.withPage("recycle_during.html?mode=fields", async (mcp, tree) => {
    const choice = refsOf(tree, /combobox "Action" \[ref=(e\d+)\]/g)[2]!;
    const r = await mcp.call("select", { ref: choice, value: "return" });
    assertEquals(errorOf(r).code, "not-found", textOf(r));
    assertEquals(await logText(), "No action yet");
  });
});
