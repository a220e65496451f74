import { assertEquals, assertTrue } from "../../tests/_assert.ts";
import type { Protocol } from "../../cdp/types.ts";
import { SecretStore } from "../../policy/secrets.ts";
import { PageLogs } from "../sessions/page_logs.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import { buildHar, isCredentialHeader, valuesDropped } from "./har.ts";

type Entry = {
  request: { url: string; headers: Array<{ name: string }>; postData?: { text: string } };
  response: { status: number; redirectURL: string; headers: Array<{ name: string }> };
  timings: Record<string, number>;
  time: number;
};

function sent(
  id: string,
  url: string,
  timestamp: number,
  extra: Partial<Protocol.Network.RequestWillBeSentEvent> = {},
  method = "GET",
): Protocol.Network.RequestWillBeSentEvent {
  return {
    requestId: id,
    loaderId: id,
    documentURL: url,
    request: {
      url,
      method,
      headers: { Accept: "*/*", Cookie: "sid=1", Authorization: "Basic eA==" },
      initialPriority: "High",
      referrerPolicy: "no-referrer",
      ...(method === "POST" ? { postData: "pin=Zq7-hunter-Wv3x", hasPostData: true } : {}),
    },
    timestamp,
    wallTime: 1_700_000_000 + timestamp,
    initiator: { type: "other" },
    redirectHasExtraInfo: false,
    type: "Document",
    frameId: "T",
    ...extra,
  };
}

function response(status: number, timing?: Protocol.Network.ResourceTiming) {
  return {
    url: "",
    status,
    statusText: status === 302 ? "Found" : "OK",
    headers: { "Content-Type": "text/html", "Set-Cookie": "a=1\nb=2", Location: "/b" },
    mimeType: "text/html",
    charset: "",
    connectionReused: false,
    connectionId: 1,
    encodedDataLength: 100,
    securityState: "neutral",
    protocol: "http/1.1",
    ...(timing ? { timing } : {}),
  } as Protocol.Network.Response;
}

const TIMING = {
  requestTime: 10.001,
  proxyStart: -1,
  proxyEnd: -1,
  dnsStart: 1,
  dnsEnd: 3,
  connectStart: 3,
  connectEnd: 8,
  sslStart: 5,
  sslEnd: 8,
  sendStart: 8,
  sendEnd: 9,
  receiveHeadersEnd: 20,
} as Protocol.Network.ResourceTiming;

Deno.test("buildHar: a redirect hop, timings from ResourceTiming, headers sanitized, writes and secrets", async () => {
  const logs = new PageLogs();
  logs.onEvent("T", "Network.requestWillBeSent", sent("r1", "http://x/a?q=1", 10));
  logs.onEvent(
    "T",
    "Network.requestWillBeSent",
    sent("r1", "http://x/b", 10.05, { redirectResponse: response(302) }),
  );
  logs.onEvent("T", "Network.responseReceived", {
    requestId: "r1",
    loaderId: "r1",
    timestamp: 10.021,
    type: "Document",
    response: response(200, { ...TIMING, requestTime: 10.05 }),
    hasExtraInfo: false,
    frameId: "T",
  });
  logs.onEvent("T", "Network.dataReceived", {
    requestId: "r1",
    timestamp: 10.08,
    dataLength: 40,
    encodedDataLength: 40,
  });
  logs.onEvent("T", "Network.loadingFinished", {
    requestId: "r1",
    timestamp: 10.1,
    encodedDataLength: 140,
  });
  logs.onEvent(
    "T",
    "Network.requestWillBeSent",
    sent("r2", "http://x/save?pin=Zq7-hunter-Wv3x&k=v", 11, { type: "Fetch" }, "POST"),
  );
  const session = { logs, tabs: [] } as unknown as BrowserSession;
  const masker = new SecretStore(new Map([["PIN", "Zq7-hunter-Wv3x"]]));
  const { har, entries, pages } = await buildHar(session, { bodies: false, masker, version: "9" });
  assertEquals([entries, pages], [3, 1]);
  const [hop, doc, post] = har.log.entries as Entry[];
  assertEquals([hop!.response.status, hop!.response.redirectURL], [302, "http://x/b"]);
  assertEquals(doc!.response.status, 200);
  assertEquals(doc!.timings, {
    blocked: 1,
    dns: 2,
    connect: 5,
    send: 1,
    wait: 11,
    receive: 30,
    ssl: 3,
  });
  assertEquals(doc!.time, 50);
  const names = [...doc!.request.headers, ...doc!.response.headers].map((h) => h.name);
  assertEquals(names, ["Accept", "Content-Type", "Location"]);
  // A write without network-body: no posted data, no query values; the secret is masked anyway.
  assertEquals(post!.request.url, "http://x/save?pin=&k=");
  assertEquals(post!.request.postData, undefined);
  assertTrue(!JSON.stringify(har).includes("Zq7-hunter-Wv3x"));
  const full = await buildHar(session, { bodies: true, masker, version: "9" });
  const fullPost = (full.har.log.entries as Entry[])[2]!;
  assertEquals(fullPost.request.postData?.text, "pin=[secret:PIN]");
  assertEquals(fullPost.request.url, "http://x/save?pin=[secret:PIN]&k=v");
});

Deno.test("valuesDropped: keys kept, values emptied", () => {
  assertEquals(valuesDropped("https://a.b/p?x=1&y=two#f"), "https://a.b/p?x=&y=#f");
  assertEquals(valuesDropped("https://a.b/p"), "https://a.b/p");
});

Deno.test("isCredentialHeader: credential names by list and by suffix; ordinary ones kept", () => {
  for (
    const n of [
      "Cookie",
      "set-cookie2",
      "Proxy-Authorization",
      "X-Api-Key",
      "api-key",
      "X-Auth-Token",
      "x-csrf-token",
      "X-XSRF-TOKEN",
      "x-amz-security-token",
      "X-Goog-Api-Key",
      "x-client-secret",
    ]
  ) assertEquals(isCredentialHeader(n), true, n);
  for (const n of ["content-type", "accept", "x-request-id", "user-agent", "tokenizer"]) {
    assertEquals(isCredentialHeader(n), false, n);
  }
});
