import { assertEquals } from "../tests/_assert.ts";
import type { FrameInfo } from "./frame_tree.ts";
import { type NavigationHost, PageNavigation } from "./navigation.ts";
import type { Protocol } from "./types.ts";

/** A tab of one main frame whose current loader the test sets. */
function tab(): { nav: PageNavigation; main: FrameInfo } {
  const main = { frameId: "F", loaderId: "L1", lifecycle: new Set<string>() } as FrameInfo;
  const host = {
    mainFrameId: "F",
    url: "",
    isClosed: false,
    crashed: false,
    frame: (id: string) => id === "F" ? main : undefined,
  } as unknown as NavigationHost;
  return { nav: new PageNavigation(host), main };
}

const response = (loaderId: string, status: number, mimeType = "text/html") =>
  ({
    type: "Document",
    frameId: "F",
    loaderId,
    requestId: loaderId,
    response: { url: `http://x/${loaderId}`, status, mimeType },
  }) as unknown as Protocol.Network.ResponseReceivedEvent;

Deno.test("documentResponse: a response whose document never committed does not replace the frame's", () => {
  const { nav } = tab();
  nav.recordResponse(response("L1", 200));
  // The navigation guard's refusal: a 204 for a navigation that never commits (loader L2).
  nav.recordResponse(response("L2", 204, "text/plain"));
  assertEquals(nav.documentResponse("F")?.status, 200);
});

Deno.test("documentResponse: a document restored from the back/forward cache is known by its loader", () => {
  const { nav, main } = tab();
  nav.recordResponse(response("L1", 200));
  main.loaderId = "L2";
  nav.recordResponse(response("L2", 404));
  assertEquals(nav.documentResponse("F")?.status, 404);
  // Back: the first document again, with no new response.
  main.loaderId = "L1";
  assertEquals(nav.documentResponse("F")?.status, 200);
  // A loader with no response seen (a data: document): none, not another document's.
  main.loaderId = "L3";
  assertEquals(nav.documentResponse("F"), undefined);
});

Deno.test("documentResponse: the method of the request it answered (a form's POST; a redirect's last hop)", () => {
  const { nav, main } = tab();
  const sent = (requestId: string, method: string) =>
    nav.recordRequest(
      {
        type: "Document",
        requestId,
        request: { method },
      } as Protocol.Network.RequestWillBeSentEvent,
    );
  sent("L1", "POST");
  nav.recordResponse(response("L1", 200));
  assertEquals(nav.documentResponse("F")?.method, "POST");
  // POST answered by a 303: the GET that followed delivered the document.
  sent("L2", "POST");
  sent("L2", "GET");
  main.loaderId = "L2";
  nav.recordResponse(response("L2", 200));
  assertEquals(nav.documentResponse("F")?.method, "GET");
  // No request seen (attached late): no method.
  main.loaderId = "L3";
  nav.recordResponse(response("L3", 200));
  assertEquals(nav.documentResponse("F")?.method, undefined);
});
