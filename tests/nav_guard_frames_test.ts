/**
 * End-to-end tests of the allowlist in iframes and form targets: a page on
 * the allowed `127.0.0.1:A` embeds `127.0.0.1:B` (same site, so a
 * same-process frame) or `localhost:B` (cross-site: out of process), both
 * off the list. B's server never hears the frame's document request, the
 * agent cannot read or fill B, and forms sent to B (from the top, into a
 * named frame, from a srcdoc frame, by a script) are refused even with
 * `submits: true`; a frame a script moves to B later is refused too. A frame
 * that loaded before browxai attached (a person's browser) is shown blocked,
 * not read.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, type ToolResult } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { eventually, refOf } from "./_util.ts";
import { Browser } from "../cdp/browser.ts";
import { findChromium } from "../cdp/discovery.ts";

const textOf = (r: ToolResult) => r.content.map((c) => c.text ?? "").join("\n");
type R = Record<string, unknown>;

function blocked(r: ToolResult): R {
  assertEquals(r.isError, true, textOf(r));
  const s = r.structuredContent!;
  assertEquals((s.error as R).code, "blocked-by-policy", textOf(r));
  return s;
}

Deno.test("navigation guard: iframes and form targets off the allowlist are refused", async (t) => {
  const fx = await startFixtureServer();
  const port = new URL(fx.origin).port;
  const mcp = await startStdio({ env: { BROWX_ALLOWED_ORIGINS: `127.0.0.1:${port}` } });
  const offHits = () => fx.requests.filter((q) => q.server === "cross");
  const offs = [
    ["a same-process frame (127.0.0.1:B)", `http://127.0.0.1:${new URL(fx.crossOrigin).port}`],
    ["an out-of-process frame (localhost:B)", fx.crossOrigin],
  ] as const;
  try {
    for (const [label, off] of offs) {
      const page = fx.url(`guard-frames.html?off=${encodeURIComponent(off)}`);
      await t.step(`${label}: never requested, shown blocked, nothing to read`, async () => {
        const r = await mcp.ok("navigate", { url: page, snapshot: "none" });
        assertEquals(r.url, page);
        assertIncludes(String(r.warning ?? r.warnings), `from ${off} was not loaded`);
        // The log says the frame's request was blocked: no 200 from the server it never reached.
        const offEntry = (list: R[]) => list.find((q) => String(q.url).startsWith(off));
        const shown = offEntry((r.network as { requests: R[] }).requests);
        assertEquals(shown?.blockedByPolicy, true, JSON.stringify(r.network));
        assertEquals(shown?.failed, true, JSON.stringify(shown));
        assertEquals(shown?.status, undefined, JSON.stringify(shown));
        const read = offEntry((await mcp.ok("network_read", { pattern: "basic" })).entries as R[]);
        assertEquals(read?.blockedByPolicy, true, JSON.stringify(read));
        assertEquals(read?.status, undefined, JSON.stringify(read));
        assertIncludes(String(read?.errorText), "blocked by policy: not on the allowlist");
        const tree = String((await mcp.ok("snapshot")).tree);
        assertIncludes(tree, `blocked by policy: ${off} (not on the allowlist)`);
        // B's page (basic.html) has a "Full name" field: nothing of it reaches the agent.
        assertTrue(!tree.includes("Basic page") && !tree.includes("Full name"), tree);
        const filled = await mcp.call("fill", { selector: "#name", value: "stolen" });
        assertEquals(filled.isError, true, textOf(filled));
        // The allowed frame of the same page loaded.
        assertIncludes(tree, "Own frame");
        assertEquals(offHits(), []);
      });

      await t.step(`${label}: forms sent there are refused even when declared`, async () => {
        for (const button of ["Post off", "Post into frame", "Post by formaction", "Inner send"]) {
          const tree = String((await mcp.ok("snapshot")).tree);
          const s = blocked(
            await mcp.call("click", { ref: refOf(tree, `button "${button}"`), submits: true }),
          );
          assertIncludes(String((s.error as R).message), "not on the allowlist");
          assertEquals((s.policy as R).rule, "form-target");
          assertTrue(String(s.blockedUrl).startsWith(off + "/api/echo"), String(s.blockedUrl));
          assertEquals(s.url, page);
        }
        // A form the page sends itself with fetch, to B.
        const tree = String((await mcp.ok("snapshot")).tree);
        const s = blocked(
          await mcp.call("click", { ref: refOf(tree, 'button "Post by script"'), submits: true }),
        );
        assertIncludes(String(s.blockedUrl), "/api/echo?via");
        assertEquals(offHits(), []);
      });

      await t.step(`${label}: a frame a script moves there later is refused`, async () => {
        await mcp.ok("navigate", { url: page, snapshot: "none" });
        assertIncludes(String((await mcp.ok("snapshot")).tree), "Not clicked");
        const r = await mcp.ok("click", { selector: "#to-off" });
        assertIncludes(String(r.warning ?? r.warnings), `from ${off} was not loaded`);
        await eventually(
          async () => {
            const tree = String((await mcp.ok("snapshot")).tree);
            const shown = tree.split(`blocked by policy: ${off}`).length - 1;
            if (shown > 2) throw new Error(tree);
            return shown === 2 && !tree.includes("Not clicked") ? tree : undefined;
          },
          5000,
          "both frames shown blocked",
        );
        assertEquals(offHits(), []);
      });
    }
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("navigation guard: with per-site approvals an iframe of a new site is refused, not asked", async () => {
  const fx = await startFixtureServer();
  const asked: string[] = [];
  const mcp = await startStdio({
    env: { BROWX_CAPABILITIES: "read,navigation,action,human" },
    elicit(params) {
      asked.push(params.message);
      return { action: "accept", content: { approve: true } };
    },
  });
  try {
    const page = fx.url(`guard-frames.html?off=${encodeURIComponent(fx.crossOrigin)}`);
    await mcp.ok("navigate", { url: page, snapshot: "none" });
    assertEquals(asked.length, 1, "only the page's own site is asked");
    let tree = String((await mcp.ok("snapshot")).tree);
    assertIncludes(
      tree,
      `blocked by policy: ${fx.crossOrigin} (site ${new URL(fx.crossOrigin).host} not approved`,
    );
    assertEquals(fx.requests.filter((q) => q.server === "cross"), []);
    // Going there asks; once approved, the frame loads.
    await mcp.ok("navigate", { url: fx.crossUrl("basic.html"), snapshot: "none" });
    assertEquals(asked.length, 2);
    await mcp.ok("navigate", { url: page, snapshot: "none" });
    tree = String((await mcp.ok("snapshot")).tree);
    assertTrue(!tree.includes("blocked by policy"), tree);
    assertIncludes(tree, "Full name");
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("navigation guard: an off-list frame loaded before browxai attached is not read", async () => {
  const fx = await startFixtureServer();
  const theirs = await Browser.launch({ executablePath: findChromium().path, debugPort: true });
  const port = new URL(fx.origin).port;
  const mcp = await startStdio({
    env: {
      BROWX_CAPABILITIES: "read,navigation,action,byob-attach",
      BROWX_ALLOWED_ORIGINS: `127.0.0.1:${port}`,
    },
  });
  try {
    // The person's tab shows an allowed page whose off-list frame loaded before any list.
    // 127.0.0.1:B: a same-process frame, which the tab's frame tree holds.
    const off = `http://127.0.0.1:${new URL(fx.crossOrigin).port}`;
    const page = fx.url(`guard-frames.html?off=${encodeURIComponent(off)}`);
    await theirs.newPage(undefined, page);
    await fx.waitForRequest((q) => q.server === "cross" && q.path === "/basic.html");
    await mcp.ok("open_session", {
      session: "theirs",
      mode: "attached",
      endpoint: theirs.wsEndpoint!,
    });
    const list = (await mcp.ok("tabs", { session: "theirs", action: "list" })).tabs as R[];
    const index = list.findIndex((x) => x.url === page);
    assertTrue(index >= 0, JSON.stringify(list));
    await mcp.ok("tabs", { session: "theirs", action: "switch", index });
    const tree = await eventually(
      async () => {
        const t = String((await mcp.ok("snapshot", { session: "theirs" })).tree);
        return t.includes("Not clicked") ? t : undefined;
      },
      5000,
      "the allowed frame read",
    ) as string;
    assertIncludes(tree, `(blocked by policy: ${off} (not on the allowlist))`);
    assertTrue(!tree.includes("Basic page") && !tree.includes("Full name"), tree);
    await mcp.ok("close_session", { session: "theirs" });
  } finally {
    await mcp.close();
    await theirs.close();
    await fx.close();
  }
});
