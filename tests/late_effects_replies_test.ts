/**
 * Late effects through replies are the action's (red team, session 14): a click whose handler
 * reacts ~300 ms later through a WebSocket reply (a render, a navigation, a POST), an
 * EventSource push (a named event too), an IndexedDB transaction chain, a ResizeObserver → animation frame loop, a
 * service worker's message back (or its own POST), or a real timer set after 64 dummy ones,
 * has the render, navigation or write in its own result (`page_timers_replies.ts`), also
 * through a socket subclass or a socket opened before and sent on with another realm's `send`.
 * A chat
 * socket the page opened before, pushing all the time, does not hold the click's result.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { act } from "./_results.ts";
import { eventually } from "./_util.ts";

const D = 300;
const PAGE = `<!doctype html><title>Replies</title><main><h1>Replies</h1>
<button id=ws>Socket</button><button id=ws-nav>Socket nav</button>
<button id=ws-post>Socket post</button><button id=es>Push</button>
<button id=idb>Store</button><button id=resize>Resize</button>
<button id=crowd>Crowd</button><button id=sw>Worker reply</button>
<button id=sw-post>Worker post</button><button id=quiet>Quiet</button>
<button id=es-named>Named push</button><button id=ws-sub>Socket subclass</button><button id=ws-old>Old socket</button>
<p id=out>Idle</p></main><script>
const out = document.getElementById("out");
const render = (what) => () => { out.textContent = what + " done"; };
const on = (id, f) => document.getElementById(id).addEventListener("click", f);
const socket = (then) => {
  const s = new WebSocket("ws://" + location.host + "/ws");
  s.onopen = () => s.send("del");
  s.onmessage = then;
};
window.chatSeen = 0;
const chat = new WebSocket("ws://" + location.host + "/chat");
chat.onmessage = () => { window.chatSeen++; };
on("ws", () => socket(render("Socket")));
on("ws-nav", () => socket(() => { location.href = "/done?ws"; }));
on("ws-post", () => socket(() => fetch("/write?ws", { method: "POST", body: "x" }).then(render("Post"))));
on("es", () => { const e = new EventSource("/es"); e.onmessage = () => { e.close(); render("Push")(); }; });
on("es-named", () => {
  const e = new EventSource("/es?named");
  e.addEventListener("update", () => { e.close(); render("Named push")(); });
});
on("idb", () => {
  const o = indexedDB.open("db" + Math.random());
  o.onupgradeneeded = () => o.result.createObjectStore("s");
  // Transactions one after another for 300 ms, then the render.
  const t0 = performance.now();
  o.onsuccess = () => {
    const db = o.result;
    let n = 0;
    const step = () => {
      const t = db.transaction("s", "readwrite");
      t.objectStore("s").put("x".repeat(20000), n++);
      t.oncomplete = () => { if (performance.now() - t0 > ${D}) render("Store")(); else step(); };
    };
    step();
  };
});
on("resize", () => {
  let n = 0;
  const d = document.createElement("div");
  document.body.append(d);
  const ro = new ResizeObserver(() => {
    if (++n > 15) { ro.disconnect(); render("Resize")(); }
    else requestAnimationFrame(() => { d.style.width = n * 3 + "px"; });
  });
  ro.observe(d);
});
on("crowd", () => {
  for (let i = 0; i < 64; i++) setTimeout(() => {}, 0);
  setTimeout(render("Crowd"), ${D});
});
on("sw", () => {
  navigator.serviceWorker.onmessage = render("Worker reply");
  navigator.serviceWorker.controller.postMessage("t");
});
on("sw-post", () => navigator.serviceWorker.controller.postMessage("post"));
on("quiet", render("Quiet"));
// Tampering: a subclass of the socket; a socket opened at load, sent on through another realm's
// send (a fresh frame's).
on("ws-sub", () => {
  class Mine extends WebSocket {}
  const s = new Mine("ws://" + location.host + "/ws");
  s.addEventListener("open", () => s.send("del"));
  s.addEventListener("message", render("Socket subclass"));
});
const old = new WebSocket("ws://" + location.host + "/ws");
old.onmessage = render("Old socket");
on("ws-old", () => {
  const f = document.createElement("iframe");
  document.body.append(f);
  f.contentWindow.WebSocket.prototype.send.call(old, "del");
});
navigator.serviceWorker.register("/sw.js");
</script>`;

const SW = `self.oninstall = () => self.skipWaiting();
self.onactivate = (e) => e.waitUntil(clients.claim());
self.onmessage = (e) => {
  if (e.data === "post") setTimeout(() => fetch("/write?sw", { method: "POST", body: "sw" }), ${D});
  else setTimeout(() => e.source.postMessage(1), ${D});
};`;

/** The page, its socket (answers each message 300 ms later), a chat socket pushing every 100 ms, an event stream, the worker. */
function serve() {
  const posts: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "POST") {
      await req.text();
      posts.push(url.pathname + url.search);
      return Response.json({ saved: true });
    }
    if (url.pathname === "/ws" || url.pathname === "/chat") {
      const { socket, response } = Deno.upgradeWebSocket(req);
      if (url.pathname === "/ws") {
        // The page may be gone by then (a socket closing is not an error of the test).
        socket.onmessage = () =>
          setTimeout(() => socket.readyState === WebSocket.OPEN && socket.send("deleted"), D);
      } else {
        const tick = setInterval(
          () => socket.readyState === WebSocket.OPEN && socket.send("hi"),
          100,
        );
        socket.onclose = socket.onerror = () => clearInterval(tick);
      }
      return response;
    }
    if (url.pathname === "/es") {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const body = new ReadableStream({
        start(c) {
          const event = url.search === "?named" ? "event: update\n" : "";
          timer = setTimeout(() => c.enqueue(new TextEncoder().encode(event + "data: x\n\n")), D);
        },
        cancel() {
          clearTimeout(timer);
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    }
    if (url.pathname === "/sw.js") {
      return new Response(SW, { headers: { "content-type": "text/javascript" } });
    }
    if (url.pathname === "/done") {
      return new Response(`<!doctype html><title>Done</title><p>Done ${url.search}`, {
        headers: { "content-type": "text/html" },
      });
    }
    if (url.pathname !== "/") return new Response("no", { status: 404 });
    return new Response(PAGE, { headers: { "content-type": "text/html" } });
  });
  return { base: `http://127.0.0.1:${server.addr.port}`, posts, close: () => server.shutdown() };
}

Deno.test("late effects: replies (sockets, pushes, IndexedDB, resize loops, service worker) are in the result", async (t) => {
  const server = serve();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const open = () => mcp.ok("navigate", { url: `${server.base}/`, snapshot: "none" });
  const shown = (r: unknown) => JSON.stringify(r);
  try {
    const renders: Array<[string, string]> = [
      ["ws", "Socket done"],
      ["es", "Push done"],
      ["es-named", "Named push done"],
      ["idb", "Store done"],
      ["resize", "Resize done"],
      ["crowd", "Crowd done"],
      ["ws-sub", "Socket subclass done"],
      ["ws-old", "Old socket done"],
    ];
    for (const [id, text] of renders) {
      await t.step(`${id}: the render ~300 ms later is in the click's result`, async () => {
        await open();
        const r = await act(mcp, "click", { selector: `#${id}` });
        assertEquals(r.ok, true);
        assertIncludes(shown(r.snapshotDelta), text);
      });
    }

    await t.step("a socket reply's navigation is the click's", async () => {
      await open();
      const r = await act(mcp, "click", { selector: "#ws-nav", snapshot: "none" });
      assertEquals(r.navigation?.changed, true, shown(r));
      assertIncludes(r.navigation?.to ?? "", "/done?ws");
    });

    await t.step("a socket reply's POST is in the click's writes", async () => {
      await open();
      const before = server.posts.length;
      const r = await act(mcp, "click", { selector: "#ws-post" });
      assertIncludes(shown(r.network?.mutations ?? []), "/write?");
      assertIncludes(shown(r.snapshotDelta), "Post done");
      assertEquals(server.posts.slice(before), ["/write?ws"]);
    });

    await t.step("a chat socket pushing all the time does not hold a click", async () => {
      await open();
      await eventually(async () => (await mcp.ok("eval_js", { expression: "chatSeen" })).value);
      const before = (await mcp.ok("eval_js", { expression: "chatSeen" })).value as number;
      const r = await act(mcp, "click", { selector: "#quiet" });
      assertIncludes(shown(r.snapshotDelta), "Quiet done");
      const after = (await mcp.ok("eval_js", { expression: "chatSeen" })).value as number;
      // A push every 100 ms: held to the 5 s cap would be ~50 (a slow machine: a few).
      assertTrue(after - before < 20, `chat messages during the click: ${after - before}`);
    });

    // The worker steps need the page controlled by it (registered at its first load).
    const controlled = async () => {
      await open();
      await eventually(
        async () =>
          (await mcp.ok("eval_js", { expression: "!!navigator.serviceWorker.controller" })).value,
        10000,
        "a controlling service worker",
      );
    };
    await t.step("a service worker's message back is in the click's result", async () => {
      await controlled();
      const r = await act(mcp, "click", { selector: "#sw" });
      assertIncludes(shown(r.snapshotDelta), "Worker reply done");
    });

    await t.step("a service worker's own POST falls in the click's window", async () => {
      await controlled();
      const before = server.posts.length;
      const r = await act(mcp, "click", { selector: "#sw-post" });
      // Sent 300 ms after the click: the result waited for it, and lists it (the service
      // worker's requests are logged as the tab's).
      assertEquals(server.posts.slice(before), ["/write?sw"]);
      assertIncludes(
        JSON.stringify(r.network?.mutations ?? []),
        `"POST","urlPattern":"${server.base}/write?`,
      );
    });

    await t.step("the wrapped built-ins look native and still work", async () => {
      await open();
      const looks = await mcp.ok("eval_js", {
        expression: `(() => {
          const fns = [WebSocket.prototype.send, IDBFactory.prototype.open,
            IDBDatabase.prototype.transaction, ResizeObserver.prototype.observe,
            ServiceWorker.prototype.postMessage];
          const native = fns.every((f) => /\\{ \\[native code\\] \\}$/.test(String(f)) &&
            !("prototype" in f));
          const names = fns.map((f) => f.name + "/" + f.length).join(" ");
          const classes = [WebSocket, EventSource, ResizeObserver].map((C) =>
            C.name + "/" + C.length + "/" + (C.prototype.constructor === C)).join(" ");
          const errors = [];
          try { new WebSocket("ftp://x"); } catch (e) { errors.push(e.name); }
          try { new ResizeObserver(1); } catch (e) { errors.push(e.name); }
          try { WebSocket("ws://x"); } catch (e) { errors.push(e.name); }
          const ok = new WebSocket("ws://" + location.host + "/chat") instanceof WebSocket;
          return [native, names, classes, errors.join(" "), ok];
        })()`,
      });
      assertEquals(looks.value, [
        true,
        "send/1 open/1 transaction/1 observe/1 postMessage/1",
        "WebSocket/1/true EventSource/1/true ResizeObserver/1/true",
        "SyntaxError TypeError TypeError",
        true,
      ]);
    });

    await t.step("bad input: a click on nothing fails, nothing is sent", async () => {
      await open();
      const before = server.posts.length;
      const r = await mcp.call("click", { selector: "#nope", timeoutMs: 500 });
      assertEquals(r.isError, true);
      assertEquals(server.posts.length, before);
    });
  } finally {
    await mcp.close();
    await server.close();
  }
});
