/**
 * `find`'s ordinals count every close match in page order, however many there are: "last Buy
 * button" of 3000 rows is the 3000th (was: the 1000th, "last of 1000", with no warning: the
 * page returned the best 1000 only).
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { launchTestBrowser } from "./_harness.ts";
import { findElements } from "../browser/find/find_elements.ts";
import { FindMemory } from "../browser/find/memory.ts";
import { RefRegistry } from "../browser/snapshot/refs.ts";

Deno.test("find: an ordinal among 3000 equal matches counts them all", async () => {
  const rows = Array.from(
    { length: 3000 },
    (_, i) =>
      `<tr><td>Item ${i}</td><td>${i % 90 + 10} EUR</td><td><button>Buy ${i}</button></td></tr>`,
  )
    .join("");
  const html = `<!doctype html><title>Big</title><table>${rows}</table>`;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(html, { headers: { "content-type": "text/html" } }),
  );
  const tb = await launchTestBrowser();
  try {
    const page = await tb.newPage();
    await page.navigate(`http://127.0.0.1:${server.addr.port}/`);
    const refs = new RefRegistry();
    const find = (query: string) =>
      findElements(page, { query, limit: 3 }, { refs, memory: new FindMemory() });
    const cases: Array<[string, string, string]> = [
      ["last Buy button", "Buy 2999", "last of 3000"],
      ["second Buy button", "Buy 1", "2nd of 3000"],
      ["second to last Buy button", "Buy 2998", "2nd from last of 3000"],
    ];
    for (const [query, name, why] of cases) {
      const answer = await find(query);
      const top = answer.candidates[0];
      if (!top) throw new Error(`${query}: ${JSON.stringify(answer)}`);
      assertEquals(top.name, name, `${query}: ${JSON.stringify(top)}`);
      assertIncludes(top.why, why);
    }
  } finally {
    await tb.close();
    await server.shutdown();
  }
});
