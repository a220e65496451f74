import { assertEquals } from "../../tests/_assert.ts";
import type { CdpSession } from "../../cdp/connection.ts";
import { answerPassed, type PausedForRoute } from "./route_answer.ts";
import { SessionRoutes } from "./routes.ts";

type Sent = { method: string; params: Record<string, unknown> };

/** A CDP session that records what is sent (and fails `failing` methods). */
function fakeCdp(failing = ""): { session: CdpSession; sent: Sent[] } {
  const sent: Sent[] = [];
  const session = {
    send(method: string, params: Record<string, unknown>) {
      sent.push({ method, params });
      return method === failing ? Promise.reject(new Error("Invalid header")) : Promise.resolve({});
    },
  } as unknown as CdpSession;
  return { session, sent };
}

function paused(url: string, more: Partial<PausedForRoute> = {}): PausedForRoute {
  return {
    requestId: "F1",
    networkId: "N1",
    resourceType: "Fetch",
    request: { url, method: "GET", headers: {} },
    ...more,
  };
}

const body = btoa("hi");

/** Answers `e` against `routes`; returns what was sent and which request ids were marked routed. */
async function answer(routes: SessionRoutes, e: PausedForRoute, failing = "") {
  const { session, sent } = fakeCdp(failing);
  const marked: string[] = [];
  await answerPassed(session, e, {
    routes,
    targetId: "T",
    allowlisted: (url) => !url.includes("blocked.test"),
    ownConsole: (url) => url.startsWith("http://127.0.0.1:9/"),
    routed: (id, pattern) => marked.push(`${id} ${pattern}`),
  });
  return { sent, marked, events: routes.since(0) };
}

function headerOf(s: Sent, name: string): string | undefined {
  const list = s.params.responseHeaders as Array<{ name: string; value: string }>;
  return list.find((h) => h.name.toLowerCase() === name)?.value;
}

Deno.test("answerPassed: no route continues; a fetch is fulfilled with CORS for its origin", async () => {
  const routes = new SessionRoutes();
  let r = await answer(routes, paused("http://a.test/x"));
  assertEquals(r.sent.map((s) => s.method), ["Fetch.continueRequest"]);
  routes.add("**/x", {
    response: { status: 201, headers: [{ name: "X-Test", value: "1" }], body },
  });
  r = await answer(
    routes,
    paused("http://a.test/x", {
      request: { url: "http://a.test/x", method: "GET", headers: { Origin: "http://b.test" } },
    }),
  );
  const [f] = r.sent;
  assertEquals(f!.method, "Fetch.fulfillRequest");
  assertEquals(f!.params.responseCode, 201);
  assertEquals(f!.params.body, body);
  assertEquals(headerOf(f!, "x-test"), "1");
  assertEquals(headerOf(f!, "access-control-allow-origin"), "http://b.test");
  assertEquals(headerOf(f!, "content-security-policy"), undefined);
  assertEquals(r.marked, ["N1 **/x"]);
  assertEquals(r.events.at(-1)?.action, "fulfilled");
  assertEquals(routes.list()[0]!.hits, 1);
});

Deno.test("answerPassed: a preflight is cleared without using the route", async () => {
  const routes = new SessionRoutes();
  routes.add("**/x", { response: { status: 200, headers: [], body }, times: 1 });
  const headers = {
    Origin: "http://b.test",
    "Access-Control-Request-Method": "PUT",
    "Access-Control-Request-Headers": "x-a",
  };
  const r = await answer(
    routes,
    paused("http://a.test/x", {
      resourceType: "Preflight",
      request: { url: "http://a.test/x", method: "OPTIONS", headers },
    }),
  );
  assertEquals(r.sent[0]!.params.responseCode, 204);
  assertEquals(headerOf(r.sent[0]!, "access-control-allow-methods"), "PUT");
  assertEquals(headerOf(r.sent[0]!, "access-control-allow-headers"), "x-a");
  assertEquals(routes.list()[0]?.timesLeft, 1);
});

Deno.test("answerPassed: a document and a script are served as written (no sandbox)", async () => {
  const routes = new SessionRoutes();
  routes.add("**", { response: { status: 200, headers: [], body } });
  let r = await answer(routes, paused("http://a.test/app.js", { resourceType: "Script" }));
  assertEquals(r.sent[0]!.method, "Fetch.fulfillRequest");
  r = await answer(routes, paused("http://a.test/", { resourceType: "Document" }));
  assertEquals(r.sent[0]!.method, "Fetch.fulfillRequest");
  assertEquals(headerOf(r.sent[0]!, "content-security-policy"), undefined);
});

Deno.test("answerPassed: browxai's own console is never routed", async () => {
  const routes = new SessionRoutes();
  routes.add("**", { abort: "Failed" });
  const r = await answer(routes, paused("http://127.0.0.1:9/console"));
  assertEquals(r.sent.map((s) => s.method), ["Fetch.continueRequest"]);
  assertEquals(r.events.at(-1)?.action, "refused");
  assertEquals(routes.list()[0]!.hits, 0);
});

Deno.test("answerPassed: off the allowlist a response is not served, an abort is", async () => {
  const routes = new SessionRoutes();
  routes.add("**", { response: { status: 200, headers: [], body } });
  let r = await answer(routes, paused("http://blocked.test/x"));
  assertEquals(r.sent.map((s) => s.method), ["Fetch.continueRequest"]);
  assertEquals(r.events.at(-1)?.why, "blocked by policy: not on the allowlist");
  assertEquals(r.marked, []);
  routes.add("**", { abort: "ConnectionRefused" });
  r = await answer(routes, paused("http://blocked.test/x"));
  assertEquals(r.sent[0]!.method, "Fetch.failRequest");
  assertEquals(r.sent[0]!.params.errorReason, "ConnectionRefused");
  assertEquals(r.events.at(-1)?.action, "aborted");
});

Deno.test("answerPassed: a response Chromium refuses fails the request instead of hanging it", async () => {
  const routes = new SessionRoutes();
  routes.add("**", { response: { status: 200, headers: [], body } });
  const r = await answer(routes, paused("http://a.test/x"), "Fetch.fulfillRequest");
  assertEquals(r.sent.map((s) => s.method), ["Fetch.fulfillRequest", "Fetch.failRequest"]);
  assertEquals(r.events.at(-1)?.action, "refused");
});
