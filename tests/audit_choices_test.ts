/**
 * The red team's aud1: `select({ label })` and `choose_option({ option })` choose an option by
 * its text, what the agent puts into the page as `select({ value })` does; the audit log kept
 * the text while it redacted `value`. Over MCP stdio with real Chromium, a page served on
 * 127.0.0.1 by the test; the workspace's audit files are read after.
 */
import { join } from "node:path";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { startTwoOrigins } from "./_two_origins.ts";

const CHOICE = "TopSecretLabel-4111";

Deno.test("audit: an option chosen by its text is redacted like one chosen by its value", async () => {
  const srv = startTwoOrigins(() => ({
    "/f": `<title>f</title><select id=s aria-label=s><option>a</option>` +
      `<option value=v2>${CHOICE}</option></select>`,
  }));
  const ws = await Deno.makeTempDir({ prefix: "browxai-audit-choice-" });
  const mcp = await startStdio({ workspace: ws, env: { BROWX_TOOLSETS: "all" } });
  try {
    await mcp.ok("navigate", { url: `${srv.a}/f`, snapshot: "none" });
    await mcp.ok("select", { selector: "#s", label: CHOICE, snapshot: "none" });
    await mcp.ok("select", { selector: "#s", value: "a", snapshot: "none" });
    await mcp.ok("choose_option", { selector: "#s", option: CHOICE, snapshot: "none" });
    await mcp.close();
    let text = "";
    for await (const f of Deno.readDir(join(ws, "audit"))) {
      text += await Deno.readTextFile(join(ws, "audit", f.name));
    }
    const lines = text.trim().split("\n").map((l) => JSON.parse(l));
    const args = (tool: string) =>
      lines.filter((l) => l.tool === tool && l.phase !== "start").map((l) => l.args);
    assertTrue(!text.includes(CHOICE), "the chosen text is in no line");
    assertEquals(args("select")[0].label, `[redacted ${CHOICE.length} chars]`);
    assertEquals(args("select")[0].selector, "#s", "where the call acts stays");
    assertEquals(args("choose_option")[0].option, `[redacted ${CHOICE.length} chars]`);
    assertIncludes(text, '"tool":"choose_option"');
  } finally {
    await mcp.close().catch(() => {});
    await srv.close();
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});
