/**
 * End-to-end tests of the navigation guard: an undeclared form submission
 * (a click, Enter, a page script) is stopped and nothing reaches the server;
 * `submits: true` sends it; with an allowlist, a link, a redirect chain and a
 * popup that lead off the list are stopped and the tab has not moved.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { type McpHarness, startStdio, type ToolResult } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { Browser } from "../cdp/browser.ts";
import { findChromium } from "../cdp/discovery.ts";
import { eventually } from "./_util.ts";
import { sharedServerCases } from "./_shared_cases.ts";

// One server for these cases; each case ends with its sessions closed.
const cases = sharedServerCases("navigation guard (no allowlist), one server");

const textOf = (r: ToolResult) => r.content.map((c) => c.text ?? "").join("\n");
type R = Record<string, unknown>;

async function tabs(mcp: McpHarness): Promise<R[]> {
  return (await mcp.ok("tabs", { action: "list" })).tabs as R[];
}

async function activeUrl(mcp: McpHarness): Promise<string> {
  return String((await tabs(mcp)).find((t) => t.active)?.url);
}

function blocked(r: ToolResult): R {
  assertEquals(r.isError, true, textOf(r));
  const s = r.structuredContent!;
  assertEquals((s.error as R).code, "blocked-by-policy", textOf(r));
  return s;
}

cases.test("navigation guard: undeclared form submissions are stopped", async (mcp, t) => {
  const fx = await startFixtureServer();
  const page = fx.url(`guard.html?cross=${encodeURIComponent(fx.crossOrigin)}`);
  const posts = () => fx.requests.filter((q) => q.path.startsWith("/api/echo")).length;
  try {
    await t.step("a click on a submit button without submits: stopped, nothing sent", async () => {
      await mcp.ok("navigate", { url: page, snapshot: "none" });
      const s = blocked(await mcp.call("click", { selector: "#send" }));
      assertIncludes(String((s.error as R).message), "did not declare");
      assertEquals(s.url, page);
      assertEquals(await activeUrl(mcp), page);
      assertEquals(posts(), 0);
      const log = (await mcp.ok("network_read", { pattern: "api/echo" })).entries as R[];
      assertEquals(log.at(-1)?.blockedByPolicy, true, JSON.stringify(log));
      assertIncludes(String(log.at(-1)?.errorText), "blocked by policy: form not declared");
    });

    await t.step("a GET form, Enter in a field, and a page script are stopped too", async () => {
      blocked(await mcp.call("click", { selector: "#search" }));
      blocked(
        await mcp.call("press", { key: "Enter", ref: undefined }).then(async () =>
          await mcp.call("fill", { selector: "input[name=q]", value: "typed" })
        ).then(async () => await mcp.call("press", { key: "Enter" })),
      );
      // A GET form: what was typed shows nowhere in the result, the stopped request is by its
      // keys too (was: blockedUrl by its keys, network.requests with the value).
      await mcp.ok("fill", { selector: "input[name=g]", value: "typed-get" });
      const entered = await mcp.call("press", { key: "Enter" });
      blocked(entered);
      const requests = (entered.structuredContent!.network as { requests: { url: string }[] })
        .requests;
      assertTrue(requests.some((q) => q.url.includes("/api/echo?g")), JSON.stringify(requests));
      assertTrue(!JSON.stringify(entered).includes("typed-get"), JSON.stringify(entered));
      blocked(await mcp.call("click", { selector: "#scripted" }));
      assertEquals(await activeUrl(mcp), page);
      assertEquals(posts(), 0);
    });

    await t.step("a form the page sends itself with fetch is stopped too", async () => {
      const r = await mcp.call("click", { selector: "#ajax-send" });
      const s = blocked(r);
      // A form's URL carries its fields' values: shown by its keys.
      assertIncludes(String(s.blockedUrl), "/api/echo?via");
      // The page's handler saw its fetch fail: said, and what to do about it.
      assertIncludes(String((s.error as R).message), "the page saw its request fail");
      assertIncludes(String((s.error as R).hint), "reload it first");
      assertEquals(posts(), 0);
      const shown = await mcp.ok("snapshot");
      assertIncludes(String(shown.tree), "failed:");
    });

    await t.step("a GET form into a new tab (its action with a #fragment) is stopped", async () => {
      const r = await mcp.call("click", { selector: "#blank-send" });
      blocked(r);
      assertEquals(posts(), 0);
      for (const tab of await tabs(mcp)) assertTrue(!String(tab.url).includes("/api/echo"));
    });

    await t.step("forms in a cross-site (out-of-process) iframe are stopped", async () => {
      await mcp.ok("navigate", { url: page + "&frame=1", snapshot: "none" });
      const snap = await mcp.ok("snapshot");
      const send = /button "Frame send" \[ref=(e\d+)\]/.exec(String(snap.tree))?.[1];
      const top = /button "Frame to top" \[ref=(e\d+)\]/.exec(String(snap.tree))?.[1];
      assertTrue(send !== undefined && top !== undefined, String(snap.tree));
      blocked(await mcp.call("click", { ref: send }));
      blocked(await mcp.call("click", { ref: top }));
      assertEquals(posts(), 0);
      assertEquals(await activeUrl(mcp), page + "&frame=1");
      await mcp.ok("navigate", { url: page, snapshot: "none" });
    });

    await t.step("declared with submits: true (or fill submit) the form goes", async () => {
      await mcp.ok("click", { selector: "#ajax-send", submits: true });
      assertEquals(posts(), 1);
      const r = await mcp.ok("click", { selector: "#send", submits: true });
      assertEquals((r.navigation as R).changed, true);
      assertEquals(posts(), 2);
      await mcp.ok("navigate", { url: page, snapshot: "none" });
      await mcp.ok("fill", { selector: "input[name=g]", value: "oat milk", submit: true });
      assertIncludes(await activeUrl(mcp), "/api/echo?g=oat+milk");
    });

    await t.step("links and scripts that are not submissions are not held", async () => {
      await mcp.ok("navigate", { url: page, snapshot: "none" });
      const r = await mcp.ok("click", { selector: "#local" });
      assertEquals(r.url ?? (r.navigation as R).to, fx.url("basic.html"));
    });
  } finally {
    await fx.close();
  }
});

Deno.test("navigation guard: with an allowlist, page-led navigations off it are stopped", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_ALLOWED_ORIGINS: "127.0.0.1" } });
  const page = fx.url(`guard.html?cross=${encodeURIComponent(fx.crossOrigin)}`);
  const crossHits = () => fx.requests.filter((q) => q.server === "cross").length;
  try {
    await t.step("a link off the allowlist: stopped, the tab has not moved", async () => {
      await mcp.ok("navigate", { url: page, snapshot: "none" });
      const s = blocked(await mcp.call("click", { selector: "#away" }));
      assertEquals(s.url, page);
      assertEquals(s.blockedUrl, fx.crossUrl("basic.html"));
      assertEquals(await activeUrl(mcp), page);
      // The network log says the guard stopped it (its 204 is not the server's answer).
      const log = (await mcp.ok("network_read", { pattern: "basic" })).entries as R[];
      const entry = log.find((q) => q.url === fx.crossUrl("basic.html"));
      assertEquals([entry?.blockedByPolicy, entry?.failed], [true, true], JSON.stringify(log));
      assertEquals(entry?.status, undefined, JSON.stringify(entry));
    });

    await t.step("a redirect chain that ends off the list: stopped at the hop", async () => {
      const s = blocked(await mcp.call("click", { selector: "#via-redirect" }));
      assertEquals(s.redirected_to, fx.crossUrl("basic.html"));
      assertEquals(await activeUrl(mcp), page);
      const r = await mcp.call("navigate", {
        url: fx.url(`redirect?to=${encodeURIComponent(fx.crossUrl("basic.html"))}`),
        snapshot: "none",
      });
      assertEquals(r.isError, true, textOf(r));
      assertIncludes(textOf(r), "blocked");
      const o = await mcp.call("open_session", {
        session: "redirected",
        url: fx.url(`redirect?to=${encodeURIComponent(fx.crossUrl("basic.html"))}`),
      });
      assertEquals((o.structuredContent!.error as R).code, "blocked-by-policy", textOf(o));
      // Refused, it leaves no session behind.
      const open = (await mcp.ok("list_sessions")).sessions as R[];
      assertTrue(!open.some((x) => x.session === "redirected" || x.name === "redirected"));
    });

    await t.step("a popup off the list never loads", async () => {
      await mcp.ok("navigate", { url: page, snapshot: "none" });
      const r = await mcp.call("click", { selector: "#popup" });
      blocked(r);
      for (const tab of await tabs(mcp)) {
        assertTrue(!String(tab.url).startsWith(fx.crossOrigin), String(tab.url));
      }
      // The blank tab it left is closed: the page acted on stays the active one.
      assertEquals((await tabs(mcp)).length, 1);
      assertEquals(await activeUrl(mcp), page);
    });

    await t.step("go_back and go_forward move within the list", async () => {
      await mcp.ok("navigate", { url: page, snapshot: "none" });
      await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
      const back = await mcp.ok("go_back", { snapshot: "none" });
      assertEquals(back.url, page);
      const fwd = await mcp.ok("go_forward", { snapshot: "none" });
      assertEquals(fwd.url, fx.url("basic.html"));
    });

    await t.step("nothing reached the other server", () => {
      assertEquals(crossHits(), 0);
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("navigation guard: history made before the list (an attached browser) is judged", async () => {
  const fx = await startFixtureServer();
  const theirs = await Browser.launch({ executablePath: findChromium().path, debugPort: true });
  const mcp = await startStdio({
    env: {
      BROWX_CAPABILITIES: "read,navigation,action,byob-attach",
      BROWX_ALLOWED_ORIGINS: "127.0.0.1",
    },
  });
  try {
    // The person's tab went to the other site, then here.
    const tab = await theirs.newPage(undefined, fx.crossUrl("basic.html"));
    await eventually(
      async () => {
        const h = await tab.session.send("Page.getNavigationHistory");
        return h.entries[h.currentIndex]?.url === fx.crossUrl("basic.html") ? true : undefined;
      },
      5000,
      "the first page",
    );
    await tab.session.send("Page.navigate", { url: fx.url("basic.html") });
    const at = await eventually(
      async () => {
        const h = await tab.session.send("Page.getNavigationHistory");
        return h.entries[h.currentIndex]?.url === fx.url("basic.html") &&
            h.entries[h.currentIndex - 1]?.url === fx.crossUrl("basic.html")
          ? h.currentIndex
          : undefined;
      },
      5000,
      "the second page",
    );
    await mcp.ok("open_session", {
      session: "theirs",
      mode: "attached",
      endpoint: theirs.wsEndpoint!,
    });
    const list = (await mcp.ok("tabs", { session: "theirs", action: "list" })).tabs as R[];
    const index = list.findIndex((x) => x.url === fx.url("basic.html"));
    assertTrue(index >= 0, JSON.stringify(list));
    await mcp.ok("tabs", { session: "theirs", action: "switch", index });
    const r = await mcp.call("go_back", { session: "theirs", snapshot: "none" });
    const s = blocked(r);
    assertEquals(s.blockedUrl, fx.crossUrl("basic.html"));
    const h = await tab.session.send("Page.getNavigationHistory");
    assertEquals(h.currentIndex, at, "the tab has not moved");
    // The page going back by itself (Alt+Left, history.back()): a restore from the back/forward
    // cache makes no request; the guard answers blocked-by-policy and sends the tab back.
    const keyed = await mcp.call("press", { session: "theirs", key: "Alt+ArrowLeft" });
    const k = blocked(keyed);
    // The result is taken once the tab is back: it shows the allowed page, not the refused one.
    assertEquals(k.url, fx.url("basic.html"), textOf(keyed));
    const back = await tab.session.send("Page.getNavigationHistory");
    assertEquals(back.entries[back.currentIndex]?.url, fx.url("basic.html"));
    await mcp.ok("close_session", { session: "theirs" });
  } finally {
    await mcp.close();
    await theirs.close();
    await fx.close();
  }
});

cases.test(
  "navigation guard: a history move onto a form's result answers at once",
  async (mcp, t) => {
    const fx = await startFixtureServer();
    const page = fx.url("guard.html");
    const posts = () => fx.requests.filter((q) => q.method === "POST").length;
    try {
      await mcp.ok("navigate", { url: page, snapshot: "none" });
      await mcp.ok("click", { selector: "#send", submits: true });
      assertEquals(await activeUrl(mcp), fx.url("api/echo"));
      assertEquals(posts(), 1);

      await t.step("go_back onto the result of a POST: refused, the form is not sent", async () => {
        await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
        // A budget well over the tool's default 10 s: a wait for it would show as timedOut.
        const r = await mcp.call("go_back", { timeoutMs: 30_000, snapshot: "none" });
        const s = blocked(r);
        assertIncludes(String((s.error as R).message), "send a form again");
        assertEquals(s.blockedUrl, fx.url("api/echo"));
        assertEquals(s.url, fx.url("basic.html"));
        assertEquals([s.timedOut, s.moved], [false, false], textOf(r));
        assertTrue(!textOf(r).includes("still loading"), textOf(r));
        assertEquals(await activeUrl(mcp), fx.url("basic.html"));
        assertEquals(posts(), 1);
      });

      await t.step("reload of the result of a POST: refused the same way", async () => {
        await mcp.ok("navigate", { url: page, snapshot: "none" });
        await mcp.ok("click", { selector: "#send", submits: true });
        assertEquals(posts(), 2);
        const r = await mcp.call("reload", { timeoutMs: 30_000, snapshot: "none" });
        const s = blocked(r);
        assertIncludes(String((s.error as R).message), "send a form again");
        assertEquals([s.timedOut, s.moved], [false, false], textOf(r));
        assertTrue(!textOf(r).includes("still loading"), textOf(r));
        assertEquals(await activeUrl(mcp), fx.url("api/echo"));
        assertEquals(posts(), 2);
      });
    } finally {
      await fx.close();
    }
  },
);
