/**
 * Screenshots under secrets masking, over MCP stdio with real Chromium: the value's text and
 * field, placeholders, selects, zero-width-split text, closed shadow roots and same-origin
 * frames are covered, the rest of the page shows; and a page that fights the cover:
 * a page-wide 20 s CSS transition, a
 * selection styled by `::selection`, a `::placeholder` with
 * `-webkit-text-fill-color`, a broken image's alt text, a div re-rendered
 * every millisecond, an element that jumps every millisecond, and a modal
 * dialog (the top layer). The PNG's
 * pixels are decoded: every place the secret shows is the cover colour, the
 * rest of the page shows, and no pixel of the secret's red is anywhere.
 */
import { decode } from "fast-png";
import { join } from "node:path";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { type McpHarness, startStdio, textOf, type ToolResult } from "./_mcp.ts";
import { eventually } from "./_util.ts";
import { startFixtureServer } from "./fixtures/server.ts";

const KEY = "Zq7-hunter-Wv3x";

type R = Record<string, unknown>;
type Rect = { x: number; y: number; w: number; h: number };
type Png = ReturnType<typeof decode>;

/** The image of a screenshot result. */
function pngOf(r: ToolResult): Png {
  const img = r.content.find((c) => c.type === "image")!;
  return decode(Uint8Array.from(atob(img.data!), (c) => c.charCodeAt(0)));
}

/** The RGB of the pixel at CSS px (x, y). */
function pixel(png: Png, dpr: number, x: number, y: number): number[] {
  const i = (Math.floor(y * dpr) * png.width + Math.floor(x * dpr)) * png.channels;
  return [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
}

/** Where the image has the secret's red (or a blend of it): none must be left. */
function redPixels(png: Png): number {
  let n = 0;
  for (let i = 0; i < png.data.length; i += png.channels) {
    const [r, g, b] = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
    if (r - g > 60 && r - b > 60) n++;
  }
  return n;
}

Deno.test("secrets: a page's transitions, pseudo-elements, alt text and re-rendering cannot uncover a screenshot", async (t) => {
  const fx = await startFixtureServer();
  const ws = await Deno.makeTempDir({ prefix: "browxai-shot-ws-" });
  const secrets = join(ws, "secrets.env");
  await Deno.writeTextFile(secrets, `KEY=${KEY}\n`, { mode: 0o600 });
  let mcp: McpHarness | undefined;
  try {
    mcp = await startStdio({
      workspace: ws,
      env: {
        BROWX_CAPABILITIES: "read,navigation,action,eval,secrets",
        BROWX_SECRETS: secrets,
        BROWX_TOOLSETS: "all",
      },
    });
    const m = mcp;
    await m.ok("navigate", { url: fx.url("secret-restyle.html"), snapshot: "none" });
    await m.ok("fill", { selector: "#k", value: "{{secret:KEY}}", snapshot: "none" });
    // The page selects the value (fill leaves the selection in the field: the page's script
    // selects it again, as the red team's page did on a timer).
    await m.ok("eval_js", {
      expression: `getSelection().selectAllChildren(document.getElementById("sel"))`,
    });
    const rects = (await m.ok("eval_js", {
      expression: `(() => {
          const r = (el) => { const b = el.getBoundingClientRect();
            return { x: b.x, y: b.y, w: b.width, h: b.height }; };
          const $ = (id) => document.getElementById(id);
          return { tr: r($("tr")), sel: r($("sel")), ph: r($("ph")), im: r($("im")),
            live: r($("box").firstElementChild), plain: r($("plain")), dpr: devicePixelRatio,
            selected: getSelection().anchorNode?.id,
            broken: $("im").complete && $("im").naturalWidth === 0,
            shown: $("tr").textContent.length };
        })()`,
    })).value as Record<string, Rect> & {
      dpr: number;
      selected: string;
      broken: boolean;
      shown: number;
    };
    assertEquals(rects.shown, KEY.length, "the page shows the value");
    assertEquals(rects.selected, "sel", "the page selected the value");
    assertTrue(rects.broken, "the image is broken (its alt text is drawn)");

    await t.step("every place the secret shows is boxed over; the page shows", async () => {
      for (const args of [{}, { fullPage: true }, {}, {}]) {
        const r = await m.call("screenshot", args);
        assertTrue(!r.isError, textOf(r));
        const png = pngOf(r);
        for (const name of ["tr", "sel", "ph", "im", "live"]) {
          const b = rects[name]!;
          for (let y = b.y + 3; y < b.y + b.h - 3; y++) {
            for (let x = b.x + 3; x < b.x + b.w - 3; x++) {
              const [r, g, bl] = pixel(png, rects.dpr, x, y);
              assertTrue(r! + g! + bl! <= 24, `${name} at ${x},${y} is ${[r, g, bl]}, not covered`);
            }
          }
        }
        assertEquals(redPixels(png), 0, "no pixel of the secret's red is left");
        const p = rects.plain!;
        assertEquals(pixel(png, rects.dpr, p.x + p.w / 2, p.y + p.h / 2), [0, 128, 255]);
        assertTrue((r.structuredContent!.secretsCovered as number) >= 5, textOf(r));
      }
      const left = await m.ok("eval_js", {
        expression: `[document.querySelectorAll("[popover]").length,
          document.getElementById("tr").getAttribute("style")]`,
      });
      assertEquals(left.value, [0, null], "the overlay is gone and the page untouched");
      // The page's scripts were held during the capture only: its timer runs again.
      const ticks = async () =>
        (await m.ok("eval_js", { expression: "window.ticks" })).value as number;
      const before = await ticks();
      await eventually(
        async () => (await ticks()) > before,
        10_000,
        "the page's timer running again",
      );
      // And its animation clock (held too) runs again.
      const clock = async () =>
        (await m.ok("eval_js", { expression: "document.timeline.currentTime" })).value as number;
      const then = await clock();
      await eventually(
        async () => (await clock()) > then,
        10_000,
        "the page's animation clock running",
      );
    });

    await t.step(
      "scrolled: viewport and full-page captures cover where the secret is drawn",
      async () => {
        await m.ok("eval_js", { expression: "scrollTo(0, 150)" });
        for (const args of [{}, { fullPage: true }]) {
          const r = await m.call("screenshot", args);
          assertTrue(!r.isError, textOf(r));
          const png = pngOf(r);
          assertEquals(redPixels(png), 0, `no red left (${JSON.stringify(args)})`);
          const dy = "fullPage" in args ? 0 : -150;
          const b = rects.live!;
          for (let y = b.y + 3; y < b.y + b.h - 3; y++) {
            for (let x = b.x + 3; x < b.x + b.w - 3; x++) {
              const [r, g, bl] = pixel(png, rects.dpr, x, y + dy);
              assertTrue(r! + g! + bl! <= 24, `live at ${x},${y + dy} is ${[r, g, bl]}`);
            }
          }
        }
        await m.ok("eval_js", { expression: "scrollTo(0, 0)" });
      },
    );

    await t.step("a secret in a modal dialog (the top layer) is boxed over too", async () => {
      const d = (await m.ok("eval_js", {
        expression: `(() => { document.getElementById("dlg").showModal();
          const b = document.getElementById("indlg").getBoundingClientRect();
          return { x: b.x, y: b.y, w: b.width, h: b.height }; })()`,
      })).value as Rect;
      const r = await m.call("screenshot", {});
      assertTrue(!r.isError, textOf(r));
      const png = pngOf(r);
      for (let y = d.y + 3; y < d.y + d.h - 3; y++) {
        for (let x = d.x + 3; x < d.x + d.w - 3; x++) {
          const [r, g, b] = pixel(png, rects.dpr, x, y);
          assertTrue(r! + g! + b! <= 24, `the dialog's text at ${x},${y} is ${[r, g, b]}`);
        }
      }
      assertEquals(redPixels(png), 0, "no pixel of the secret's red is left");
      await m.ok("eval_js", { expression: `document.getElementById("dlg").close()` });
    });

    for (
      const [how, on, off] of [
        ["a timer", "jump(true)", "jump(false)"],
        ["a CSS animation", "hop(true)", "hop(false)"],
      ]
    ) {
      await t.step(`a secret moved by ${how} is retaken or refused, never shown`, async () => {
        await m.ok("eval_js", { expression: `window.${on}` });
        let refused = 0;
        for (let i = 0; i < 4; i++) {
          const r = await m.call("screenshot", {});
          if (r.isError) {
            refused++;
            assertIncludes(textOf(r), "kept changing where a secret shows");
            assertIncludes(textOf(r), "element screenshot");
            continue;
          }
          assertEquals(redPixels(pngOf(r)), 0, "no pixel of the secret's red is left");
        }
        await m.ok("eval_js", { expression: `window.${off}` });
        const calm = await m.call("screenshot", {});
        assertTrue(!calm.isError, `once the page is still, screenshots work (${refused} refused)`);
        assertEquals(redPixels(pngOf(calm)), 0);
      });
    }

    await t.step("screenshots cover the value's text and field; the rest shows", async () => {
      await m.ok("navigate", { url: fx.url("secret-oracle.html"), snapshot: "none" });
      await m.ok("fill", { selector: "#key", value: "{{secret:KEY}}", snapshot: "none" });
      const rects = (await m.ok("eval_js", {
        expression: `(() => {
          const r = (el) => { const b = el.getBoundingClientRect();
            return { x: b.x, y: b.y, w: b.width, h: b.height }; };
          const f = document.getElementById("frame");
          const inner = r(f.contentDocument.getElementById("inner"));
          const fr = r(f);
          return { shown: r(document.getElementById("shown")), key: r(document.getElementById("key")),
            plain: r(document.getElementById("plain")),
            svgtext: r(document.getElementById("svgtext")),
            body: (() => { const range = document.createRange(); range.selectNode([...document.body.childNodes].find((n) => n.nodeType === 3 && n.data.trim()));
              const b = range.getBoundingClientRect(); return { x: b.x, y: b.y, w: b.width, h: b.height }; })(),
            inner: { ...inner, x: inner.x + fr.x, y: inner.y + fr.y }, dpr: devicePixelRatio };
        })()`,
      })).value as Record<string, { x: number; y: number; w: number; h: number }> & { dpr: number };
      const shot = async (args: R) => {
        const r = await m.call("screenshot", args);
        assertTrue(!r.isError, textOf(r));
        const img = r.content.find((c) => c.type === "image")!;
        const png = decode(Uint8Array.from(atob(img.data!), (c) => c.charCodeAt(0)));
        return { png, structured: r.structuredContent as R };
      };
      const pixel = (png: ReturnType<typeof decode>, x: number, y: number) => {
        const px = Math.floor(x * rects.dpr), py = Math.floor(y * rects.dpr);
        const i = (py * png.width + px) * png.channels;
        return [png.data[i], png.data[i + 1], png.data[i + 2]];
      };
      /** Every pixel inside the rect (inset by 3 px: borders) is black. */
      const covered = (png: ReturnType<typeof decode>, name: string, dx = 0, dy = 0) => {
        const b = rects[name]!;
        for (let y = b.y + 3; y < b.y + b.h - 3; y++) {
          for (let x = b.x + 3; x < b.x + b.w - 3; x++) {
            const [r, g, b] = pixel(png, x - dx, y - dy);
            // Black, give or take rasterization (uncovered, it is black text on white).
            assertTrue(r! + g! + b! <= 24, `${name} at ${x},${y} is ${[r, g, b]}, not covered`);
          }
        }
      };
      for (const args of [{}, { fullPage: true }]) {
        const { png, structured } = await shot(args);
        assertTrue((structured.secretsCovered as number) >= 3, JSON.stringify(structured));
        covered(png, "shown");
        covered(png, "key");
        covered(png, "inner");
        covered(png, "body");
        covered(png, "svgtext");
        const p = rects.plain!;
        assertEquals(pixel(png, p.x + p.w / 2, p.y + p.h / 2), [0, 128, 255], "the page shows");
      }
      const element = await shot({ selector: "#shown" });
      covered(element.png, "shown", rects.shown!.x, rects.shown!.y);
      const restored = await m.ok("eval_js", {
        expression: `[document.getElementById("shown").getAttribute("style"),
          document.getElementById("key").getAttribute("style"),
          document.getElementById("svgtext").getAttribute("style"),
          [...document.body.childNodes].some((n) => n.nodeType === 3 && n.data.trim() !== ""),
          document.querySelectorAll("[popover]").length]`,
      });
      assertEquals(
        restored.value,
        [null, null, null, true, 0],
        "the page is restored after the capture",
      );
    });

    await t.step(
      "screenshots cover placeholders, selects, zero-width-split text, closed shadow roots",
      async () => {
        await m.ok("navigate", { url: fx.url("secret-shot.html"), snapshot: "none" });
        await m.ok("fill", { selector: "#k", value: "{{secret:KEY}}", snapshot: "none" });
        const rects = (await m.ok("eval_js", {
          expression: `(() => {
          const r = (el) => { const b = el.getBoundingClientRect();
            return { x: b.x, y: b.y, w: b.width, h: b.height }; };
          return { ph: r(document.getElementById("ph")), sel: r(document.getElementById("sel")),
            dd: r(document.getElementById("dd")), closed: r(closedP), dpr: devicePixelRatio,
            shown: document.getElementById("dd").textContent.length };
        })()`,
        })).value as Record<string, { x: number; y: number; w: number; h: number }> & {
          dpr: number;
          shown: number;
        };
        assertEquals(rects.shown, KEY.length * 2 - 1, "the page split the value");
        const r = await m.call("screenshot", {});
        assertTrue(!r.isError, textOf(r));
        const img = r.content.find((c) => c.type === "image")!;
        const png = decode(Uint8Array.from(atob(img.data!), (c) => c.charCodeAt(0)));
        for (const name of ["ph", "sel", "dd", "closed"]) {
          const b = rects[name]!;
          for (let y = b.y + 3; y < b.y + b.h - 3; y++) {
            for (let x = b.x + 3; x < b.x + b.w - 3; x++) {
              const i = (Math.floor(y * rects.dpr) * png.width + Math.floor(x * rects.dpr)) *
                png.channels;
              const sum = png.data[i]! + png.data[i + 1]! + png.data[i + 2]!;
              assertTrue(sum <= 24, `${name} at ${x},${y} is not covered (${sum})`);
            }
          }
        }
      },
    );
  } finally {
    await mcp?.close();
    await fx.close();
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});
