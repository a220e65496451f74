/**
 * Recording tools over MCP stdio against real Chromium and pages served here on 127.0.0.1:
 * `screenshot({ path })`, `pdf_save`, `trace_start` / `trace_stop` (issue 17, "Tools users
 * expect"; `har_save`: record_har_test.ts). Files land in the workspace through the path guard; paths out of it
 * (`..`, absolute elsewhere, a symlinked folder) are refused and nothing is written outside.
 */
import { join } from "node:path";
import { assertEquals, assertIncludes, assertNotIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf, type ToolResult } from "./_mcp.ts";
import { NO_DISPLAY_REASON, startXvfb } from "./_xvfb.ts";
import { startPages } from "./_record_pages.ts";

type R = Record<string, unknown>;
function codeOf(r: ToolResult): string {
  return String(((r.structuredContent?.error ?? {}) as R).code);
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const v = new DataView(bytes.buffer, bytes.byteOffset);
  return { width: v.getUint32(16), height: v.getUint32(20) };
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

Deno.test("recording: screenshot({ path }), pdf_save and traces write workspace files; escapes are refused", async (t) => {
  const pages = startPages();
  const outside = await Deno.realPath(await Deno.makeTempDir({ prefix: "browxai-outside-" }));
  const mcp = await startStdio({
    env: { BROWX_TOOLSETS: "all", BROWX_CAPABILITIES: "read,navigation,action" },
  });
  const ws = await Deno.realPath(mcp.workspace);
  try {
    await mcp.ok("navigate", { url: pages.url("/plain.html"), snapshot: "none" });

    await t.step(
      "screenshot({ path }) writes a PNG and returns no image unless asked",
      async () => {
        const r = await mcp.call("screenshot", { path: "shots/plain.png" });
        assertTrue(!r.isError, textOf(r));
        assertEquals(r.content.filter((c) => c.type === "image").length, 0);
        const s = r.structuredContent!;
        assertEquals(s.path, "shots/plain.png");
        assertEquals(s.absolutePath, join(ws, "shots/plain.png"));
        const bytes = await Deno.readFile(join(ws, "shots/plain.png"));
        assertEquals([...bytes.subarray(0, 8)], PNG_SIGNATURE);
        assertEquals(s.bytes, bytes.length);
        assertEquals(pngSize(bytes), { width: s.width as number, height: s.height as number });
        assertTrue((s.width as number) > 0 && (s.height as number) > 0);

        const withImage = await mcp.call("screenshot", {
          path: "shots/again.png",
          includeImage: true,
        });
        assertEquals(withImage.content.filter((c) => c.type === "image").length, 1);
        // Without a path it behaves as before: the image in the result, no file.
        const plain = await mcp.call("screenshot", {});
        assertEquals(plain.content.filter((c) => c.type === "image").length, 1);
        assertEquals(plain.structuredContent!.path, undefined);
      },
    );

    await t.step(
      "under a device scale factor, width/height are the image's pixels, CSS px beside them",
      async () => {
        await mcp.ok("set_viewport", {
          width: 390,
          height: 664,
          deviceScaleFactor: 3,
          mobile: true,
        });
        try {
          for (
            const [path, extra] of [["shots/dpr.png", {}], ["shots/dpr-full.png", {
              fullPage: true,
            }]] as const
          ) {
            const s = (await mcp.ok("screenshot", { path, ...extra })) as R;
            const bytes = await Deno.readFile(join(ws, path));
            const real = pngSize(bytes);
            assertEquals({ width: s.width, height: s.height }, real, path);
            if (path === "shots/dpr.png") {
              // 390×664 CSS px at 3 device px each; the page's own CSS px (a mobile layout
              // viewport, zoomed out) are reported apart, as cssWidth/cssHeight.
              assertEquals(real, { width: 1170, height: 1992 });
              assertTrue(typeof s.cssWidth === "number", JSON.stringify(s));
            }
          }
        } finally {
          await mcp.ok("set_viewport", { width: null });
        }
      },
    );

    await t.step("screenshot refuses paths that leave the workspace, writing nothing", async () => {
      for (const path of ["../escape.png", "shots/../../escape.png", join(outside, "x.png")]) {
        const r = await mcp.call("screenshot", { path });
        assertTrue(r.isError, `${path}: ${textOf(r)}`);
        assertEquals(codeOf(r), "refused");
        assertIncludes(textOf(r), "workspace");
      }
      // The attack: a folder in the workspace that is a symlink to a folder outside it.
      await Deno.symlink(outside, join(ws, "linked"));
      const r = await mcp.call("screenshot", { path: "linked/evil.png" });
      assertTrue(r.isError, textOf(r));
      assertEquals(codeOf(r), "refused");
      assertIncludes(textOf(r), "link");
      assertEquals(await Array.fromAsync(Deno.readDir(outside)), []);
      // A link planted at the file's own name is replaced, never written through.
      const target = join(outside, "target.txt");
      await Deno.writeTextFile(target, "outside");
      await Deno.mkdir(join(ws, "planted"));
      await Deno.symlink(target, join(ws, "planted/shot.png"));
      await mcp.ok("screenshot", { path: "planted/shot.png" });
      assertEquals(await Deno.readTextFile(target), "outside");
      assertTrue((await Deno.lstat(join(ws, "planted/shot.png"))).isFile);
    });

    await t.step("pdf_save writes a PDF with pages, named after the title by default", async () => {
      await mcp.ok("navigate", { url: pages.url("/long.html"), snapshot: "none" });
      const s = await mcp.ok("pdf_save", { paperFormat: "a4", printBackground: true });
      const path = String(s.path);
      assertTrue(/^long-report-2026-\d{8}-\d{6}\.pdf$/.test(path), path);
      const bytes = await Deno.readFile(join(ws, path));
      assertEquals(new TextDecoder().decode(bytes.subarray(0, 5)), "%PDF-");
      assertEquals(s.bytes, bytes.length);
      assertTrue((s.pages as number) >= 2, `pages: ${s.pages}`);
      const one = await mcp.ok("pdf_save", { path: "docs/first.pdf", pageRanges: "1" });
      assertEquals(one.pages, 1);
      assertEquals(one.path, "docs/first.pdf");
      const bad = await mcp.call("pdf_save", { pageRanges: "5-2" });
      assertTrue(bad.isError, textOf(bad));
      const out = await mcp.call("pdf_save", { path: "../../x.pdf" });
      assertEquals(codeOf(out), "refused");
    });

    await t.step("trace_start / navigate / trace_stop saves a trace DevTools opens", async () => {
      const stopFirst = await mcp.call("trace_stop", {});
      assertTrue(stopFirst.isError, textOf(stopFirst));
      assertIncludes(textOf(stopFirst), "No trace runs");
      const started = await mcp.ok("trace_start", {});
      assertEquals(started.tracing, true);
      const twice = await mcp.call("trace_start", {});
      assertTrue(twice.isError, textOf(twice));
      assertIncludes(textOf(twice), "already runs");
      await mcp.ok("navigate", { url: pages.url("/long.html"), snapshot: "none" });
      // A bad path is refused and the trace keeps running.
      const escape = await mcp.call("trace_stop", { path: "../trace.json" });
      assertEquals(codeOf(escape), "refused");
      const s = await mcp.ok("trace_stop", { path: "traces/nav.json" });
      assertEquals(s.path, "traces/nav.json");
      const trace = JSON.parse(await Deno.readTextFile(join(ws, "traces/nav.json"))) as {
        traceEvents: Array<{ name: string; cat: string }>;
      };
      assertTrue(trace.traceEvents.length > 0, "no trace events");
      const names = new Set(trace.traceEvents.map((e) => e.name));
      assertTrue(names.has("navigationStart") || names.has("RunTask"), [...names].join(","));
      const again = await mcp.call("trace_stop", {});
      assertIncludes(textOf(again), "No trace runs");
    });

    await t.step("a trace whose tab closed is lost, said so, and a new one starts", async () => {
      await mcp.ok("tabs", { action: "new" });
      await mcp.ok("trace_start", {});
      const listed = await mcp.ok("tabs", { action: "list" });
      const active = (listed.tabs as R[]).findIndex((tab) => tab.active);
      await mcp.ok("tabs", { action: "close", index: active });
      const stop = await mcp.call("trace_stop", {});
      assertEquals(codeOf(stop), "page-closed");
      await mcp.ok("trace_start", {});
      await mcp.ok("trace_stop", { path: "traces/after-close.json" });
    });

    await t.step("a closed session ends its trace", async () => {
      await mcp.ok("open_session", { session: "t2" });
      await mcp.ok("trace_start", { session: "t2" });
      await mcp.ok("close_session", { session: "t2" });
      await mcp.ok("open_session", { session: "t2" });
      const stop = await mcp.call("trace_stop", { session: "t2" });
      assertIncludes(textOf(stop), "No trace runs");
      // Chromium's tracing was ended too: a new trace starts.
      await mcp.ok("trace_start", { session: "t2" });
      await mcp.ok("trace_stop", { session: "t2", path: "traces/t2.json" });
    });
  } finally {
    await mcp.close();
    await pages.close();
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("recording: with only read, screenshot({ path }) is refused with a hint and writes nothing", async () => {
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation" } });
  try {
    const r = await mcp.call("screenshot", { path: "x.png" });
    assertTrue(r.isError, textOf(r));
    assertEquals(codeOf(r), "capability-required");
    assertEquals(r.structuredContent!.requiredCapability, "action");
    assertIncludes(textOf(r), 'omit "path"');
    const files = (await Array.fromAsync(Deno.readDir(mcp.workspace))).map((e) => e.name);
    assertNotIncludes(files.join(","), "x.png");
  } finally {
    await mcp.close();
  }
});

Deno.test({
  // Chromium 156 prints in a shown browser too (older builds answered "PrintToPDF is not
  // implemented": that answer's mapping is unit-tested in browser/recording/pdf_test.ts).
  name: "recording: pdf_save in a headful browser saves the PDF, or says to use a headless one",
  ignore: NO_DISPLAY_REASON !== undefined,
  async fn() {
    const x = await startXvfb();
    const pages = startPages();
    const mcp = await startStdio({
      env: {
        DISPLAY: x.display,
        BROWX_TOOLSETS: "all",
        BROWX_CAPABILITIES: "read,navigation,action",
      },
    });
    try {
      await mcp.ok("open_session", {
        session: "shown",
        headful: true,
        url: pages.url("/long.html"),
      });
      const r = await mcp.call("pdf_save", { session: "shown", path: "shown.pdf" });
      if (r.isError) {
        assertEquals(codeOf(r), "refused");
        assertIncludes(textOf(r), "headless");
      } else {
        // A Chromium that prints headful too: then the file must be a PDF.
        const bytes = await Deno.readFile(join(await Deno.realPath(mcp.workspace), "shown.pdf"));
        assertEquals(new TextDecoder().decode(bytes.subarray(0, 5)), "%PDF-");
      }
    } finally {
      await mcp.close();
      await pages.close();
      await x.close();
    }
  },
});
