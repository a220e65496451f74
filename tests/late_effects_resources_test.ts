/**
 * A late effect started from a resource's event is the action's: a click creates an image (in
 * the document or not), a script, a stylesheet, an iframe or an audio element whose server
 * answers after 150 ms, and its load (or error, or media) handler sets a 300 ms timer that
 * navigates: the click's result has the navigation (`page_timers_resources.ts`). A click that
 * starts nothing still closes its window on the first quiet question.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { act } from "./_results.ts";

const PNG: Uint8Array<ArrayBuffer> = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  ),
  (c) => c.charCodeAt(0),
);

/** A short silent WAV (8 kHz, 8-bit mono, 0.1 s). */
function wav(): Uint8Array<ArrayBuffer> {
  const samples = 800, out = new Uint8Array(44 + samples);
  const v = new DataView(out.buffer);
  const text = (at: number, s: string) => [...s].forEach((c, i) => out[at + i] = c.charCodeAt(0));
  text(0, "RIFF");
  v.setUint32(4, 36 + samples, true);
  text(8, "WAVEfmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, 8000, true);
  v.setUint32(28, 8000, true);
  v.setUint16(32, 1, true);
  v.setUint16(34, 8, true);
  text(36, "data");
  v.setUint32(40, samples, true);
  out.fill(128, 44);
  return out;
}

// Each button makes an element whose load answers in 150 ms; its handler navigates 300 ms later.
const PAGE = `<!doctype html><title>Resources</title><main><h1>Resources</h1>
<button id=img>Image</button><button id=imgdom>Image in page</button>
<button id=imgattr>Image by attribute</button><button id=imgerr>Broken image</button>
<button id=script>Script</button><button id=css>Stylesheet</button>
<button id=frame>Frame</button><button id=audio>Audio</button>
<button id=again>Same image again</button><button id=quiet>Quiet audio</button>
<button id=unused>Unused script</button><img id=pic src="/r.png?ms=0" alt=Pic>
<button id=html>Image by HTML</button>
<button id=plain onclick="out.textContent = 'Clicked'">Plain</button>
<p id=out>Idle</p></main><script>
const later = (what) => () => setTimeout(() => { location.href = "/done?" + what; }, 300);
const on = (id, f) => document.getElementById(id).addEventListener("click", f);
on("img", () => { const i = new Image(); i.onload = later("img"); i.src = "/r.png?ms=150"; });
on("imgdom", () => {
  const i = document.createElement("img");
  i.addEventListener("load", later("imgdom"));
  document.body.append(i);
  i.src = "/r.png?ms=150&dom";
});
on("imgattr", () => {
  const i = document.createElement("img");
  i.onload = later("imgattr");
  i.setAttribute("src", "/r.png?ms=150&attr");
});
on("imgerr", () => { const i = new Image(); i.onerror = later("imgerr"); i.src = "/missing?ms=150"; });
// Set before the handler, appended after: a script or sheet fetches once in the document.
const inHead = (tag, props, what) => {
  const e = Object.assign(document.createElement(tag), props);
  e.onload = later(what);
  document.head.append(e);
};
on("script", () => inHead("script", { src: "/r.js?ms=150" }, "script"));
on("css", () => inHead("link", { rel: "stylesheet", href: "/r.css?ms=150" }, "css"));
on("html", () => {
  out.innerHTML = '<img src="/r.png?ms=150&html" onload="later(this.alt)()" alt=html>';
});
// Loads that never come: the window must not wait for them.
on("again", () => { pic.src = pic.src; });
on("quiet", () => {
  const a = document.createElement("audio");
  a.preload = "none";
  a.src = "/r.wav?ms=0";
  document.body.append(a);
});
on("unused", () => { document.createElement("script").src = "/r.js?ms=0"; });
on("frame", () => {
  const f = document.createElement("iframe");
  f.src = "/frame?ms=150";
  f.onload = later("frame");
  document.body.append(f);
});
on("audio", () => {
  const a = new Audio();
  a.addEventListener("canplay", later("audio"), { once: true });
  a.src = "/r.wav?ms=150";
});
</script>`;

const TYPES: Record<string, string> = {
  "/r.png": "image/png",
  "/r.js": "text/javascript",
  "/r.css": "text/css",
  "/r.wav": "audio/wav",
  "/frame": "text/html",
};

Deno.test("late effects: a timer a resource's load handler sets is the action's", async (t) => {
  const stop = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {}, signal: stop.signal },
    async (req) => {
      const url = new URL(req.url);
      const ms = Number(url.searchParams.get("ms") ?? 0);
      // The server's own delay (a slow resource is what is tested), ended early at shutdown.
      await new Promise<void>((done) => {
        const timer = setTimeout(done, ms);
        stop.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          done();
        });
      });
      const p = url.pathname;
      if (p === "/") return new Response(PAGE, { headers: { "content-type": "text/html" } });
      if (p === "/done") {
        return new Response(`<!doctype html><title>Done</title><p>Done ${url.search}`, {
          headers: { "content-type": "text/html" },
        });
      }
      const type = TYPES[p];
      if (!type) return new Response("no", { status: 404 });
      const body = p === "/r.png"
        ? PNG
        : p === "/r.wav"
        ? wav()
        : p === "/r.js"
        ? "window.loadedJs = 1;"
        : p === "/r.css"
        ? "p { color: red }"
        : "<!doctype html><p>Frame";
      return new Response(body, { headers: { "content-type": type } });
    },
  );
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const open = () =>
    mcp.ok("navigate", { url: `http://127.0.0.1:${server.addr.port}/`, snapshot: "none" });
  try {
    for (
      const id of ["img", "imgdom", "imgattr", "imgerr", "script", "css", "frame", "audio", "html"]
    ) {
      await t.step(`${id}: the navigation its handler set is in the click's result`, async () => {
        await open();
        const r = await act(mcp, "click", { selector: `#${id}`, snapshot: "none" });
        assertEquals(r.ok, true);
        assertEquals(r.navigation?.changed, true, JSON.stringify(r));
        assertIncludes(r.navigation?.to ?? "", `/done?${id}`);
      });
    }

    for (const id of ["again", "quiet", "unused"]) {
      await t.step(`${id}: a load that never comes does not hold the result`, async () => {
        await open();
        const r = await act(mcp, "click", { selector: `#${id}`, snapshot: "none" });
        assertEquals(r.ok, true);
        assertEquals(r.warnings.filter((w) => w.includes("settled")), [], JSON.stringify(r));
        assertEquals((r as { timedOut?: boolean }).timedOut ?? false, false);
      });
    }

    await t.step("the wrapped setters and setAttribute look native, and still work", async () => {
      await open();
      const looks = await mcp.ok("eval_js", {
        expression: `(() => {
          const src = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src").set;
          const set = Element.prototype.setAttribute;
          const i = new Image();
          i.setAttribute("src", "/x.png");
          return [String(src), src.name, src.length, "prototype" in src, String(set),
            set.name, set.length, i.getAttribute("src")];
        })()`,
      });
      assertEquals(looks.value, [
        "function set src() { [native code] }",
        "set src",
        1,
        false,
        "function setAttribute() { [native code] }",
        "setAttribute",
        2,
        "/x.png",
      ]);
    });

    await t.step("a click that starts nothing closes its window without waiting", async () => {
      await open();
      const r = await act(mcp, "click", { selector: "#plain" });
      assertIncludes(JSON.stringify(r.snapshotDelta), "Clicked");
      assertEquals(r.navigation?.changed ?? false, false);
    });

    await t.step(
      "bad input: a selector that matches nothing fails, nothing navigates",
      async () => {
        await open();
        const r = await mcp.call("click", { selector: "#nope", timeoutMs: 500 });
        assertEquals(r.isError, true);
      },
    );
  } finally {
    await mcp.close();
    stop.abort();
    await server.finished;
  }
});
