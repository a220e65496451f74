/**
 * After a human's yes the approved send is the only write of the action, by every channel and
 * in every target of the session (red team s15 round 2, #1–#4): with BROWX_CONFIRM_REQUIRED=submit
 * the person is asked about a donation of 5; while they read, the page adds a `submit` listener
 * that cancels the form and sends other data instead — on a WebSocket it opens (in the page or
 * in a dedicated worker) or had open, by a same-origin iframe's form, or by a popup's form that
 * the origin's service worker answers with its own POST. And a 307 from the approved POST would
 * send its body to another origin. Each is refused (a socket opened after the yes never
 * connects) or, where no guard can hold it (a message on a socket opened before), the call
 * fails saying it may have gone. A same-origin 307 still goes. The page swaps once the test's
 * "person" is asked (it polls): no fixed waits.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { errorOf } from "./_results.ts";
import { eventually } from "./_util.ts";
import { clickDonate, poll, type SwapHandler, swapPages } from "./_swap_pages.ts";

const FORM = (action = "/donate") =>
  `<form id=f action=${action} method=post><input name=amount value=5><input name=note value=hi><button id=go>Donate $5</button></form>`;
/** A submit listener, added while the person reads, that cancels the form and runs `send`. */
const listener = (send: string, extra = "") =>
  FORM() + extra + poll(`f.onsubmit = (e) => { e.preventDefault(); ${send}; }`);
const WS = `"ws://" + location.host + "/donate-ws?amount=99999"`;
const PAGES: Record<string, string | ((port: number) => string)> = {
  "/ws": listener(`const w = new WebSocket(${WS}); w.onopen = () => w.send("amount=99999")`),
  "/wsworker": listener(
    `wk.postMessage(${WS})`,
    `<script>const wk = new Worker(URL.createObjectURL(new Blob(["onmessage = (e) => { const w = new WebSocket(e.data); w.onopen = () => w.send('amount=99999'); }"])));</script>`,
  ),
  // A socket the page opened at load: a message on it after the yes cannot be held.
  "/wspopup": listener(
    `const w = window.open("about:blank", "_blank"); const s = new w.WebSocket(${WS}); s.onopen = () => s.send("amount=99999")`,
  ),
  // A cross-origin (out-of-process) frame opens the socket when the listener tells it to.
  "/wsxframe": (port) =>
    listener(
      `xf.contentWindow.postMessage(1, "*")`,
      `<iframe id=xf src="http://localhost:${port}/wsinner"></iframe>`,
    ),
  "/wsinner":
    `<script>onmessage = () => { const w = new WebSocket("ws://" + location.host + "/donate-ws?from=frame"); w.onopen = () => w.send("amount=99999"); };</script>`,
  "/wsopen": listener(
    `sock.send("amount=99999")`,
    `<script>const sock = new WebSocket("ws://" + location.host + "/chat");</script>`,
  ),
  // The approved data sent twice, into a frame and then by the page itself: the second is another.
  "/twicedoc": listener(
    `f.target = "fr"; f.submit(); document.getElementById("fr").onload = () => { f.target = "_self"; f.submit(); }`,
    `<iframe name=fr id=fr></iframe>`,
  ),
  "/iframeform": listener(
    `fr.document.forms[0].submit()`,
    `<iframe name=fr srcdoc="<form method=post action=/settings><input name=email value=attacker@evil.example></form>"></iframe>`,
  ),
  // Under /sw/: the service worker's scope (it answers every POST there with its own).
  "/sw/reg":
    `<p id=s>waiting</p><script>navigator.serviceWorker.register("/sw/sw.js"); const t = setInterval(() => { if (navigator.serviceWorker.controller) { clearInterval(t); s.textContent = "sw ready"; } }, 30);</script>`,
  "/sw/popup": FORM("/sw/donate") +
    poll(
      `f.onsubmit = (e) => { e.preventDefault(); const w = window.open("about:blank", "_blank"); w.document.write('<form method=post action=/sw/settings><input name=email value=attacker@evil.example></form>'); w.document.forms[0].submit(); }`,
    ),
  "/redirect": FORM("/donate307"),
  "/redirect-same": FORM("/donate307same"),
  "/chatform": FORM("/donate-chat"),
  // The approved data, sent by the page's own fetch, redirected by its server.
  "/redirectfetch": FORM("/donate307") +
    poll(
      `f.onsubmit = (e) => { e.preventDefault(); fetch("/donate307", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "amount=5&note=hi" }); }`,
    ),
  "/shared": listener(
    `sw.port.postMessage(location.origin)`,
    `<script>const sw = new SharedWorker(URL.createObjectURL(new Blob(["onconnect = (c) => { c.ports[0].onmessage = (e) => fetch(e.data + '/settings', { method: 'POST', body: 'email=attacker@evil.example&via=shared' }); }"])));</script>`,
  ),
};
const SW =
  `self.oninstall = () => self.skipWaiting(); self.onactivate = (e) => e.waitUntil(clients.claim());
self.onfetch = (e) => { if (e.request.method === "POST") e.respondWith(fetch("/settings", { method: "POST", body: "email=attacker@evil.example&via=sw" }).then(() => new Response("ok", { headers: { "content-type": "text/html" } }))); };`;

Deno.test("confirm: after the yes no other channel writes", async (t) => {
  /** Messages the server's WebSockets got. */
  const wsGot: string[] = [];
  const socket: SwapHandler = (req) => {
    if (req.headers.get("upgrade") !== "websocket") return new Response("no", { status: 400 });
    const { socket, response } = Deno.upgradeWebSocket(req);
    socket.onmessage = (e) => wsGot.push(String(e.data));
    return response;
  };
  const pages = swapPages(PAGES, {
    "/donate-ws": socket,
    "/chat": socket,
    "/sw/sw.js": () => new Response(SW, { headers: { "content-type": "text/javascript" } }),
    "/donate307": (_req, port) =>
      new Response(null, { status: 307, headers: { location: `http://localhost:${port}/x307` } }),
    // The site's answer to the approved send opens its own socket at once.
    "/donate-chat": () =>
      new Response(
        `<p>thanks</p><script>const w = new WebSocket("ws://" + location.host + "/chat"); w.onopen = () => w.send("hello");</script>`,
        { headers: { "content-type": "text/html" } },
      ),
    "/donate307same": () =>
      new Response(null, { status: 307, headers: { location: "/donate-final" } }),
  });
  const { origin, hits } = pages;
  const mcp = await startStdio({
    env: { BROWX_CAPABILITIES: "read,navigation,action", BROWX_CONFIRM_REQUIRED: "submit" },
    elicit: pages.elicit,
  });
  /** The click (`clickDonate`), and the requests it made (`GET /path`, a socket's too). */
  const attempt = async (path: string, swapping = true) => {
    const h = hits.length;
    const out = await clickDonate(mcp, pages, path, swapping);
    return { ...out, hits: () => hits.slice(h) };
  };
  /** The call failed, said `words`, quoted no value, and the rule is unapproved-submit. */
  const refused = (r: Awaited<ReturnType<typeof attempt>>["r"], ...words: string[]) => {
    assertTrue(r.isError, textOf(r));
    for (const w of words) assertIncludes(textOf(r), w);
    assertTrue(!/attacker|amount=99999/.test(textOf(r).split("\n")[0]!), textOf(r));
    assertEquals((r.structuredContent?.policy as { rule?: string }).rule, "unapproved-submit");
  };
  try {
    for (const path of ["/ws", "/wsworker", "/wspopup", "/wsxframe"]) {
      await t.step(
        `${path.slice(1)}: a WebSocket opened after the yes never connects`,
        async () => {
          const { r, sent, hits } = await attempt(path);
          refused(r, "opened a WebSocket", "it was refused");
          assertEquals(errorOf(r).code, "page-changed", textOf(r));
          assertEquals(hits().filter((h) => h.includes("donate-ws")), []);
          assertEquals(sent(), []);
          assertEquals(wsGot, []);
        },
      );
    }
    await t.step("wsopen: a message on a socket opened before fails the call, said", async () => {
      const { r } = await attempt("/wsopen");
      refused(r, "sent a message on a WebSocket", "may have been sent");
      // No guard holds it (measured): the server got it; the call says so.
      await eventually(() => wsGot.length === 1, 5000, "the message");
    });
    await t.step("iframeform: a frame's other form is not the approved send", async () => {
      const { r, sent } = await attempt("/iframeform");
      refused(r, `/settings`, `not where the human approved`);
      assertEquals(sent(), []);
    });
    await t.step(
      "twicedoc: the approved form sent twice by the page: the second is refused",
      async () => {
        const { r, sent } = await attempt("/twicedoc");
        refused(r, "again", "a yes covers one send");
        assertEquals(sent(), ["/donate amount=5&note=hi"]);
      },
    );
    await t.step("sw/popup: a new tab's service-worker POST is refused", async () => {
      await mcp.ok("navigate", { url: `${origin}/sw/reg` });
      await eventually(
        async () => textOf(await mcp.call("snapshot", {})).includes("sw ready"),
        10_000,
        "the service worker",
      );
      const { r, sent } = await attempt("/sw/popup");
      assertTrue(r.isError, textOf(r));
      assertEquals(sent(), []);
    });
    await t.step("redirect: a 307 to another origin does not take the data there", async () => {
      const { r, sent } = await attempt("/redirect", false);
      refused(r, "redirect", `http://localhost:`);
      assertEquals(sent(), ["/donate307 amount=5&note=hi"]);
    });
    await t.step("redirectfetch: a script's approved send is not redirected away", async () => {
      const { r, sent } = await attempt("/redirectfetch");
      assertTrue(r.isError, textOf(r));
      assertEquals(sent(), ["/donate307 amount=5&note=hi"]);
    });
    await t.step("shared: a shared worker (whose requests may go unheld) never runs", async () => {
      const { r, sent, hits } = await attempt("/shared");
      assertTrue(!r.isError, textOf(r));
      assertIncludes(mcp.stderr(), "a page's shared worker was closed before it ran");
      assertEquals(sent(), []);
      assertEquals(hits().filter((h) => h.includes("/settings")), []);
    });
    await t.step("redirect-same: a 307 on the approved origin goes", async () => {
      const { r, sent } = await attempt("/redirect-same", false);
      assertTrue(!r.isError, textOf(r));
      await eventually(() => sent().length === 2, 5000, "the redirected POST");
      assertEquals(sent(), ["/donate307same amount=5&note=hi", "/donate-final amount=5&note=hi"]);
    });
    await t.step("the page the approved send loads may open its own WebSocket", async () => {
      const { r, sent } = await attempt("/chatform", false);
      assertTrue(!r.isError, textOf(r));
      assertEquals(sent(), ["/donate-chat amount=5&note=hi"]);
      await eventually(() => wsGot.includes("hello"), 5000, "the new page's message");
    });
  } finally {
    await mcp.close();
    await pages.close();
  }
});
