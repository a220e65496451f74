/**
 * End-to-end attacks on the navigation guard through new tabs and
 * speculative loads: a click with Ctrl, Shift or the middle button (a link,
 * a form's submit button, an allowed link that redirects off the list) and
 * speculation rules (prerender, prefetch) must not reach an origin off the
 * allowlist, nor leave a tab there.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { type McpHarness, startStdio, type ToolResult } from "./_mcp.ts";
import { sharedServerCases } from "./_shared_cases.ts";
import { startTwoOrigins } from "./_two_origins.ts";
import { Browser } from "../cdp/browser.ts";
import { findChromium } from "../cdp/discovery.ts";
import { eventually } from "./_util.ts";
import { join } from "node:path";

const textOf = (r: ToolResult) => r.content.map((c) => c.text ?? "").join("\n");
type R = Record<string, unknown>;

function blocked(r: ToolResult, rule: string): R {
  assertEquals(r.isError, true, textOf(r));
  const s = r.structuredContent!;
  assertEquals((s.error as R).code, "blocked-by-policy", textOf(r));
  assertEquals((s.policy as R).rule, rule, textOf(r));
  return s;
}

async function tabUrls(mcp: McpHarness): Promise<string[]> {
  return ((await mcp.ok("tabs", { action: "list" })).tabs as R[]).map((t) => String(t.url));
}

/**
 * The allowlisted cases share one server (`BROWX_ALLOWED_ORIGINS=127.0.0.1`); each closes its
 * sessions after it, so the next starts on a fresh session as on a fresh server.
 */
const allowlisted = sharedServerCases("navigation guard (allowlist 127.0.0.1), one server", {
  env: { BROWX_ALLOWED_ORIGINS: "127.0.0.1" },
});

/** B's script reports that it ran: a request to /ran-<name>. */
const bPage = (b: string, name: string) =>
  `<title>B ${name}</title><script>fetch("${b}/ran-${name}", { mode: "no-cors" })</script>`;

allowlisted.test("modifier and middle clicks open no unguarded tab", async (mcp, t) => {
  const srv = startTwoOrigins((a, b) => ({
    "/f": `<title>f</title><form action="${b}/ff"><input name=q value=data>` +
      `<button id=s>send</button></form><a id=l href="${b}/ll">off</a>` +
      `<a id=r href="${a}/redir">redirects off</a><a id=ok href="${a}/fine">fine</a>` +
      // A form inside a link whose control clobbers form.closest (DOM clobbering).
      `<a href="${b}/ll"><form id=cf>clobbered<input type=hidden name=closest></form></a>` +
      `<form action="${b}/ff"><input type=hidden name=action value=x>` +
      `<button id=s2>send clobbered</button></form>`,
    "/kb": `<title>kb</title><a id=l href="${b}/ll">off</a><script>l.focus()</script>`,
    "/field": `<title>field</title><form action="${b}/ff"><input id=q name=q value=data></form>`,
    "/ff": bPage(b, "ff"),
    "/ll": bPage(b, "ll"),
    "/rr": bPage(b, "rr"),
    "/redir": () => new Response("", { status: 302, headers: { location: `${b}/rr` } }),
  }));
  const page = `${srv.a}/f`;
  try {
    // A link's tab opens and its first request is judged by the browser-level hold (refused:
    // left blank and closed, rule navigation); a form's or a download's click is refused first.
    const cases: [string, R, string][] = [
      ["Ctrl on an off-list link", { selector: "#l", modifiers: ["Control"] }, "navigation"],
      ["Shift on an off-list link", { selector: "#l", modifiers: ["Shift"] }, "navigation"],
      ["the middle button on an off-list link", { selector: "#l", button: "middle" }, "navigation"],
      ["Ctrl on an allowed link that redirects off", {
        selector: "#r",
        modifiers: ["Control"],
      }, "navigation"],
      ["Alt on an off-list link (a download)", {
        selector: "#l",
        modifiers: ["Alt"],
      }, "new-tab-click"],
      ["Ctrl on a form's submit button", {
        selector: "#s",
        modifiers: ["Control"],
      }, "new-tab-click"],
      ["Ctrl on a submit button, declared", {
        selector: "#s",
        modifiers: ["Control"],
        submits: true,
      }, "new-tab-click"],
      ["Shift on a form's submit button", {
        selector: "#s",
        modifiers: ["Shift"],
      }, "new-tab-click"],
      ["Ctrl on a form clobbering closest, in an off-list link", {
        selector: "#cf",
        modifiers: ["Control"],
      }, "navigation"],
      ["Ctrl on the button of a form clobbering action", {
        selector: "#s2",
        modifiers: ["Control"],
      }, "new-tab-click"],
    ];
    for (const [name, args, rule] of cases) {
      await t.step(`${name}: refused, no tab left, nothing sent`, async () => {
        await mcp.ok("navigate", { url: page, snapshot: "none" });
        const s = blocked(await mcp.call("click", { ...args, snapshot: "none" }), rule);
        assertIncludes(String((s.error as R).message), "new tab");
        assertEquals(await tabUrls(mcp), [page]);
        assertEquals(srv.seen("B"), []);
      });
    }

    await t.step("Ctrl+Enter on a focused link: refused too", async () => {
      await mcp.ok("navigate", { url: `${srv.a}/kb`, snapshot: "none" });
      blocked(await mcp.call("press", { key: "Control+Enter", snapshot: "none" }), "navigation");
      assertEquals(await tabUrls(mcp), [`${srv.a}/kb`]);
      assertEquals(srv.seen("B"), []);
    });

    await t.step("Shift+Enter in a form's only field (no submit button): refused", async () => {
      await mcp.ok("navigate", { url: `${srv.a}/field`, snapshot: "none" });
      await mcp.ok("click", { selector: "#q", snapshot: "none" });
      blocked(
        await mcp.call("press", { key: "Shift+Enter", submits: true, snapshot: "none" }),
        "new-tab-click",
      );
      assertEquals(await tabUrls(mcp), [`${srv.a}/field`]);
      assertEquals(srv.seen("B"), []);
    });

    await t.step("a plain click on an allowed link still works", async () => {
      await mcp.ok("navigate", { url: page, snapshot: "none" });
      await mcp.ok("click", { selector: "#ok", snapshot: "none" });
      assertEquals(await tabUrls(mcp), [`${srv.a}/fine`]);
    });

    await t.step(
      "the agent's Ctrl, Shift or middle click on an allowed link opens its tab",
      async () => {
        for (
          const args of [{ modifiers: ["Control"] }, { modifiers: ["Shift"] }, { button: "middle" }]
        ) {
          await mcp.ok("navigate", { url: page, snapshot: "none" });
          const r = await mcp.ok("click", { selector: "#ok", ...args, snapshot: "none" });
          const tabs = (r.structure as R).newTabs as R[];
          assertEquals(tabs.map((x) => x.url), [`${srv.a}/fine`], JSON.stringify(r));
          assertEquals(r.warnings ?? [], [], JSON.stringify(r));
          assertTrue((await tabUrls(mcp)).includes(`${srv.a}/fine`));
          await mcp.ok("tabs", { action: "close", index: 1 });
          await mcp.ok("tabs", { action: "switch", index: 0 });
        }
      },
    );
  } finally {
    await srv.close();
  }
  assertTrue(srv.seen("A").length > 0);
});

Deno.test("navigation guard: with no allowlist, a Ctrl-click on a link opens its tab; forms stay held", async () => {
  const srv = startTwoOrigins((_a, b) => ({
    "/f": `<title>f</title><form action="${b}/ff"><input name=q value=data>` +
      `<button id=s>send</button></form><a id=l href="${b}/ll">there</a>`,
    "/ff": bPage(b, "ff"),
    "/ll": bPage(b, "ll"),
  }));
  const mcp = await startStdio();
  const page = `${srv.a}/f`;
  try {
    await mcp.ok("navigate", { url: page, snapshot: "none" });
    // Nothing limits where tabs go: the person's Ctrl-click habit works. The result comes
    // once the tab is known: the acting tab's frame, asked for a navigation in a new tab,
    // never loads (waiting for it held every such click to the 5 s settle cap, "still loading").
    const opens: [string, R][] = [
      ["Control", { modifiers: ["Control"] }],
      ["Shift", { modifiers: ["Shift"] }],
      ["middle", { button: "middle" }],
    ];
    for (const [how, args] of opens) {
      const r = await mcp.ok("click", { selector: "#l", ...args, snapshot: "none" });
      assertEquals(((r.structure as R).newTabs as R[]).length, 1, `${how}: ${JSON.stringify(r)}`);
      assertEquals(r.warnings ?? [], [], `${how}: ${JSON.stringify(r)}`);
      await mcp.ok("tabs", { action: "switch", index: 0 });
    }
    await eventually(() => srv.seen("B").includes("GET /ll"), 5000, "the link's tab to load");
    // An undeclared submission is still refused, new tab or not (the new tab is active now).
    await mcp.ok("navigate", { url: page, snapshot: "none" });
    blocked(
      await mcp.call("click", { selector: "#s", modifiers: ["Control"], snapshot: "none" }),
      "new-tab-click",
    );
    assertTrue(!srv.seen("B").some((x) => x.startsWith("GET /ff")), "the form was not sent");
  } finally {
    await mcp.close();
    await srv.close();
  }
});

/** Pages whose speculation rules prerender or prefetch B (or an A URL that redirects to B). */
const speculating = (a: string, b: string) => ({
  "/spec": `<title>spec</title><script type="speculationrules">` +
    `{"prerender":[{"source":"list","urls":["${b}/pr"]}],` +
    `"prefetch":[{"source":"list","urls":["${b}/pf"]}]}</script>` +
    `<button id=go onclick="location.href='${b}/pr'">go</button>` +
    // Speculation starts right after the rules parse; this request comes later.
    `<script>setTimeout(() => fetch("/later"), 1000)</script>`,
  "/prsame": `<title>prsame</title><script type="speculationrules">` +
    `{"prerender":[{"source":"list","urls":["${a}/redir"]}]}</script>` +
    `<button id=go onclick="location.href='${a}/redir'">go</button>` +
    `<script>setTimeout(() => fetch("/later"), 1000)</script>`,
  "/redir": () => new Response("", { status: 302, headers: { location: `${b}/rr` } }),
  "/pr": bPage(b, "pr"),
  "/pf": bPage(b, "pf"),
  "/rr": bPage(b, "rr"),
});

allowlisted.test("speculation rules load nothing off the list", async (mcp, t) => {
  const srv = startTwoOrigins(speculating);
  try {
    for (const path of ["/spec", "/prsame"]) {
      await t.step(
        `${path}: nothing prerendered or prefetched; going there is stopped`,
        async () => {
          const before = srv.seen("A").filter((x) => x === "GET /later").length;
          await mcp.ok("navigate", { url: srv.a + path, snapshot: "none" });
          await eventually(
            () => srv.seen("A").filter((x) => x === "GET /later").length > before,
            5000,
            "the page's later request",
          );
          assertEquals(srv.seen("B"), []);
          blocked(await mcp.call("click", { selector: "#go", snapshot: "none" }), "navigation");
          assertEquals(await tabUrls(mcp), [srv.a + path]);
          assertEquals(srv.seen("B"), []);
        },
      );
    }
  } finally {
    await srv.close();
  }
});

Deno.test("navigation guard: a prefetched off-list page shown with no request is left at once (attached browser)", async () => {
  const srv = startTwoOrigins(speculating);
  // Someone else's browser, with preloading on (its profile's own preferences).
  const profile = await Deno.makeTempDir({ prefix: "browxai-test-preload-" });
  await Deno.mkdir(join(profile, "Default"));
  await Deno.writeTextFile(join(profile, "Default", "Preferences"), "{}");
  const theirs = await Browser.launch({
    executablePath: findChromium().path,
    debugPort: true,
    userDataDir: profile,
  });
  const mcp = await startStdio({
    env: {
      BROWX_CAPABILITIES: "read,navigation,action,byob-attach",
      BROWX_ALLOWED_ORIGINS: "127.0.0.1",
    },
  });
  try {
    await mcp.ok("open_session", {
      session: "theirs",
      mode: "attached",
      endpoint: theirs.wsEndpoint!,
    });
    await mcp.ok("tabs", { session: "theirs", action: "new" });
    await mcp.ok("navigate", { session: "theirs", url: `${srv.a}/spec`, snapshot: "none" });
    // The browser fetches B ahead (a GET, like an image: not what the guard holds)...
    await eventually(() => srv.seen("B").includes("GET /pr"), 5000, "the prefetch of B");
    // ...and showing it needs no request: the guard sees the commit and goes back.
    const r = await mcp.call("click", { session: "theirs", selector: "#go", snapshot: "none" });
    const s = blocked(r, "navigation");
    assertEquals(s.blockedUrl, `${srv.b}/pr`);
    await eventually(
      async () => {
        const list = (await mcp.ok("tabs", { session: "theirs", action: "list" })).tabs as R[];
        return list.find((x) => x.active)?.url === `${srv.a}/spec`;
      },
      10_000,
      "the tab back on A",
    );
  } finally {
    await mcp.close();
    await theirs.close();
    await srv.close();
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
});
