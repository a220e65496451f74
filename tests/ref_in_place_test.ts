/**
 * Refs on rows the page rewrites in place, same nodes (`ref_in_place.html`), a red team's cases
 * that acted with no word: a price, an amount or a seat the agent was never shown ("Widget $12"
 * for "$10", "Transfer $99,999" for "$10", "Seat 14B" for "12B", a price past a long row's
 * first 80 characters, a price the page rewrites as the pointer arrives) fails `ref-gone` with
 * what the row reads now, and nothing is pressed; the same ref then acts on the row as told. A
 * time that ticks ("3s ago" → "5s ago") is no change: the ref acts at once. Told once, a row
 * whose numbers keep changing (a ticker) is acted on, the result saying what it read.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { act, errorOf } from "./_results.ts";

Deno.test("refs on rows rewritten in place: a changed price is told before anything is done", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const log = async () =>
    (await mcp.ok("eval_js", { expression: `document.getElementById("log").textContent` }))
      .value as string;
  const set = (id: string, text: string) =>
    mcp.ok("eval_js", { expression: `setText(${JSON.stringify(id)}, ${JSON.stringify(text)})` });
  let tree = "";
  const ref = (name: string) => {
    const m = new RegExp(`- button "${name}" \\[ref=(e\\d+)\\]`).exec(tree);
    if (!m) throw new Error(`no button ${name} in:\n${tree}`);
    return m[1]!;
  };
  try {
    await mcp.ok("navigate", { url: fx.url("ref_in_place.html"), snapshot: "none" });
    tree = String((await mcp.ok("snapshot")).tree);

    for (
      const [name, id, was, now, row] of [
        ["Buy", "widget", "$10", "$12", "Widget $12"],
        ["Approve", "amount", "$10", "$99,999", "Transfer $99,999 to Bob"],
        ["Book", "seat", "12B", "14B", "Seat 14B"],
      ] as const
    ) {
      await t.step(`${row}, rewritten from ${was}: told, then acted on as told`, async () => {
        const before = await log();
        await set(id, now);
        const r = await mcp.call("click", { ref: ref(name) });
        const error = errorOf(r);
        assertEquals(error.code, "ref-gone", textOf(r));
        assertIncludes(textOf(r), `now reads "${row}"`);
        assertIncludes(textOf(r), "nothing was done");
        assertIncludes(textOf(r), `act on ${ref(name)} again`);
        assertEquals(await log(), before);
        // Told what the row reads, the agent acts again: the same ref, the row as it is.
        await act(mcp, "click", { ref: ref(name) });
        assertEquals(await log(), `${name}: ${row} ${name}`);
      });
    }

    await t.step("a row whose numbers keep changing: told once, then acted on", async () => {
      await set("tick", "$30.50");
      const r = await mcp.call("click", { ref: ref("Trade") });
      assertEquals(errorOf(r).code, "ref-gone", textOf(r));
      assertIncludes(textOf(r), "they change on their own");
      // The agent acts again; the price has moved once more: acted on, and said what it read.
      await set("tick", "$31.00");
      const again = await act(mcp, "click", { ref: ref("Trade") });
      assertIncludes(
        JSON.stringify(again.warnings),
        `read \\"ACME $31.00\\" when acted on (shown as \\"ACME $30.50\\"`,
      );
      assertEquals(await log(), "Trade: ACME $31.00 Trade");
    });

    await t.step("a time that ticks is no change: the ref acts at once", async () => {
      await set("ago", "5s");
      await act(mcp, "click", { ref: ref("Retry") });
      assertEquals(await log(), "Retry: Build 42 finished 5s ago Retry");
    });

    await t.step("a price past a long row's first 80 characters", async () => {
      await set("far", "$10,000");
      const r = await mcp.call("click", { ref: ref("Pay") });
      assertEquals(errorOf(r).code, "ref-gone", textOf(r));
      assertIncludes(textOf(r), "now reads otherwise after");
      assertEquals((await log()).startsWith("Pay"), false);
    });

    await t.step("a price the page rewrites as the pointer arrives: nothing pressed", async () => {
      const r = await mcp.call("click", { ref: ref("Order") });
      assertEquals(errorOf(r).code, "ref-gone", textOf(r));
      assertIncludes(textOf(r), "$500");
      assertEquals((await log()).startsWith("Order"), false, await log());
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
