/**
 * find / plan when the item a query names is not on the page (NU s14 finding 1): "remove Milk
 * Frother from cart" with only Red Mug in the cart bound Red Mug's Remove, and execute removed
 * it; "delete Gamma" on React's TodoMVC deleted Alpha. A candidate that nothing around mentions
 * the item's words for is marked (`unmentioned`) and ranked below, find warns, plan refuses; a
 * typo of a present item still finds it.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { errorOf } from "./_results.ts";
import { eventually, servePages } from "./_util.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { ensureTodoMvc } from "./fixtures/todomvc.ts";

type R = Record<string, unknown>;

const SHOP = `<!doctype html><title>Shop</title>
<header><h1>Tiny Shop</h1><span id=count>Cart: 1 items</span></header>
<main>${
  ["Red Mug", "Blue Mug", "Milk Frother"].map((p) =>
    `<div class=card><h3>${p}</h3><p>$12.50</p><button>Add to cart</button></div>`
  ).join("")
}</main>
<section id=cart><h2>Your cart</h2><ul id=list><li>Red Mug $12.50 <button>Remove</button></li></ul></section>
<script>
document.getElementById("list").addEventListener("click", (e) => {
  if (e.target.closest("button")) { e.target.closest("li").remove(); count.textContent = "Cart: 0 items"; }
});
</script>`;

const TABLE = `<!doctype html><title>Staff</title><h1>Staff</h1><table><tbody>${
  ["Alice Adams", "Bob Brown", "Grace Gu"].map((n) =>
    `<tr><td>${n}</td><td><button>Edit</button></td></tr>`
  )
    .join("")
}</tbody></table>`;

const candidatesOf = (r: R) => r.candidates as R[];

Deno.test("find/plan: a query naming an item the page does not hold binds nothing", async (t) => {
  await ensureTodoMvc();
  const fx = await startFixtureServer();
  const pages = servePages({ "/shop": SHOP, "/table": TABLE });
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,power" } });
  try {
    await t.step("shop: Milk Frother is not in the cart; Red Mug's Remove is not it", async () => {
      await mcp.ok("navigate", { url: `${pages.base}/shop`, snapshot: "none" });
      const found = await mcp.ok("find", { query: "remove Milk Frother from cart" });
      const remove = candidatesOf(found).find((c) => c.name === "Remove");
      assertTrue(remove !== undefined, JSON.stringify(found));
      assertEquals(remove.unmentioned, "milk frother");
      assertTrue(candidatesOf(found)[0] !== remove, "another item's Remove is not first");
      const plan = await mcp.call("plan", {
        query: "remove Milk Frother from cart",
        verb: "click",
      });
      assertEquals(errorOf(plan).code, "not-found");
      // Nothing was removed.
      const tree = String((await mcp.ok("snapshot")).tree);
      assertIncludes(tree, "Cart: 1 items");
      // The item that is there is bound.
      const red = await mcp.ok("plan", { query: "remove Red Mug from cart", verb: "click" });
      assertEquals((red.evidence as R).name, "Remove");
      // Several alike: "Add to cart" beside each product names none of them by itself.
      const add = await mcp.ok("find", { query: "Add Zed Zulu to cart" });
      assertTrue(candidatesOf(add).every((c) => c.unmentioned), JSON.stringify(add));
      assertIncludes((add.warnings as string[]).join(" "), 'no element mentions "zed zulu"');
      const frother = await mcp.ok("plan", { query: "Add Milk Frother to cart", verb: "click" });
      const alts = (frother.evidence as R).alternatives as R[];
      assertEquals((frother.evidence as R).name, "Add to cart");
      const others = alts.filter((a) => a.name === "Add to cart");
      assertTrue(others.length > 0 && others.every((a) => a.unmentioned), JSON.stringify(alts));
    });

    await t.step("table: Edit Zed Zulu is nobody's Edit; Edit Grace Gu is hers", async () => {
      await mcp.ok("navigate", { url: `${pages.base}/table`, snapshot: "none" });
      const zed = await mcp.ok("find", { query: "Edit Zed Zulu" });
      assertTrue(candidatesOf(zed).every((c) => c.unmentioned === "zed zulu"), JSON.stringify(zed));
      assertIncludes((zed.warnings as string[]).join(" "), 'no element mentions "zed zulu"');
      const forZed = await mcp.call("plan", { query: "Edit button for Zed Zulu", verb: "click" });
      assertEquals(errorOf(forZed).code, "not-found");
      const grace = await mcp.ok("find", { query: "Edit Grace Gu" });
      const [top] = candidatesOf(grace);
      assertEquals([top!.name, top!.unmentioned], ["Edit", undefined]);
      assertIncludes(String(top!.why), "Grace Gu");
      assertEquals(grace.warnings, undefined);
    });

    await t.step(
      "React TodoMVC: delete/toggle Gamma bind nothing; a typo still finds",
      async () => {
        await mcp.ok("navigate", { url: fx.todomvcUrl("react"), snapshot: "none" });
        for (const todo of ["Alpha", "Beta"]) {
          await mcp.ok("fill", {
            selector: "#new-todo",
            value: todo,
            submit: true,
            snapshot: "none",
          });
        }
        await eventually(
          async () => String((await mcp.ok("snapshot")).tree).includes("2 items left"),
          5000,
          "two todos",
        );
        for (const query of ["delete Gamma", "toggle Gamma", "Delete account button"]) {
          const r = await mcp.call("plan", { query, verb: "click" });
          assertEquals(errorOf(r).code, "not-found", query);
          assertIncludes(textOf(r), "mentions", query);
        }
        const typo = await mcp.ok("plan", { query: "delete Betta", verb: "click" });
        const done = await mcp.ok("execute", { descriptor: typo });
        assertEquals(done.ok, true);
        const tree = String((await mcp.ok("snapshot")).tree);
        assertTrue(tree.includes("Alpha") && !tree.includes("Beta"), tree);
      },
    );

    await t.step("bad input: plan's confidenceFloor out of range is refused", async () => {
      const r = await mcp.call("plan", { query: "Alpha", verb: "click", confidenceFloor: 2 });
      assertEquals(r.isError, true);
      assertIncludes(textOf(r), "confidenceFloor");
    });
  } finally {
    await mcp.close();
    await pages.close();
    await fx.close();
  }
});
