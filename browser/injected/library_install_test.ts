/**
 * The page library's parts on a real page: a read installs the core only, an action's first
 * call adds the acting group, a form watch the forms group (not the form tools' writing),
 * each where it is called; a new document starts again from nothing.
 */
import { assertEquals, assertTrue } from "../../tests/_assert.ts";
import { launchTestBrowser } from "../../tests/_harness.ts";
import type { Page } from "../../cdp/page.ts";
import { callOnHandle, callUtility, callUtilityHandle, releaseHandle } from "./mod.ts";

const PAGE = `<!doctype html><form action="/send" method=post>
<label>Name <input name=name id=name></label><button>Send</button></form>`;

/** Which of the library's groups the utility world of the main frame holds. */
async function groups(page: Page): Promise<string[]> {
  return await page.evaluate(
    `(() => { const api = globalThis.__browxai; return api ? ["core", ...["__act", "__cover",
      "__forms", "__formEdit", "__inspect", "__find"].filter((f) => api[f])] : []; })()`,
  ) as string[];
}

Deno.test("page library: a read gets the core, an action the acting group, a form watch the forms group", async () => {
  const tb = await launchTestBrowser();
  try {
    const page = await tb.newPage();
    await page.navigate("data:text/html," + encodeURIComponent(PAGE));
    const snap = await callUtility(page, page.mainFrameId, "snapshotWithGeneration", [{}]);
    assertTrue(snap.text.includes('textbox "Name"'), snap.text);
    assertEquals(await groups(page), ["core"]);
    const input = await callUtilityHandle(page, page.mainFrameId, "query", ["#name"]);
    assertTrue(input !== undefined, "the input was found");
    assertEquals(await groups(page), ["core", "__act"]);
    const watch = await callOnHandle(input!, "formWatchSubmit");
    assertEquals(watch.form, true);
    assertEquals(await callOnHandle(input!, "formSubmitState"), watch);
    assertEquals(await groups(page), ["core", "__act", "__forms"]);
    releaseHandle(input!);
    // A new document: its world gets the library anew, all a first call needs in one go.
    await page.navigate("data:text/html," + encodeURIComponent(PAGE + "<p>again</p>"));
    const sends = await callUtility(page, page.mainFrameId, "formsSendTo");
    assertEquals(sends.length, 1);
    assertTrue(sends[0]!.startsWith("POST "), sends[0]);
    assertEquals(await groups(page), ["core", "__act", "__forms"]);
  } finally {
    await tb.close();
  }
});
