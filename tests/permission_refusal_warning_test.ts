/**
 * A page's use of a granted permission refused for want of a human (no channel to ask) is
 * said in the result of the action during which the page asked (NU finding 5: after
 * set_geolocation and grant_permissions the click's result had no warning, the page said only
 * "User denied Geolocation", and only the audit log said why).
 */
import { servePages } from "./_util.ts";
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";

const PAGE = `<!doctype html><title>Near me</title>
<button id="loc">Use my location</button><button id="other">Other</button>
<p role="status" id="out">idle</p>
<script>
document.getElementById('loc').onclick = () => navigator.geolocation.getCurrentPosition(
  (p) => document.getElementById('out').textContent = 'At ' + p.coords.latitude,
  (e) => document.getElementById('out').textContent = 'Location error: ' + e.message,
  { timeout: 5000 });
document.getElementById('other').onclick = () =>
  document.getElementById('out').textContent = 'Other clicked';
</script>`;

Deno.test("a granted permission refused for want of a human: the action says so", async (t) => {
  const site = servePages({ "/perms.html": PAGE });
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,emulation" } });
  const click = async (selector: string) => {
    const r = await mcp.call("click", { selector });
    assertEquals(r.isError, undefined, textOf(r));
    return { text: textOf(r), warnings: (r.structuredContent!.warnings as string[]).join("\n") };
  };
  try {
    await mcp.ok("navigate", { url: `${site.base}/perms.html`, snapshot: "none" });
    await mcp.ok("set_geolocation", { latitude: 24.7136, longitude: 46.6753 });
    const g = await mcp.ok("grant_permissions", { permissions: ["geolocation"] });
    // Nobody can be asked (no elicitation, console or DevTools): said at the grant already.
    assertIncludes((g.warnings as string[]).join("\n"), "no human channel is connected now");

    await t.step("the click whose handler asked for the position warns why", async () => {
      const c = await click("#loc");
      assertIncludes(c.text, "Location error");
      assertIncludes(c.warnings, "asked to use geolocation (getCurrentPosition) and was refused");
      assertIncludes(c.warnings, "no human channel is connected to ask");
    });

    await t.step("asked again (the answer remembered): said again", async () => {
      const c = await click("#loc");
      assertIncludes(c.warnings, "was refused");
    });

    await t.step("an action that asks for nothing gets no such warning", async () => {
      const c = await click("#other");
      assertEquals(c.warnings.includes("was refused"), false, c.warnings);
    });

    await t.step("bad input: an unknown permission is refused", async () => {
      const r = await mcp.call("grant_permissions", { permissions: ["telepathy"] });
      assertEquals(r.isError, true);
      assertIncludes(textOf(r), "Unknown permission");
    });
  } finally {
    await mcp.close();
    await site.close();
  }
});
