/** Keyboard and mouse input in real Chromium (the pure tests are in input_test.ts). */
import { assertEquals, assertIncludes } from "../tests/_assert.ts";
import { launchTestBrowser } from "../tests/_harness.ts";
import { eventually } from "../tests/_util.ts";
import { Keyboard } from "./input.ts";
import { Mouse } from "./mouse_input.ts";
import type { Page } from "./page.ts";

// ------------------------------------------------------ real Chromium tests

/** Logs key, input and mouse events as "type key code mods" into window.log. */
const LOGGER = `<script>
window.log = [];
const mods = (e) => (e.ctrlKey ? "C" : "") + (e.shiftKey ? "S" : "") + (e.altKey ? "A" : "") +
  (e.metaKey ? "M" : "");
for (const t of ["keydown", "keypress", "keyup"]) {
  addEventListener(t, (e) => log.push([t, e.key, e.code, mods(e)].join(" ")), true);
}
for (const t of ["click", "dblclick", "contextmenu", "mousedown"]) {
  addEventListener(t, (e) => log.push([t, e.button, e.detail, mods(e), e.clientX, e.clientY,
    e.target.id].join(" ")), true);
}
</script>`;

async function load(page: Page, html: string): Promise<void> {
  await page.navigate("data:text/html," + encodeURIComponent(html + LOGGER));
}

function js(page: Page, expression: string): Promise<unknown> {
  return page.evaluate(expression, { world: "main" });
}

Deno.test("Keyboard types, edits and navigates in real Chromium", async (t) => {
  const tb = await launchTestBrowser();
  try {
    const page = await tb.newPage();
    const kb = new Keyboard(page.session);
    const value = (id: string) => js(page, `document.getElementById(${JSON.stringify(id)}).value`);

    await t.step("type() gives the typed value", async () => {
      await load(page, `<input id=i autofocus>`);
      await js(page, "i.focus()");
      await kb.type("Hello, World! 123");
      assertEquals(await value("i"), "Hello, World! 123");
      await kb.type(" héllo😀\n");
      assertEquals(await value("i"), "Hello, World! 123 héllo😀");
    });

    await t.step("keydown sees key, code and modifiers", async () => {
      await load(page, `<input id=i>`);
      await js(page, "i.focus()");
      await kb.press("Shift+A");
      await kb.press("Control+a");
      await kb.press("Escape");
      assertEquals(await js(page, "log"), [
        "keydown Shift ShiftLeft S",
        "keydown A KeyA S",
        "keypress A KeyA S",
        "keyup A KeyA S",
        "keyup Shift ShiftLeft ",
        "keydown Control ControlLeft C",
        "keydown a KeyA C",
        "keyup a KeyA C",
        "keyup Control ControlLeft ",
        "keydown Escape Escape ",
        "keyup Escape Escape ",
      ]);
    });

    await t.step("Control+a, Backspace, Shift+ArrowLeft and Control+c/v edit", async () => {
      await load(page, `<input id=i value="hello world"><textarea id=t></textarea>`);
      await js(page, "i.focus(); i.setSelectionRange(11, 11)");
      await kb.press("Shift+ArrowLeft");
      await kb.press("Shift+ArrowLeft");
      assertEquals(await js(page, "[i.selectionStart, i.selectionEnd]"), [9, 11]);
      await kb.press("Control+a");
      assertEquals(await js(page, "[i.selectionStart, i.selectionEnd]"), [0, 11]);
      await kb.press("Control+c");
      await js(page, "t.focus()");
      await kb.press("Control+v");
      await kb.press("Control+v");
      assertEquals(await value("t"), "hello worldhello world");
      await kb.press("Control+z");
      assertEquals(await value("t"), "hello world", "one undo step");
      await js(page, "i.focus()");
      await kb.press("Control+a");
      await kb.press("Backspace");
      assertEquals(await value("i"), "");
    });

    await t.step("Enter submits a form, Tab and Shift+Tab move focus", async () => {
      await load(
        page,
        `<form onsubmit="event.preventDefault(); window.submitted = (window.submitted || 0) + 1">
           <input id=a><input id=b><button>Send</button></form><textarea id=t></textarea>`,
      );
      await js(page, "a.focus()");
      await kb.type("x");
      await kb.press("Enter");
      assertEquals(await js(page, "window.submitted"), 1);
      await kb.press("Tab");
      assertEquals(await js(page, "document.activeElement.id"), "b");
      await kb.press("Shift+Tab");
      assertEquals(await js(page, "document.activeElement.id"), "a");
      await js(page, "t.focus()");
      await kb.type("one\ntwo");
      assertEquals(await value("t"), "one\ntwo");
    });
  } finally {
    await tb.close();
  }
});

Deno.test("Mouse clicks, double-clicks, right-clicks and scrolls in real Chromium", async (t) => {
  const tb = await launchTestBrowser();
  try {
    const page = await tb.newPage();
    const mouse = new Mouse(page.session);
    await load(
      page,
      `<body style="margin:0;height:5000px">
       <button id=b style="position:absolute;left:100px;top:100px;width:100px;height:40px">Go</button>`,
    );
    const [cx, cy] = await js(
      page,
      "(r => [r.x + r.width / 2, r.y + r.height / 2])(b.getBoundingClientRect())",
    ) as [number, number];
    const take = async () => await js(page, "log.splice(0)") as string[];

    await t.step("a click at the button's centre fires click", async () => {
      await mouse.click(cx, cy);
      assertEquals((await take()).filter((l) => l.startsWith("click")), [
        `click 0 1  ${cx} ${cy} b`,
      ]);
    });

    await t.step("a double click fires dblclick with detail 2", async () => {
      await mouse.click(cx, cy, { clickCount: 2 });
      const log = await take();
      assertEquals(log.filter((l) => /^(dbl)?click/.test(l)), [
        `click 0 1  ${cx} ${cy} b`,
        `click 0 2  ${cx} ${cy} b`,
        `dblclick 0 2  ${cx} ${cy} b`,
      ]);
    });

    await t.step("a right click fires contextmenu", async () => {
      await mouse.click(cx, cy, { button: "right" });
      assertEquals((await take()).filter((l) => /^(contextmenu|click)/.test(l)), [
        `contextmenu 2 0  ${cx} ${cy} b`,
      ]);
    });

    await t.step("Control+click and Shift+click carry the modifiers", async () => {
      await mouse.click(cx, cy, { modifiers: ["Control"] });
      await mouse.click(cx, cy, { modifiers: ["Shift"] });
      const log = await take();
      assertIncludes(log.join("\n"), "keydown Control ControlLeft C");
      assertEquals(log.filter((l) => l.startsWith("click")), [
        `click 0 1 C ${cx} ${cy} b`,
        `click 0 1 S ${cx} ${cy} b`,
      ]);
      assertEquals(mouse.keyboard.modifiers(), 0);
    });

    await t.step("wheel scrolls the page down", async () => {
      assertEquals(await js(page, "scrollY"), 0);
      await mouse.wheel(300, 300, { deltaY: 400 });
      await eventually(
        async () => (await js(page, "scrollY") as number) > 0,
        3000,
        "scrollY to grow",
      );
    });
  } finally {
    await tb.close();
  }
});
