/**
 * `find` on a 3,000-row table (NU: 4.7 s): the page-side scan stops reading a control once it
 * cannot make the best (`find_score_lib.ts`), which must not change what is found. The same
 * query asked for 5 and for 20 candidates (the scan keeps 15 and 60) answers the same first 5;
 * the row asked for comes first; an ordinal still counts every equal match.
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { launchTestBrowser } from "./_harness.ts";
import { servePages } from "./_util.ts";
import { findElements } from "../browser/find/find_elements.ts";
import { FindMemory } from "../browser/find/memory.ts";
import { RefRegistry } from "../browser/snapshot/refs.ts";

const rows = Array.from(
  { length: 3000 },
  (_, i) =>
    `<tr><td>${i}</td><td>Product ${i}</td><td>$${
      i % 90
    }.99</td><td><a href="/p/${i}">View</a></td><td><button>Add</button></td></tr>`,
).join("\n");
const PAGE = `<!doctype html><title>Catalog</title><h1>Catalog</h1>
<table><thead><tr><th>#</th><th>Name</th><th>Price</th><th>Link</th><th>Cart</th></tr></thead>
<tbody>${rows}</tbody></table>`;

Deno.test("find on a 3,000-row table: the same answers however many are kept", async () => {
  const pages = servePages({ "/": PAGE });
  const tb = await launchTestBrowser();
  try {
    const page = await tb.newPage();
    await page.navigate(`${pages.base}/`);
    const refs = new RefRegistry();
    const ask = async (query: string, limit: number) =>
      (await findElements(page, { query, limit }, { refs, memory: new FindMemory() }))
        .candidates.map((c) => [c.role, c.name, c.score, c.selectorHint, c.why]);
    for (const query of ["Add Product 2999 to cart", "Product 12"]) {
      const five = await ask(query, 5);
      const twenty = await ask(query, 20);
      assertEquals(twenty.slice(0, 5), five, query);
    }
    const [first] = await ask("Add Product 2999 to cart", 5);
    assertEquals(first?.[3], "body tr:nth-of-type(3000) button");
    const [view] = await ask("View Product 1500", 5);
    assertEquals(view?.[3], 'a[href="/p/1500"]');
    const last = await findElements(page, { query: "last Add button" }, {
      refs,
      memory: new FindMemory(),
    });
    assertTrue(/last of 3000/.test(last.candidates[0]!.why), last.candidates[0]!.why);
  } finally {
    await tb.close();
    await pages.close();
  }
});
