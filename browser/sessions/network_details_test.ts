import { assertEquals, assertTrue } from "../../tests/_assert.ts";
import type { Protocol } from "../../cdp/types.ts";
import {
  MAX_DETAIL_CHARS,
  MAX_HEADER_CHARS,
  MAX_POST_CHARS,
  NetworkDetails,
} from "./network_details.ts";

function sent(id: string, headers: Record<string, string>, postData?: string) {
  return {
    requestId: id,
    request: { url: "http://x/", method: "POST", headers, postData, hasPostData: !!postData },
    timestamp: 1,
    wallTime: 1,
  } as unknown as Protocol.Network.RequestWillBeSentEvent;
}

Deno.test("NetworkDetails: headers and posted data are capped per request and per session", () => {
  const details = new NetworkDetails<object>();
  const big = { "X-Big": "h".repeat(MAX_HEADER_CHARS - 10) };
  const entries = Array.from(
    { length: Math.ceil(MAX_DETAIL_CHARS / MAX_HEADER_CHARS) + 5 },
    () => ({}),
  );
  entries.forEach((e, i) => details.request(e, sent(`r${i}`, big, "a=1"), undefined));
  const first = details.get(entries[0]!)!;
  const last = details.get(entries.at(-1)!)!;
  assertEquals([first.trimmed, first.requestHeaders.length, first.postData], [true, 0, undefined]);
  assertEquals([last.trimmed, last.requestHeaders.length, last.postData], [undefined, 1, "a=1"]);
  // One header set over the cap keeps what fits; a long post body is not kept, and says so.
  const huge = { A: "x".repeat(MAX_HEADER_CHARS), B: "y" };
  const e = {};
  details.request(e, sent("h", huge, "p".repeat(MAX_POST_CHARS + 1)), undefined);
  assertEquals(details.get(e)!.requestHeaders.length, 0);
  assertTrue(details.get(e)!.postDataCut);
});
