/**
 * dump_storage_state is a read: with a service worker registered on an
 * origin (one whose fetch handler answers navigations with a page of its
 * own), the dump's visit of that origin runs neither the worker's handler
 * nor any page script.
 */
import { assertEquals } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { startTwoOrigins } from "./_two_origins.ts";
import { eventually } from "./_util.ts";

type R = Record<string, unknown>;

Deno.test("dump_storage_state runs no service worker and no site script", async () => {
  const srv = startTwoOrigins((_a, b) => ({
    "/swreg": `<title>sw</title><script>localStorage.setItem("kept", "1");` +
      `navigator.serviceWorker.register("/sw.js").then(() => navigator.serviceWorker.ready)` +
      `.then(() => document.title = "swok", (e) => document.title = "swerr " + e)</script>`,
    "/sw.js": `self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (e) => e.waitUntil(clients.claim()));
self.addEventListener("fetch", (e) => {
  if (e.request.mode !== "navigate") return;
  fetch("${b}/sw-saw", { mode: "no-cors" });
  e.respondWith(new Response("<title>from sw</title><script>localStorage.setItem('pwn', 'ran');" +
    "fetch('${b}/sw-page-ran', { mode: 'no-cors' })</script>",
    { headers: { "content-type": "text/html" } }));
});`,
  }));
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "all" } });
  try {
    await mcp.ok("navigate", { url: `${srv.a}/swreg`, snapshot: "none" });
    await eventually(
      async () => {
        const tabs = (await mcp.ok("tabs", { action: "list" })).tabs as R[];
        return tabs.some((t) => t.title === "swok");
      },
      10_000,
      "the service worker",
    );
    // The worker answers a navigation of its origin (shown here, then left).
    await mcp.ok("navigate", { url: `${srv.a}/other`, snapshot: "none" });
    await eventually(() => srv.seen("B").includes("GET /sw-page-ran"), 5000, "the worker's page");
    await mcp.ok("navigate", { url: "about:blank", snapshot: "none" });
    const hits = srv.seen("B").length;
    const local = async () => {
      const state = await mcp.ok("dump_storage_state", {});
      const origin = (state.origins as R[]).find((o) => o.origin === srv.a);
      return ((origin?.localStorage ?? []) as R[]).map((x) => `${x.name}=${x.value}`).sort();
    };
    // The worker's page set pwn=ran on its own visit: cleared, then dumped twice.
    await mcp.ok("inject_storage_state", {
      state: {
        cookies: [],
        origins: [{ origin: srv.a, localStorage: [{ name: "kept", value: "1" }] }],
      },
      mode: "replace",
    });
    assertEquals(await local(), ["kept=1"]);
    assertEquals(await local(), ["kept=1"]);
    // Neither the worker's handler nor its page's script ran (Chromium's own late favicon
    // fetches are no site code).
    assertEquals(srv.seen("B").slice(hits).filter((x) => !x.endsWith("/favicon.ico")), []);
  } finally {
    await mcp.close();
    await srv.close();
  }
});
