import { assertEquals, assertTrue } from "../../tests/_assert.ts";
import { capText, MAX_ENTRY_CHARS } from "./log_text.ts";
import { CONSOLE_MAX_CHARS, MAX_URL_CHARS, PageLogs } from "./page_logs.ts";
import { SecretStore } from "../../policy/secrets.ts";
import type { Protocol } from "../../cdp/types.ts";

/** A whole `Network.requestWillBeSent` payload (GET) around the fields the tests set. */
function requestSent(
  requestId: string,
  url: string,
  type: Protocol.Network.ResourceType,
): Protocol.Network.RequestWillBeSentEvent {
  return {
    requestId,
    loaderId: "L",
    documentURL: url,
    request: {
      url,
      method: "GET",
      headers: {},
      initialPriority: "High",
      referrerPolicy: "no-referrer",
    },
    timestamp: 1,
    wallTime: 1,
    initiator: { type: "other" },
    redirectHasExtraInfo: false,
    type,
  };
}

Deno.test("capText: cuts with a marker, never half a surrogate pair", () => {
  assertEquals(capText("abc", 5), "abc");
  assertEquals(capText("abcdefg", 3), "abc[… 4 more chars]");
  assertEquals(capText("ab😀cd", 3), "ab[… 4 more chars]");
});

Deno.test("capText: a cut inside a secret's value moves before it; a partial guess moves nothing", () => {
  const store = new SecretStore(new Map([["KEY", "Zq7-hunter-Wv3x"]]));
  const spans = (t: string) => store.spans(t);
  assertEquals(capText("xxxxZq7-hunter-Wv3x", 8, spans), "xxxx[… 15 more chars]");
  // Only whole values count: a text that merely starts like the value is cut where it falls.
  assertEquals(capText("xxxxZq7-hunter", 8, spans), "xxxxZq7-[… 6 more chars]");
  assertEquals(capText("xxxxZq7-hunter-Wv3x", 30, spans), "xxxxZq7-hunter-Wv3x");
  // The console entry of the red team's probe: 16 KiB of padding, then the value.
  const logs = new PageLogs({ secretSpans: spans });
  const entry = logs.onEvent("T", "Runtime.consoleAPICalled", {
    type: "log",
    args: [{ type: "string", value: "w".repeat(MAX_ENTRY_CHARS - 4) + "Zq7-hunter-Wv3x" }],
    timestamp: 1,
    executionContextId: 1,
  }) as { text: string };
  assertTrue(!entry.text.includes("Z"), entry.text.slice(-40));
  assertTrue(/w\[… \d/.test(entry.text.slice(-40)), entry.text.slice(-40));
  const req = logs.onEvent(
    "T",
    "Network.requestWillBeSent",
    requestSent("r1", `http://x/?${"a".repeat(MAX_URL_CHARS - 15)}=Zq7-hunter-Wv3x`, "Fetch"),
  ) as { url: string };
  assertTrue(req.url.endsWith("a=[… 15 more chars]"), req.url.slice(-40));
});

Deno.test("PageLogs: console text, many args and URLs are capped as recorded; the buffer's total too", () => {
  const logs = new PageLogs();
  const many = Array.from(
    { length: 100 },
    () => ({ type: "string" as const, value: "y".repeat(1000) }),
  );
  for (let i = 0; i < 300; i++) {
    logs.onEvent("T", "Runtime.consoleAPICalled", {
      type: "log",
      args: i === 0 ? many : [{ type: "string", value: "x".repeat(100_000) }],
      timestamp: i,
      executionContextId: 1,
      stackTrace: {
        callFrames: [{
          url: "data:," + "z".repeat(50_000),
          lineNumber: 0,
          columnNumber: 0,
          functionName: "",
          scriptId: "1",
        }],
      },
    });
  }
  const all = logs.console.since(0);
  for (const e of all) {
    assertTrue(e.text.length < MAX_ENTRY_CHARS + 40, `${e.text.length}`);
    assertTrue(e.source!.length < MAX_URL_CHARS + 40, `${e.source!.length}`);
  }
  assertTrue(logs.console.totalSize <= CONSOLE_MAX_CHARS);
  assertTrue(logs.console.dropped > 0);
  logs.onEvent(
    "T",
    "Network.requestWillBeSent",
    requestSent("1", "data:text/plain," + "q".repeat(3_000_000), "Document"),
  );
  assertTrue(logs.network.since(0)[0]!.url.length < MAX_URL_CHARS + 40);
});

Deno.test("PageLogs: a sandboxed document's first blocked-script report (browxai's init scripts) is dropped", () => {
  const logs = new PageLogs();
  const url = "http://x/child.html";
  const blocked = (u: string, timestamp = 1) => ({
    entry: {
      source: "security" as const,
      level: "error" as const,
      text: `Blocked script execution in '${u}' because the document's frame is sandboxed and ` +
        "the 'allow-scripts' permission is not set.",
      timestamp,
      url: u,
    },
  });
  logs.onEvent("T", "Network.requestWillBeSent", requestSent("d1", url, "Document"));
  assertEquals(logs.onEvent("T", "Log.entryAdded", blocked(url + "#top")), undefined);
  // The page's own script: kept; the same said again at once (one per init script): dropped;
  // again later (a script the page added): kept.
  assertEquals(
    (logs.onEvent("T", "Log.entryAdded", blocked(url)) as { text: string }).text,
    blocked(url).entry.text,
  );
  assertEquals(logs.onEvent("T", "Log.entryAdded", blocked(url, 5)), undefined);
  assertTrue(logs.onEvent("T", "Log.entryAdded", blocked(url, 5_000)) !== undefined);
  // Not requested as a document in this tab (srcdoc, another tab): kept.
  assertTrue(logs.onEvent("U", "Log.entryAdded", blocked(url)) !== undefined);
  assertEquals(logs.console.since(0).length, 3);
});

Deno.test("PageLogs: what a back/forward-cache restore sends again is kept once", () => {
  const logs = new PageLogs();
  const thrown = (exceptionId: number, timestamp: number) =>
    logs.onEvent("T", "Runtime.exceptionThrown", {
      timestamp,
      exceptionDetails: {
        exceptionId,
        text: "Uncaught",
        lineNumber: 0,
        columnNumber: 0,
        executionContextId: 2,
        exception: { type: "object", description: "Error: late uncaught\n    at x.html:1:2" },
      },
    });
  const logged = (timestamp: number) =>
    logs.onEvent("T", "Log.entryAdded", {
      entry: { source: "javascript", level: "error", text: "violation", timestamp },
    });
  // Measured (Chromium 156): on restore the same context id, exception id and timestamp, and
  // the log entry's timestamp, come again before `Page.frameNavigated` (BackForwardCacheRestore).
  assertTrue(thrown(1, 1000.5) !== undefined && logged(1001) !== undefined);
  assertEquals([thrown(1, 1000.5), logged(1001)], [undefined, undefined]);
  // A later throw of the same error, or the same text logged later, is news.
  assertTrue(thrown(2, 2000) !== undefined && logged(2001) !== undefined);
  // Another tab's are its own.
  assertTrue(
    logs.onEvent("U", "Log.entryAdded", {
      entry: { source: "javascript", level: "error", text: "violation", timestamp: 1001 },
    }) !== undefined,
  );
  assertEquals(logs.console.since(0).filter((e) => e.level === "exception").length, 2);
});
