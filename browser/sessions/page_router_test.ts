import { assertEquals } from "../../tests/_assert.ts";
import type { Protocol } from "../../cdp/types.ts";
import { type PageOwner, PageRouter } from "./page_router.ts";

const owner: PageOwner = { pageAttached: () => {}, pageDetached: () => {} };

function info(targetId: string, browserContextId: string): Protocol.Target.TargetInfo {
  return {
    targetId,
    type: "page",
    title: "",
    url: "about:blank",
    attached: false,
    canAccessOpener: false,
    browserContextId,
  };
}

Deno.test("PageRouter.contextOf: owned tabs while they live and for a while once gone", () => {
  const router = new PageRouter();
  router.claim("ctx-a", owner);
  router.listener.created!(info("t1", "ctx-a"));
  // Another's tab (a context nobody here owns) is never kept.
  router.listener.created!(info("other", "ctx-b"));
  assertEquals(router.contextOf("t1"), { browserContextId: "ctx-a" });
  assertEquals(router.contextOf("other"), undefined);
  // Closed before it attached (a new tab whose navigation became a download): still known.
  router.listener.destroyed!("t1");
  assertEquals(router.contextOf("t1"), { browserContextId: "ctx-a" });
  const now = Date.now;
  try {
    const at = now();
    Date.now = () => at + 31_000;
    assertEquals(router.contextOf("t1"), undefined, "forgotten after 30 s");
  } finally {
    Date.now = now;
  }
});

Deno.test("PageRouter.contextOf: only the last 64 gone tabs are kept", () => {
  const router = new PageRouter();
  router.claim("ctx-a", owner);
  for (let i = 0; i < 65; i++) {
    router.listener.created!(info(`t${i}`, "ctx-a"));
    router.listener.destroyed!(`t${i}`);
  }
  assertEquals(router.contextOf("t0"), undefined);
  assertEquals(router.contextOf("t1"), { browserContextId: "ctx-a" });
  assertEquals(router.contextOf("t64"), { browserContextId: "ctx-a" });
});
