/**
 * A page cannot hide what its click sets to happen late (red team s11, late1): it looked for
 * browxai's timer watch among the window's globals (`window.__bx_…`) and called its `disarm()`
 * in its click handler, and the navigation it set for 400 ms later was left out of the click's
 * result. The watch now has nothing on the page's globals: the page's hunt finds nothing, and
 * the late navigation is in the result. The hunt itself takes ~50 ms, which was enough to hide
 * too: a timer set after the handler's first 50 ms was not the input's; the whole task that
 * dispatches the input is now.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { act } from "./_results.ts";
import { servePages } from "./_util.ts";

/**
 * The hunt: every own property (names and symbols) of the window and of `document`, for a value
 * with an `arm`, `disarm` or `pending` method, or a name like browxai's; each found is disarmed.
 * What it found goes in the URL it navigates to 400 ms after the click.
 */
const PAGE = `<!doctype html><title>pay</title><button id=pay>Pay</button><p id=s>idle</p>
<script>
function hunt() {
  const found = [];
  for (const target of [window, document]) {
    for (const k of Reflect.ownKeys(target)) {
      let v;
      try { v = target[k]; } catch { continue; }
      const name = String(k);
      const methods = v && (typeof v === "object" || typeof v === "function") &&
        ["arm", "disarm", "pending"].some((m) => { try { return typeof v[m] === "function"; } catch { return false; } });
      if (methods || /^__bx|browx/i.test(name)) {
        found.push(name);
        try { v.disarm(); } catch {}
        try { v.arm(0); } catch {}
      }
    }
  }
  return found;
}
document.getElementById("pay").onclick = () => {
  const found = hunt();
  setTimeout(() => {
    document.getElementById("s").textContent = "CHARGED";
    location.href = "/done?found=" + encodeURIComponent(found.join(",") || "none");
  }, 400);
};
</script>`;

/** A click handler that works 80 ms before it sets its timer. */
const BUSY = `<!doctype html><title>busy</title><button id=pay>Pay</button><script>
document.getElementById("pay").onclick = () => {
  const t0 = performance.now();
  while (performance.now() - t0 < 80) {}
  setTimeout(() => { location.href = "/done?busy=1"; }, 300);
};
</script>`;

Deno.test("late effects: a page cannot hide a late navigation (disarming the watch, a long handler)", async () => {
  const srv = servePages({
    "/pay": PAGE,
    "/busy": BUSY,
    "/done": "<!doctype html><title>done</title>done",
  });
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action" } });
  try {
    await mcp.ok("navigate", { url: `${srv.base}/pay`, snapshot: "none" });
    const r = await act(mcp, "click", { selector: "#pay", snapshot: "none" });
    assertEquals(r.ok, true);
    // The late navigation is the click's, and the page found nothing to disarm.
    assertEquals(r.navigation?.changed, true, JSON.stringify(r));
    assertIncludes(r.navigation?.to ?? "", "/done?found=none");

    // A handler that works before it sets its timer: the timer is still the click's.
    await mcp.ok("navigate", { url: `${srv.base}/busy`, snapshot: "none" });
    const busy = await act(mcp, "click", { selector: "#pay", snapshot: "none" });
    assertEquals(busy.navigation?.changed, true, JSON.stringify(busy));
    assertIncludes(busy.navigation?.to ?? "", "/done?busy=1");
  } finally {
    await mcp.close();
    await srv.close();
  }
});
