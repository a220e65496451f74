/**
 * Every core tool through a real MCP client over stdio, against fixture
 * pages served on 127.0.0.1.
 */
import { assertEquals, assertIncludes, assertNotIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { type McpHarness, startHttp, startStdio, textOf } from "./_mcp.ts";
import { refOf } from "./_util.ts";

async function overStdio(): Promise<McpHarness> {
  return await startStdio();
}

async function overHttp(): Promise<McpHarness> {
  const server = await startHttp();
  const client = await server.connect();
  return { ...client, close: () => server.close() };
}

for (const [transport, start] of [["stdio", overStdio], ["http", overHttp]] as const) {
  Deno.test(`core tools over ${transport}`, async (t) => {
    await coreTools(t, await start());
  });
}

async function coreTools(t: Deno.TestContext, mcp: McpHarness) {
  const fx = await startFixtureServer();
  try {
    await t.step("tools/list names every core tool with schemas", async () => {
      const { tools } = await mcp.client.listTools();
      const names = tools.map((x) => x.name);
      for (
        const n of [
          "navigate",
          "snapshot",
          "click",
          "fill",
          "type",
          "press",
          "select",
          "hover",
          "scroll",
          "wait_for",
          "go_back",
          "go_forward",
          "reload",
          "tabs",
          "screenshot",
          "open_session",
          "close_session",
          "list_sessions",
          "console_read",
          "network_read",
        ]
      ) assertTrue(names.includes(n), `missing ${n}`);
      // Its capability (eval) is off by default: not listed (tests/tool_list_capabilities_test.ts).
      assertTrue(!names.includes("eval_js"), "eval_js is listed without the eval capability");
      for (const tool of tools) assertEquals(tool.inputSchema.type, "object");
    });

    await t.step("navigate reports status, content type and the page", async () => {
      const r = await mcp.ok("navigate", { url: fx.url("basic.html") });
      assertEquals(r.ok, true);
      assertEquals(r.httpStatus, 200);
      assertEquals(r.contentType, "text/html");
      assertEquals(r.url, fx.url("basic.html"));
      const nav = r.navigation as Record<string, unknown>;
      assertEquals(nav.changed, true);
      assertEquals(nav.kind, "full_load");
      const delta = r.snapshotDelta as Record<string, unknown>;
      assertEquals(delta.mode, "full");
      assertIncludes(String(delta.tree), "# Basic page");
    });

    await t.step("navigate follows redirects and reports 404s", async () => {
      const r = await mcp.ok("navigate", {
        url: fx.url(`/redirect?to=${encodeURIComponent("/basic.html?r=1")}`),
      });
      assertEquals(r.url, fx.url("basic.html?r=1"));
      const nf = await mcp.ok("navigate", { url: fx.url("/status/404") });
      assertEquals(nf.httpStatus, 404);
    });

    await t.step("snapshot shows roles, names, states and never a password", async () => {
      await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
      const r = await mcp.call("snapshot");
      assertEquals(r.isError, undefined);
      const tree = String(r.structuredContent!.tree);
      assertIncludes(textOf(r), tree.split("\n")[0]!);
      assertTrue(/^ *# Basic page$/m.test(tree), tree);
      assertTrue(/checkbox "[^"]+" \[ref=e\d+\].*\[checked\]/.test(tree), tree);
      assertTrue(/button "[^"]+" \[ref=e\d+\].*\[disabled\]/.test(tree), tree);
      assertNotIncludes(tree, "hunter2");
    });

    await t.step("fill, type and press update the field and report its value", async () => {
      await mcp.ok("navigate", { url: fx.url("form.html"), snapshot: "none" });
      const tree = String((await mcp.ok("snapshot")).tree);
      const name = refOf(tree, /textbox "Name"/);
      const r = await mcp.ok("fill", { ref: name, value: "Ada Lovelace" });
      const el = r.element as Record<string, unknown>;
      assertEquals(el.value, "Ada Lovelace");
      assertEquals(el.stillAttached, true);
      await mcp.ok("press", { key: "Control+a" });
      await mcp.ok("type", { text: "Grace" });
      const v = await mcp.ok("fill", { ref: name, value: "Grace Hopper" });
      assertEquals((v.element as Record<string, unknown>).value, "Grace Hopper");
      // A target is focused first: the key lands in it, wherever the focus was.
      const mirror = refOf(tree, /textbox "Mirror input"/);
      const p = await mcp.ok("press", { ref: mirror, key: "x" });
      assertIncludes(JSON.stringify(p.snapshotDelta), "Mirror: x");
      const gone = await mcp.call("press", { ref: "e999999", key: "x" });
      assertEquals(gone.isError, true);
      const coords = await mcp.call("press", { coords: { x: 1, y: 1 }, key: "x" });
      assertEquals(coords.isError, true);
    });

    await t.step("select picks a native option by label, value and index", async () => {
      const tree = String((await mcp.ok("snapshot")).tree);
      const sel = refOf(tree, /combobox/);
      const byLabel = await mcp.ok("select", { ref: sel, index: 1 });
      assertTrue(byLabel.selected !== undefined);
      const bad = await mcp.call("select", { ref: sel, label: "No such option" });
      assertEquals(bad.isError, true);
      assertIncludes(textOf(bad), "option");
    });

    await t.step("click reports an SPA navigation and a hash change", async () => {
      await mcp.ok("navigate", { url: fx.url("spa.html"), snapshot: "none" });
      const tree = String((await mcp.ok("snapshot")).tree);
      const links = tree.split("\n").filter((l) => /\[ref=e\d+\]/.test(l));
      assertTrue(links.length > 0, tree);
    });

    await t.step("screenshot returns an image, element screenshots are smaller", async () => {
      await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
      const full = await mcp.call("screenshot");
      const img = full.content.find((c) => c.type === "image");
      assertTrue(img?.data && img.data.length > 100);
      assertEquals(img!.mimeType, "image/png");
      const tree = String((await mcp.ok("snapshot")).tree);
      const btn = refOf(tree, /button/);
      const el = await mcp.call("screenshot", { ref: btn });
      const s = el.structuredContent!;
      const fs = full.structuredContent!;
      assertTrue((s.width as number) < (fs.width as number), JSON.stringify(s));
      const jpeg = await mcp.call("screenshot", { format: "jpeg", quality: 50, fullPage: true });
      assertEquals(jpeg.content.find((c) => c.type === "image")!.mimeType, "image/jpeg");
    });

    await t.step("a big full-page screenshot inline says how to make it smaller", async () => {
      const rows = Array.from(
        { length: 3000 },
        (_, i) =>
          `<tr><td>Item ${i} ${"#".repeat(i % 37)}</td><td>${(i * 7919) % 1000} EUR</td></tr>`,
      )
        .join("");
      const big = Deno.serve(
        { hostname: "127.0.0.1", port: 0, onListen() {} },
        () => new Response(`<table>${rows}</table>`, { headers: { "content-type": "text/html" } }),
      );
      try {
        await mcp.ok("navigate", { url: `http://127.0.0.1:${big.addr.port}/`, snapshot: "none" });
        const shot = await mcp.call("screenshot", { fullPage: true });
        const warnings = (shot.structuredContent!.warnings as string[]).join("\n");
        assertIncludes(warnings, "captured the top-left");
        assertIncludes(warnings, 'KiB inline: pass path to save it to a file, format: "jpeg"');
        assertIncludes(warnings, "scale: 0.5");
        // Half the scale: half the pixels a side, the same CSS area.
        const half = await mcp.call("screenshot", { fullPage: true, scale: 0.5 });
        const h = half.structuredContent!, f = shot.structuredContent!;
        assertEquals(h.width, Math.round((f.width as number) / 2));
        assertEquals(h.cssHeight, f.height);
        assertTrue((h.bytes as number) < (f.bytes as number) / 2, JSON.stringify(h));
        const view = await mcp.call("screenshot", { scale: 0.25 });
        assertEquals(view.structuredContent!.width, 320);
      } finally {
        await big.shutdown();
      }
    });

    await t.step("history: back, forward, and moved=false at the edge", async () => {
      await mcp.ok("navigate", { url: fx.url("basic.html?h=1"), snapshot: "none" });
      await mcp.ok("navigate", { url: fx.url("basic.html?h=2"), snapshot: "none" });
      const back = await mcp.ok("go_back", { snapshot: "none" });
      assertEquals(back.moved, true);
      assertEquals((back.navigation as Record<string, unknown>).to, fx.url("basic.html?h=1"));
      const fwd = await mcp.ok("go_forward", { snapshot: "none" });
      assertEquals((fwd.navigation as Record<string, unknown>).to, fx.url("basic.html?h=2"));
      const edge = await mcp.ok("go_forward", { snapshot: "none" });
      assertEquals(edge.moved, false);
      const rl = await mcp.ok("reload", { snapshot: "none" });
      assertEquals(rl.httpStatus, 200);
    });

    await t.step("console_read and network_read page with since_seq", async () => {
      await mcp.ok("navigate", { url: fx.url("console.html"), snapshot: "none" });
      const all = await mcp.ok("console_read", {});
      const entries = all.entries as Array<Record<string, unknown>>;
      assertTrue(entries.some((e) => e.level === "error" && String(e.text).includes("bad thing")));
      assertTrue(entries.some((e) => e.level === "warning"));
      const errs = await mcp.ok("console_read", { level: "error" });
      assertTrue((errs.entries as unknown[]).length >= 1);
      const after = await mcp.ok("console_read", { since_seq: all.last_seq });
      assertEquals((after.entries as unknown[]).length, 0);
      const net = await mcp.ok("network_read", { pattern: "console\\.html" });
      assertTrue((net.entries as unknown[]).length >= 1);
    });

    await t.step("eval_js is refused without the eval capability", async () => {
      const r = await mcp.call("eval_js", { expression: "1+1" });
      assertEquals(r.isError, true);
      assertEquals(r.structuredContent!.requiredCapability, "eval");
    });

    await t.step("list_sessions shows the default session", async () => {
      const r = await mcp.ok("list_sessions");
      const s = (r.sessions as Array<Record<string, unknown>>)[0]!;
      assertEquals(s.session, "default");
      assertEquals(s.mode, "incognito");
      assertTrue((s.consoleEntries as number) > 0);
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
}
