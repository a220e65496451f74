/**
 * Late effects through waits other than timers are the action's (red team, session 13): a click
 * whose handler reacts ~300 ms later through `AbortSignal.timeout` (its `abort` event, through
 * `AbortSignal.any` too), `Atomics.waitAsync`, a `navigator.locks` lock held then released, a
 * WebAudio source's `ended`, `document.startViewTransition`, an image's error then a short abort
 * timer, or a fresh same-origin iframe's `setTimeout` / `requestAnimationFrame` / abort timer
 * (a realm made by the click, never armed), or an abort heard through another realm's
 * `addEventListener`, or a dedicated worker's timer then message, has the render, navigation or
 * write in its own
 * result (`page_timers_waits.ts`, `page_timers_up.ts`). A timeout signal nobody listens to (a
 * fetch's) does not hold the result.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { act } from "./_results.ts";
import { serveWritePages } from "./_write_pages.ts";

// Each button's effect shows 200–300 ms after the click, past the window's quiet moment.
const PAGE = `<!doctype html><title>Waits</title><main><h1>Waits</h1>
<button id=abort>Abort</button><button id=abort-nav>Abort nav</button>
<button id=abort-post>Abort post</button><button id=abort-any>Abort any</button>
<button id=img-abort>Image then abort</button><button id=atomics>Atomics</button>
<button id=lock>Lock</button><button id=audio>Audio</button>
<button id=transition>Transition</button><button id=frame-timeout>Frame timeout</button>
<button id=frame-raf>Frame frames</button><button id=frame-abort>Frame abort</button>
<button id=unheard>Unheard</button><button id=cross>Cross realm</button>
<button id=crowd>Crowd</button><button id=any-frame>Any in frame</button>
<button id=any-set>Any of a set</button><button id=boxed>Boxed type</button>
<button id=worker>Worker</button>
<p id=out>Idle</p></main><script>
const out = document.getElementById("out");
const render = (what) => () => { out.textContent = what + " done"; };
const on = (id, f) => document.getElementById(id).addEventListener("click", f);
const fresh = () => {
  const f = document.createElement("iframe");
  f.hidden = true;
  document.body.append(f);
  return f.contentWindow;
};
on("abort", () => AbortSignal.timeout(300).addEventListener("abort", render("Abort")));
on("abort-nav", () => { AbortSignal.timeout(300).onabort = () => { location.href = "/done?abort"; }; });
on("abort-post", () => {
  AbortSignal.timeout(300).onabort = () =>
    fetch("/write?id=1", { method: "POST", body: "x" }).then(render("Post"));
});
on("abort-any", () => { AbortSignal.any([AbortSignal.timeout(300)]).onabort = render("Any"); });
on("img-abort", () => {
  const i = new Image();
  i.onerror = () => { AbortSignal.timeout(200).onabort = render("Image abort"); };
  i.src = "/missing.png";
});
on("atomics", () => {
  const a = new Int32Array(new SharedArrayBuffer(4));
  Atomics.waitAsync(a, 0, 0, 300).value.then(render("Atomics"));
});
on("lock", () => {
  navigator.locks.request("x", () => new Promise((r) => { AbortSignal.timeout(300).onabort = r; }))
    .then(render("Lock"));
});
on("audio", () => {
  const c = new AudioContext();
  const o = c.createOscillator();
  o.onended = render("Audio");
  o.start();
  o.stop(c.currentTime + 0.3);
});
on("transition", () => {
  document.startViewTransition(() => new Promise((r) => { AbortSignal.timeout(300).onabort = r; }))
    .finished.then(render("Transition"));
});
on("frame-timeout", () => fresh().setTimeout(render("Frame timeout"), 300));
on("frame-raf", () => {
  const w = fresh();
  let n = 0;
  const step = () => { if (++n > 18) render("Frame frames")(); else w.requestAnimationFrame(step); };
  w.requestAnimationFrame(step);
});
on("frame-abort", () => { fresh().AbortSignal.timeout(300).onabort = render("Frame abort"); });
// Heard through another realm's addEventListener (a fresh frame's).
on("cross", () => {
  fresh().EventTarget.prototype.addEventListener.call(AbortSignal.timeout(300), "abort", render("Cross"));
});
// Many frames first (a page hoping the watch stops linking them), then the one with the timer.
on("crowd", () => {
  for (let i = 0; i < 70; i++) fresh();
  fresh().setTimeout(render("Crowd"), 300);
});
// A fresh frame's AbortSignal.any over this realm's signal; an iterable that is no array; a
// listener whose type is a String object.
on("any-frame", () => {
  fresh().AbortSignal.any([AbortSignal.timeout(300)]).onabort = render("Any in frame");
});
on("any-set", () => { AbortSignal.any(new Set([AbortSignal.timeout(300)])).onabort = render("Any set"); });
on("boxed", () => AbortSignal.timeout(300).addEventListener(new String("abort"), render("Boxed")));
// A worker's own timer, then its message, which the page renders.
on("worker", () => {
  const w = new Worker(URL.createObjectURL(new Blob(["setTimeout(() => postMessage(1), 300)"])));
  w.onmessage = render("Worker");
});
on("unheard", () => {
  window.unheard = AbortSignal.timeout(900);
  fetch("/quick", { signal: window.unheard }).then(render("Quick"));
});
</script>`;

Deno.test("late effects: waits other than timers (abort signals, locks, audio, transitions, fresh frames) are in the result", async (t) => {
  // Cross-origin isolated: SharedArrayBuffer (Atomics.waitAsync) needs it.
  const server = serveWritePages(PAGE, {
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-embedder-policy": "require-corp",
  });
  const posts = server.posts;
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const open = () => mcp.ok("navigate", { url: `${server.base}/`, snapshot: "none" });
  const shown = (r: unknown) => JSON.stringify(r);
  try {
    const renders: Array<[string, string]> = [
      ["abort", "Abort done"],
      ["abort-any", "Any done"],
      ["img-abort", "Image abort done"],
      ["atomics", "Atomics done"],
      ["lock", "Lock done"],
      ["audio", "Audio done"],
      ["transition", "Transition done"],
      ["frame-timeout", "Frame timeout done"],
      ["frame-raf", "Frame frames done"],
      ["frame-abort", "Frame abort done"],
      ["cross", "Cross done"],
      ["crowd", "Crowd done"],
      ["any-frame", "Any in frame done"],
      ["any-set", "Any set done"],
      ["boxed", "Boxed done"],
      ["worker", "Worker done"],
    ];
    for (const [id, text] of renders) {
      await t.step(`${id}: the render ~300 ms later is in the click's result`, async () => {
        await open();
        const r = await act(mcp, "click", { selector: `#${id}` });
        assertEquals(r.ok, true);
        assertIncludes(shown(r.snapshotDelta), text);
      });
    }

    await t.step("an abort timer's navigation is the click's", async () => {
      await open();
      const r = await act(mcp, "click", { selector: "#abort-nav", snapshot: "none" });
      assertEquals(r.navigation?.changed, true, shown(r));
      assertIncludes(r.navigation?.to ?? "", "/done?abort");
    });

    await t.step("an abort timer's POST is in the click's writes", async () => {
      await open();
      const r = await act(mcp, "click", { selector: "#abort-post" });
      assertIncludes(shown(r.network?.mutations ?? []), "/write?id");
      assertIncludes(shown(r.snapshotDelta), "Post done");
      assertEquals(posts, ["/write?id=1"]);
    });

    await t.step(
      "a fetch's timeout signal nobody listens to does not hold the result",
      async () => {
        await open();
        const r = await act(mcp, "click", { selector: "#unheard" });
        assertIncludes(shown(r.snapshotDelta), "Quick done");
        // Asked right after the result: its 900 ms had not run out, so nothing waited for it.
        const late = await mcp.ok("eval_js", { expression: "window.unheard.aborted" });
        assertEquals(late.value, false);
      },
    );

    await t.step("the wrapped built-ins look native and still work", async () => {
      await open();
      const looks = await mcp.ok("eval_js", {
        expression: `(async () => {
          const fns = [AbortSignal.timeout, AbortSignal.any, Atomics.waitAsync,
            LockManager.prototype.request, AudioScheduledSourceNode.prototype.stop,
            AudioScheduledSourceNode.prototype.start, Document.prototype.startViewTransition,
            EventTarget.prototype.addEventListener];
          const native = fns.every((f) => /\\{ \\[native code\\] \\}$/.test(String(f)) &&
            !("prototype" in f));
          const names = fns.map((f) => f.name + "/" + f.length).join(" ");
          let bad = "";
          try { AbortSignal.timeout(-1); } catch (e) { bad = e.name; }
          const s = AbortSignal.timeout(0);
          const heard = await new Promise((r) => s.addEventListener("abort", () => r(s.aborted)));
          const held = await navigator.locks.request("y", (lock) => lock.name);
          return [native, names, bad, heard, held];
        })()`,
      });
      assertEquals(looks.value, [
        true,
        "timeout/1 any/1 waitAsync/4 request/2 stop/0 start/0 startViewTransition/0 addEventListener/2",
        "TypeError",
        true,
        "y",
      ]);
    });

    await t.step("bad input: a click on nothing fails, nothing is sent", async () => {
      await open();
      const before = posts.length;
      const r = await mcp.call("click", { selector: "#nope", timeoutMs: 500 });
      assertEquals(r.isError, true);
      assertEquals(posts.length, before);
    });
  } finally {
    await mcp.close();
    await server.close();
  }
});
