/**
 * A click by ref never lands on another element while saying ok: a parent
 * page's overlay above the iframe holding the element (same-origin and
 * cross-site OOPIF), a scaled iframe (the click goes to the element's real
 * place), a `<label>` of the element holding another control, a page that
 * swaps the element on the pointer's moves, and one that changes what is under
 * the pointer between the last hit test and the press (the press guard). Every
 * page logs its clicks as `/api/echo?who=…`.
 */
import { eventually } from "./_util.ts";
import { assertEquals, assertIncludes } from "./_assert.ts";
import { type FixtureServer, startFixtureServer } from "./fixtures/server.ts";
import { type McpHarness, startStdio, textOf } from "./_mcp.ts";
import { refOf } from "./_util.ts";

type R = Record<string, unknown>;

/** Who got clicks so far, in order (after a sentinel fetch from the top page settled). */
async function clicked(mcp: McpHarness, fx: FixtureServer): Promise<string[]> {
  await mcp.ok("eval_js", { expression: "fetch('/api/echo?who=SENTINEL').then(() => 1)" });
  await fx.waitForRequest((q) => q.path === "/api/echo?who=SENTINEL");
  const out = fx.requests.filter((q) => q.path.startsWith("/api/echo?who="))
    .map((q) => q.path.slice("/api/echo?who=".length))
    .filter((w) => w !== "SENTINEL");
  fx.requests.length = 0;
  return out;
}

async function open(mcp: McpHarness, url: string, ready: RegExp): Promise<string> {
  await mcp.ok("navigate", { url, snapshot: "none" });
  // The iframe's content comes in after the load of its parent.
  return await eventually(
    async () => {
      const tree = String((await mcp.ok("snapshot")).tree);
      return ready.test(tree) ? tree : undefined;
    },
    5000,
    `the page to show ${ready}`,
  );
}

Deno.test("a click by ref never lands on another element", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  try {
    const failsCovered = async (ref: string, by: string, args: R = {}) => {
      const r = await mcp.call("click", { ref, timeoutMs: 5000, ...args });
      assertEquals(r.isError, true, textOf(r));
      const error = r.structuredContent!.error as R;
      assertEquals(error.code, "covered", textOf(r));
      assertIncludes(String(error.message), by);
      return String(error.message);
    };

    await t.step("(a) a parent-page overlay above a same-origin iframe: covered", async () => {
      const tree = await open(mcp, fx.url("hit-frame.html?cover=now"), /"Keep"/);
      const m = await failsCovered(refOf(tree, /button "Keep"/), 'button#overlay "Buy now"');
      assertIncludes(m, "around the element's frame");
      assertEquals(await clicked(mcp, fx), []);
    });

    await t.step("(a2) the same over a cross-site (out-of-process) iframe: covered", async () => {
      const inner = encodeURIComponent(fx.crossUrl("hit-inner.html"));
      const tree = await open(mcp, fx.url(`hit-frame.html?cover=now&inner=${inner}`), /"Keep"/);
      await failsCovered(refOf(tree, /button "Keep"/), 'button#overlay "Buy now"');
      assertEquals(await clicked(mcp, fx), []);
    });

    await t.step("(a) without the overlay the iframe's button gets the click", async () => {
      const inner = encodeURIComponent(fx.crossUrl("hit-inner.html"));
      const tree = await open(mcp, fx.url(`hit-frame.html?inner=${inner}`), /"Keep"/);
      await mcp.ok("click", { ref: refOf(tree, /button "Keep"/) });
      assertEquals(await clicked(mcp, fx), ["INNER-TARGET"]);
    });

    await t.step("an iframe below the fold is scrolled into view, then clicked", async () => {
      const inner = encodeURIComponent(fx.crossUrl("hit-inner.html"));
      const tree = await open(mcp, fx.url(`hit-frame.html?top=1500&inner=${inner}`), /"Keep"/);
      await mcp.ok("click", { ref: refOf(tree, /button "Keep"/) });
      assertEquals(await clicked(mcp, fx), ["INNER-TARGET"]);
    });

    await t.step("(b) a scaled iframe: the click lands on the element's real place", async () => {
      const tree = await open(mcp, fx.url("hit-frame.html?scale=0.5"), /"Keep"/);
      const r = await mcp.ok("click", { ref: refOf(tree, /button "Keep"/) });
      assertEquals(r.ok, true);
      assertEquals(await clicked(mcp, fx), ["INNER-TARGET"]);
      // And the other button too (it sat where an unscaled click on "Keep" went before).
      await mcp.ok("click", { ref: refOf(tree, /button "Delete"/) });
      assertEquals(await clicked(mcp, fx), ["INNER-OTHER"]);
    });

    await t.step("(b) a rotated iframe is refused, nothing clicked", async () => {
      const tree = await open(mcp, fx.url("hit-frame.html"), /"Keep"/);
      await mcp.ok("eval_js", {
        expression: "document.querySelector('iframe').style.transform = 'rotate(3deg)'; 1",
      });
      const r = await mcp.call("click", { ref: refOf(tree, /button "Keep"/) });
      assertEquals(r.isError, true);
      assertEquals((r.structuredContent!.error as R).code, "not-actionable");
      assertIncludes(textOf(r), "rotated or skewed frame");
      assertEquals(await clicked(mcp, fx), []);
    });

    await t.step("(c) a label of the checkbox holding another button: covered by it", async () => {
      const tree = await open(mcp, fx.url("hit-label.html"), /checkbox/);
      await failsCovered(refOf(tree, /checkbox(?! "Subscribe")/), '"Delete account"');
      assertEquals(await clicked(mcp, fx), []);
      // A plain label over its checkbox forwards the click: that one is fine.
      await mcp.ok("click", { ref: refOf(tree, /checkbox "Subscribe"/) });
      assertEquals(await clicked(mcp, fx), ["CB2-TARGET"]);
    });

    await t.step(
      "(d) a page swapping the element on the pointer's moves: the element gets it",
      async () => {
        const tree = await open(mcp, fx.url("hit-swap.html?on=move"), /"Keep"/);
        await mcp.ok("click", { ref: refOf(tree, /button "Keep"/) });
        assertEquals(await clicked(mcp, fx), ["TARGET"]);
      },
    );

    await t.step(
      "(d) the element replaced after the last hit test: the guard stops the press",
      async () => {
        const tree = await open(mcp, fx.url("hit-swap.html?on=shift"), /"Keep"/);
        const r = await mcp.call("click", {
          ref: refOf(tree, /button "Keep"/),
          modifiers: ["Shift"],
        });
        assertEquals(r.isError, true, textOf(r));
        const error = r.structuredContent!.error as R;
        assertEquals(error.code, "ref-gone");
        assertIncludes(String(error.message), 'button "Delete"');
        assertIncludes(String(error.message), "the press was stopped");
        assertEquals(await clicked(mcp, fx), []);
      },
    );

    await t.step(
      "(d) an overlay raised after the last hit test: the guard stops the press",
      async () => {
        const tree = await open(mcp, fx.url("hit-swap.html?on=shift-cover"), /"Keep"/);
        const m = await failsCovered(refOf(tree, /button "Keep"/), 'button "Delete"', {
          modifiers: ["Shift"],
        });
        assertIncludes(m, "the press was stopped");
        assertEquals(await clicked(mcp, fx), []);
      },
    );

    await t.step("(a) a parent overlay raised after the last hit test: stopped too", async () => {
      const tree = await open(mcp, fx.url("hit-frame.html?cover=shift"), /"Keep"/);
      const m = await failsCovered(refOf(tree, /button "Keep"/), 'button#overlay "Buy now"', {
        modifiers: ["Shift"],
      });
      assertIncludes(m, "the press was stopped");
      assertEquals(await clicked(mcp, fx), []);
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
