/**
 * Takes the README's screenshots of the web console (`docs/console-session.png`): an agent
 * works on a small shop page while the console, opened in a second headless Chromium through
 * tests/_console.ts, watches it. Run: `deno run -A tests/console_screenshots.ts`.
 *
 * @module
 */
import { openConsole, startConsoleStdio } from "./_console.ts";
import { ROOT } from "./_mcp.ts";
import { join } from "./_paths.ts";
import { eventually, refOf } from "./_util.ts";

const SHOP = `<!doctype html><html><head><title>Acme Outfitters — Checkout</title>
<style>
  body { margin: 0; font: 16px system-ui, sans-serif; background: #f4f1ea; color: #222; }
  header { background: #234d3c; color: white; padding: 14px 28px; font-size: 22px; font-weight: 600; }
  main { display: grid; grid-template-columns: 1fr 1fr; gap: 24px; padding: 24px 28px; }
  .card { background: white; border-radius: 10px; padding: 18px 22px; box-shadow: 0 1px 3px #0002; }
  label { display: block; margin: 10px 0 4px; font-size: 14px; color: #555; }
  input { width: 100%; box-sizing: border-box; padding: 9px; font-size: 16px; border: 1px solid #bbb; border-radius: 6px; }
  button { margin-top: 16px; padding: 10px 18px; font-size: 16px; background: #e0792b; color: white; border: 0; border-radius: 6px; }
  li { margin: 6px 0; }
</style></head><body>
<header>Acme Outfitters</header>
<main>
  <section class="card"><h2>Your cart</h2><ul>
    <li>Trail jacket — $129</li><li>Wool socks (2) — $24</li><li>Headlamp — $39</li></ul>
    <p><strong>Total: $192</strong></p></section>
  <section class="card"><h2>Shipping</h2>
    <label for="name">Full name</label><input id="name">
    <label for="email">Email</label><input id="email" type="email">
    <label for="zip">ZIP code</label><input id="zip">
    <button id="go" onclick="console.log('shipping saved for', document.getElementById('name').value); fetch('/api/quote?zip=' + document.getElementById('zip').value); this.textContent = 'Saved ✓'">Save shipping</button>
  </section>
</main>
<script>console.info("checkout ready"); console.warn("coupon service slow (1.8 s)");</script>
</body></html>`;

const site = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
  const path = new URL(req.url).pathname;
  if (path.startsWith("/api/")) return Response.json({ shipping: 7.5 });
  return new Response(SHOP, { headers: { "content-type": "text/html; charset=utf-8" } });
});
const base = `http://127.0.0.1:${(site.addr as Deno.NetAddr).port}`;
const server = await startConsoleStdio();
const viewer = await openConsole(server.url, { width: 1280, height: 820 });
try {
  const agent = server.mcp;
  await agent.ok("navigate", { url: `${base}/checkout` });
  const snap = await agent.ok("snapshot", {});
  const tree = String(snap.snapshot ?? snap.tree ?? JSON.stringify(snap));
  await agent.ok("fill", { ref: refOf(tree, /textbox "Full name"/), value: "Ada Lovelace" });
  await agent.ok("fill", { ref: refOf(tree, /textbox "Email"/), value: "ada@example.com" });
  await agent.ok("fill", { ref: refOf(tree, /textbox "ZIP code"/), value: "94107" });
  await agent.ok("click", { ref: refOf(tree, /button "Save shipping"/) });
  await viewer.waitFor('[data-activity] li[data-tool="click"]');
  await eventually(
    async () => (await viewer.text(".page-title")) === "Acme Outfitters — Checkout",
    10_000,
    "the title",
  );
  await eventually(async () => (await viewer.frame()).count > 2, 10_000, "frames");
  // Let the last frame (the button saying "Saved") arrive.
  await new Promise((r) => setTimeout(r, 800));
  await Deno.mkdir(join(ROOT, "docs"), { recursive: true });
  await viewer.screenshot(join(ROOT, "docs", "console-session.png"));
  await viewer.click('[data-bottom="console"]');
  await viewer.waitForText("shipping saved for");
  await viewer.screenshot(join(ROOT, "docs", "console-tails.png"));
  console.log("wrote docs/console-session.png, docs/console-tails.png");
} finally {
  await viewer.close();
  await server.close();
  await site.shutdown();
}
