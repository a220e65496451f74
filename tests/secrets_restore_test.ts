/**
 * A secret-filled field put back by a history return stays held (red team s15 #5): the page
 * mirrors its search box live ("Searching for: …") and has an `unload` listener, so Chromium
 * keeps it out of the back/forward cache and restores the form state into a new document on
 * a return — where browxai had held nothing. End+Backspace then peeled the secret, and fills
 * of another field found its last character. Now a focused field whose value holds a
 * registered secret is held when a key would edit it: the peel is refused after `go_back`
 * and after the page's own `history.back()`, and no read shows a part of the value.
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { textOf, type ToolResult } from "./_mcp.ts";
import { startTwoOrigins } from "./_two_origins.ts";
import { startWithBoundSecret } from "./_bound_secret.ts";
import { eventually } from "./_util.ts";

const SECRET = "Hunter2SecretXyz";
const SEARCH = `<title>search</title><form onsubmit="return false">` +
  `<label>Query <input id=q name=q></label><label>Other <input id=o name=o></label></form>` +
  `<p>Searching for: <span id=m></span></p>` +
  `<button id=away onclick="location.href='/away'">Away</button>` +
  `<button id=trim onclick="q.value = q.value.slice(0, -1)">Trim</button><script>
    const echo = () => m.textContent = q.value;
    q.addEventListener("input", echo);
    addEventListener("pageshow", () => setTimeout(echo, 0));
    addEventListener("unload", () => {});
  </script>`;

Deno.test("secrets: a secret-filled field restored by a history return stays held", async (t) => {
  const srv = startTwoOrigins(() => ({
    "/search": SEARCH,
    "/elsewhere": `<title>elsewhere</title><p>another page</p>`,
    "/away": `<title>away</title><button id=back onclick="history.back()">Back</button>`,
  }));
  const { mcp, close } = await startWithBoundSecret(srv.a, SECRET);
  /** The page's mirror of the box, as the snapshot shows it. */
  const echo = async () =>
    /Searching for: ([^\n]*)/.exec(textOf(await mcp.call("snapshot", {})))?.[1] ?? "";
  /** No 4-character part of the secret in the result. */
  const noPart = (r: ToolResult, what: string) => {
    const all = JSON.stringify(r).replace(/secret|Enter/gi, "");
    for (let i = 0; i + 4 <= SECRET.length; i++) {
      assertTrue(!all.includes(SECRET.slice(i, i + 4)), `${what}: ${all.slice(0, 400)}`);
    }
  };
  /** Back on the page with the value restored: every peel is refused and nothing shows. */
  const peelRefused = async (how: string) => {
    await eventually(
      async () => (await echo()).includes("[secret:PW]"),
      10_000,
      `${how}: restored`,
    );
    await mcp.ok("click", { selector: "#q", snapshot: "none" });
    await mcp.ok("press", { key: "End", snapshot: "none" });
    for (
      const [tool, args] of [["press", { key: "Backspace" }], ["type", { text: "x" }]] as const
    ) {
      const r = await mcp.call(tool, args);
      assertEquals(r.isError, true, `${how}, ${tool}: ${textOf(r)}`);
      const policy = r.structuredContent!.policy as Record<string, unknown>;
      assertEquals(policy.rule, "secret-edit", `${how}, ${tool}: ${textOf(r)}`);
      noPart(r, `${how}, ${tool}`);
    }
    assertTrue((await echo()).includes("[secret:PW]"), `${how}: the echo changed`);
    noPart(await mcp.call("snapshot", {}), `${how}: snapshot`);
    // An ordinary field of the same page still edits.
    await mcp.ok("fill", { selector: "#o", value: "plain", snapshot: "none" });
    await mcp.ok("press", { selector: "#o", key: "Backspace", snapshot: "none" });
  };
  try {
    await t.step("navigate away, go_back: Backspace and typing refused", async () => {
      await mcp.ok("navigate", { url: `${srv.a}/search`, snapshot: "none" });
      await mcp.ok("fill", { selector: "#q", value: "{{secret:PW}}", snapshot: "none" });
      await mcp.ok("navigate", { url: `${srv.a}/elsewhere`, snapshot: "none" });
      await mcp.ok("go_back", { snapshot: "none" });
      await peelRefused("go_back");
    });
    await t.step("the page's own location.href, then history.back(): refused", async () => {
      await mcp.ok("navigate", { url: `${srv.a}/search`, snapshot: "none" });
      await mcp.ok("fill", { selector: "#q", value: "{{secret:PW}}", snapshot: "none" });
      await mcp.ok("click", { selector: "#away", snapshot: "none" });
      await eventually(async () => /away/.test(textOf(await mcp.call("snapshot", {}))), 10_000);
      await mcp.ok("click", { selector: "#back", snapshot: "none" });
      await peelRefused("history.back()");
    });
    await t.step("held before any action: a cut the page makes reads as ••••", async () => {
      await mcp.ok("navigate", { url: `${srv.a}/search`, snapshot: "none" });
      await mcp.ok("fill", { selector: "#q", value: "{{secret:PW}}", snapshot: "none" });
      await mcp.ok("navigate", { url: `${srv.a}/elsewhere`, snapshot: "none" });
      await mcp.ok("go_back", { snapshot: "none" });
      await eventually(async () => (await echo()).includes("[secret:PW]"), 10_000, "restored");
      // No key: the page's own button cuts the last character off the restored value.
      const r = await mcp.call("click", { selector: "#trim" });
      noPart(r, "click trim");
      const snap = await mcp.call("snapshot", {});
      noPart(snap, "snapshot after trim");
      assertTrue(/textbox "Query" \[ref=e\d+\][^\n]*: ••••/.test(textOf(snap)), textOf(snap));
    });
  } finally {
    await close();
    await srv.close();
  }
});
