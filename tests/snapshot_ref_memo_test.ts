/**
 * A page sends the facts of a ref the registry read before as `[id]` alone
 * (browser/injected/ref_memo_lib.ts, browser/snapshot/read_memo.ts): a re-read of a 3000-row
 * table moves its text and ids, not 3000 rows' facts again; a changed ref comes whole; another
 * registry, a walk the Deno side never read, and facts the registry lost all get whole facts.
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { launchTestBrowser } from "./_harness.ts";
import { callUtility } from "../browser/injected/mod.ts";
import { captureSnapshot } from "../browser/snapshot/capture.ts";
import { RefRegistry } from "../browser/snapshot/refs.ts";
import { tablePage } from "../bench/stress_pages.ts";

Deno.test("snapshot refs: known facts go short, changed or unknown ones whole", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(tablePage(3000).html, { headers: { "content-type": "text/html" } }),
  );
  const tb = await launchTestBrowser();
  try {
    const page = await tb.newPage();
    await page.navigate(`http://127.0.0.1:${server.addr.port}/`);
    const doc = () => ({
      targetId: page.target.targetId,
      frameId: page.mainFrameId,
      loaderId: page.frame(page.mainFrameId)!.loaderId,
    });
    const raw = (registry: RefRegistry) =>
      callUtility(page, page.mainFrameId, "snapshotWithGeneration", [
        registry.reads.ackFor(doc()),
      ]);
    const refs = new RefRegistry();
    const first = await captureSnapshot(page, refs);
    assertEquals(first.refCount, 3000);

    // Read again: every ref short, and the answer a fraction of the first's size.
    const again = await raw(refs);
    assertTrue(again.refs.every((r) => r.length === 1), "every ref short");
    const whole = await raw(new RefRegistry());
    assertTrue(whole.refs.every((r) => r.length === 5), "another registry: every ref whole");
    const size = (x: unknown) => JSON.stringify(x).length;
    assertTrue(
      size(again.refs) < size(whole.refs) / 5,
      `${size(again.refs)} vs ${size(whole.refs)}`,
    );

    // A walk never read (`again` above) sent nothing the registry holds: a name changed since
    // the first read comes whole, and the registry and text follow it.
    await page.evaluate(`document.querySelectorAll("button")[5].textContent = "Sold out 5"`);
    await raw(refs);
    const second = await captureSnapshot(page, refs);
    assertTrue(second.text.includes('| Item 5 | 15 EUR | button "Sold out 5" [ref=e6]'), "e6");
    assertEquals(refs.get("e6")!.name, "Sold out 5");
    assertEquals(second.text, first.text.replace('"Buy 5"', '"Sold out 5"'));
    const third = await raw(refs);
    assertEquals(third.refs.filter((r) => r.length > 1).length, 0);

    // A registry that lost what it read (here: another registry under the same name) reads
    // the facts again whole.
    const lost = new RefRegistry();
    Object.defineProperty(lost.reads, "token", { value: refs.reads.token });
    lost.reads.record(doc(), third.instance, third.walk, new Map());
    const relearned = await captureSnapshot(page, lost);
    assertEquals(relearned.text, second.text);
    assertEquals([lost.get("e6")!.role, lost.get("e6")!.name], ["button", "Sold out 5"]);
    assertEquals(lost.get("e3000")!.context, { kind: "row", text: "Item 2999 39 EUR" });
  } finally {
    await tb.close();
    await server.shutdown();
  }
});
