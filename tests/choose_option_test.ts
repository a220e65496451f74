/**
 * `choose_option` end to end over MCP on fixtures modelled on widely used widgets: the APG
 * editable and select-only comboboxes, the APG scrollable listbox, portal listboxes as
 * React-Select and MUI render them (options rendered only once open, a list that fills in as
 * it scrolls), the APG menu button and a dropdown without ARIA; a native <select>; a combobox
 * in a cross-origin iframe; bad input.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { type McpHarness, textOf } from "./_mcp.ts";
import { actionOf, errorOf } from "./_results.ts";
import { eventually, refOf } from "./_util.ts";
import { sharedSiteCases } from "./_shared_cases.ts";

const ENV = {
  BROWX_TOOLSETS: "core,sessions,debug,power",
  BROWX_CAPABILITIES: "read,navigation,action,eval",
};

// One server and fixture site for every case; each case runs in a fresh default session.
const cases = sharedSiteCases("choose_option: widgets modelled on widely used ones, one server", {
  env: ENV,
});
const withPage = cases.withPage;

async function text(mcp: McpHarness, selector: string): Promise<string> {
  const r = await mcp.ok("eval_js", {
    expression: `document.querySelector(${JSON.stringify(selector)}).textContent`,
  });
  return String(r.value);
}

type Owner = {
  label: string;
  displayTextBefore: string;
  displayTextAfter: string;
  changed: boolean;
};

function ownerOf(r: Record<string, unknown>): Owner {
  return (r.element as { ownerControl: Owner }).ownerControl;
}

cases.test("choose_option: APG editable combobox, an option below the list's fold", async () => {
  await withPage("choose-combobox-editable.html", async (mcp, tree) => {
    const ref = refOf(tree, /combobox "State"/);
    const r = await mcp.ok("choose_option", { ref, option: "Wyoming" });
    assertEquals(r.ok, true);
    assertEquals(ownerOf(r), {
      label: "State",
      displayTextBefore: "",
      displayTextAfter: "Wyoming",
      changed: true,
    });
    assertEquals(await text(mcp, "#chosen"), "Wyoming");
    const open = await mcp.ok("eval_js", {
      expression: `document.getElementById("cb1-input").getAttribute("aria-expanded")`,
    });
    assertEquals(open.value, "false");
  });
});

cases.test("choose_option: APG select-only combobox; a part of the text; bad input", async () => {
  await withPage("choose-combobox-select.html", async (mcp, tree) => {
    const ref = refOf(tree, /combobox "Favorite Fruit/);
    const r = await mcp.ok("choose_option", { ref, option: "guava", exact: false });
    assertEquals(ownerOf(r), {
      label: "Favorite Fruit",
      displayTextBefore: "Choose a Fruit",
      displayTextAfter: "Guava",
      changed: true,
    });
    assertEquals(await text(mcp, "#picked"), "Guava");

    // Two options contain "grape": the first is taken, and the result says so.
    const two = await mcp.ok("choose_option", { ref, option: "grape", exact: false });
    assertEquals(ownerOf(two).displayTextAfter, "Grape");
    assertIncludes((two.warnings as string[]).join("\n"), "2 options match");

    // No such option: the error names the options there are, and the list is closed again.
    const none = await mcp.call("choose_option", { ref, option: "Mango" });
    assertEquals(none.isError, true);
    const err = errorOf(none);
    assertEquals(err.code, "not-found");
    assertIncludes(err.message, '"Apple", "Banana"');
    assertIncludes(err.hint, "exact: false");
    assertEquals((actionOf(none) as { options?: string[] }).options?.includes("Huckleberry"), true);
    const expanded = await mcp.ok("eval_js", {
      expression: `document.getElementById("combo1").getAttribute("aria-expanded")`,
    });
    assertEquals(expanded.value, "false");

    // A disabled option is refused, naming it.
    const off = await mcp.call("choose_option", { ref, option: "Durian" });
    assertEquals(errorOf(off).code, "not-enabled");
    assertIncludes(errorOf(off).message, "Durian");
    assertEquals(await text(mcp, "#picked"), "Grape");

    // Its label (aria-labelledby, no `for`) stands for it.
    const byLabel = await mcp.ok("choose_option", {
      selector: "text=Favorite Fruit",
      option: "Cherry",
    });
    assertEquals(ownerOf(byLabel).displayTextAfter, "Cherry");
    assertIncludes((byLabel.warnings as string[]).join("\n"), "labels a control");
    assertEquals(await text(mcp, "#picked"), "Cherry");

    // Not a control: a heading.
    const h1 = await mcp.call("choose_option", { selector: "h1", option: "Apple" });
    assertEquals(h1.isError, true);
    assertEquals(errorOf(h1).code, "invalid-argument");
    assertIncludes(textOf(h1), "not a combobox, listbox, menu or button");
  });
});

cases.test("choose_option: APG scrollable listbox (the list itself is the target)", async () => {
  await withPage("choose-listbox.html", async (mcp, tree) => {
    const ref = refOf(tree, /listbox "Transuranium elements:"/);
    const r = await mcp.ok("choose_option", { ref, option: "Oganesson" });
    assertEquals(ownerOf(r), {
      label: "Transuranium elements:",
      displayTextBefore: "Neptunium",
      displayTextAfter: "Oganesson",
      changed: true,
    });
    assertEquals(await text(mcp, "#selected"), "Oganesson");
  });
});

cases.test("choose_option: portal listboxes (React-Select, MUI): late and lazily filled options", async () => {
  await withPage("choose-portal.html", async (mcp, tree) => {
    // React-Select: options appear 200 ms after the menu opens, in a list appended to <body>.
    const flavour = refOf(tree, /combobox "Flavour"/);
    const r = await mcp.ok("choose_option", { ref: flavour, option: "Salted Caramel" });
    assertEquals(ownerOf(r), {
      label: "Flavour",
      displayTextBefore: "Select...",
      displayTextAfter: "Salted Caramel",
      changed: true,
    });
    assertEquals(await text(mcp, "#order"), "Salted Caramel");
    // No such flavour: the options are named, and the menu it opened is gone again.
    const lemon = await mcp.call("choose_option", { ref: flavour, option: "Lemon" });
    assertIncludes(errorOf(lemon).message, '"Chocolate", "Strawberry"');
    const menus = await mcp.ok("eval_js", {
      expression: `document.querySelectorAll(".select__menu").length`,
    });
    assertEquals(menus.value, 0);

    // MUI: option 37 exists only once the list has been scrolled (ten options at a time).
    const age = refOf(tree, /combobox "Age/);
    const m = await mcp.ok("choose_option", { ref: age, option: "37 years" });
    assertEquals(ownerOf(m).label, "Age");
    assertEquals(ownerOf(m).displayTextBefore, "");
    assertEquals(ownerOf(m).displayTextAfter, "37 years");
    assertEquals(ownerOf(m).changed, true);
    assertEquals(await text(mcp, "#order"), "37 years");
    const value = await mcp.ok("eval_js", {
      expression: `document.querySelector("input[name=age]").value`,
    });
    assertEquals(value.value, "37");

    // Past the end of the list: not found, and the options seen are named.
    const none = await mcp.call("choose_option", { ref: age, option: "99 years" });
    assertEquals(errorOf(none).code, "not-found");
    assertIncludes(errorOf(none).message, '"1 years"');
  });
});

cases.test("choose_option: APG menu button, and a dropdown without ARIA", async () => {
  await withPage("choose-menu.html", async (mcp, tree) => {
    const ref = refOf(tree, /button "Actions"/);
    const r = await mcp.ok("choose_option", { ref, option: "Action 3" });
    assertEquals(r.ok, true);
    assertEquals(ownerOf(r).displayTextAfter, "Actions");
    assertEquals(await text(mcp, "#action_output"), "Action 3");

    // Inside a batch (seed 000's whitelist names it).
    const b = await mcp.ok("batch", {
      calls: [{ tool: "choose_option", args: { ref, option: "Action 1", snapshot: "none" } }],
    });
    assertEquals(b.completed, 1);
    assertEquals(await text(mcp, "#action_output"), "Action 1");

    // No role option or menuitem shows: the option is found by its text, and the result says so.
    const sort = refOf(tree, /button "Sort: Newest"/);
    const s = await mcp.ok("choose_option", { ref: sort, option: "Oldest" });
    assertEquals(ownerOf(s).displayTextAfter, "Sort: Oldest");
    assertEquals(ownerOf(s).changed, true);
    assertIncludes((s.warnings as string[]).join("\n"), "by its text");
  });
});

cases.test("choose_option: a native <select> is chosen as select chooses", async () => {
  await withPage("form.html", async (mcp) => {
    const r = await mcp.ok("choose_option", { selector: "text=Plan", option: "Team" });
    assertEquals(ownerOf(r), {
      label: "Plan",
      displayTextBefore: "Free",
      displayTextAfter: "Team",
      changed: true,
    });
    const v = await mcp.ok("eval_js", { expression: `document.getElementById("plan").value` });
    assertEquals(v.value, "team");
    const none = await mcp.call("choose_option", { selector: "#plan", option: "Gold" });
    assertEquals(errorOf(none).code, "not-found");
    assertIncludes(errorOf(none).message, '"Free", "Pro", "Team"');
    // Bad arguments are refused before anything runs.
    const both = await mcp.call("choose_option", { ref: "e1", selector: "#plan", option: "Pro" });
    assertEquals(both.isError, true);
    assertIncludes(textOf(both), "Too many targets");
    const empty = await mcp.call("choose_option", { selector: "#plan", option: "" });
    assertEquals(empty.isError, true);
  });
});

cases.test("choose_option, dom_read, styles_read: in a cross-origin iframe (out of process)", async ({ fx, mcp }) => {
  const cross = fx.crossUrl("choose-combobox-select.html");
  await mcp.ok("navigate", {
    url: fx.url(`iframes.html?cross=${encodeURIComponent(cross)}`),
    snapshot: "none",
  });
  const ref = await eventually(async () => {
    const tree = String((await mcp.ok("snapshot")).tree);
    return /combobox "Favorite Fruit/.test(tree) && refOf(tree, /combobox "Favorite Fruit/);
  });
  const r = await mcp.ok("choose_option", { ref, option: "Fig" });
  assertEquals(ownerOf(r), {
    label: "Favorite Fruit",
    displayTextBefore: "Choose a Fruit",
    displayTextAfter: "Fig",
    changed: true,
  });
  // dom_read and styles_read reach into the frame by a ref from it too.
  const dom = await mcp.ok("dom_read", { ref, depth: 1 });
  assertIncludes(String(dom.tree), `div#combo1.combo-input [ref=${ref}]`);
  assertIncludes(String(dom.tree), '"Fig"');
  const styles = await mcp.ok("styles_read", { ref, properties: ["border-top-width"] });
  assertEquals(styles.properties, { "border-top-width": "1px" });
});

cases.test("choose_option: a control that opens no list never takes another control's option", async () => {
  await withPage("choose-unrelated.html", async (mcp) => {
    // A plain button next to an always-shown listbox: the listbox is not its list.
    const r = await mcp.call("choose_option", { selector: "#notify", option: "Spain" });
    assertEquals(r.isError, true, textOf(r));
    assertEquals(errorOf(r).code, "not-found");
    // It was pressed (a new user's "Start job" ran): the error says so, not "opened".
    assertIncludes(errorOf(r).message, "was clicked to open a list and none showed");
    assertIncludes(errorOf(r).message, "plain button");
    assertEquals(await text(mcp, "#picked"), "none");
    // A dropdown without ARIA still works: its list shows once it is opened, and the same text
    // in the always-shown listbox is not taken for it.
    const more = actionOf(await mcp.call("choose_option", { selector: "#more", option: "Spain" }));
    assertEquals(more.ok, true);
    assertEquals(await text(mcp, "#more-picked"), "Spain");
    assertEquals(await text(mcp, "#picked"), "none");
  });
});

cases.test("choose_option: no such option in a list that ignores Escape: closed, or said open", async () => {
  await withPage("choose-sticky.html", async (mcp) => {
    const expanded = async (id: string) =>
      (await mcp.ok("eval_js", {
        expression: `document.getElementById(${JSON.stringify(id)}).getAttribute("aria-expanded")`,
      })).value;
    // A toggle: Escape does nothing, a second click on the control closes it.
    const size = await mcp.call("choose_option", { selector: "#size", option: "XXL" });
    assertEquals(errorOf(size).code, "not-found");
    assertIncludes(errorOf(size).message, '"S", "M", "L"');
    assertEquals(errorOf(size).message.includes("still open"), false, errorOf(size).message);
    assertEquals(await expanded("size"), "false");
    // A control that only opens: the error says the list is still open.
    const color = await mcp.call("choose_option", { selector: "#color", option: "Green" });
    assertEquals(errorOf(color).code, "not-found");
    assertIncludes(errorOf(color).message, "still open");
    assertIncludes(textOf(color), "close the list");
    assertEquals(color.structuredContent!.listOpen, true);
    assertEquals(await expanded("color"), "true");
  });
});
