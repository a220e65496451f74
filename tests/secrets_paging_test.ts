/**
 * A registered secret never comes back through browxai's own transforms of saved bytes: an
 * artifact holding a secret's value, read back as base64, or a page at a time from an offset
 * inside the value, shows its mask, never the value or a part of it (found by a red team:
 * base64 and `offset: 1` handed the value back).
 */
import { join } from "node:path";
import { assertEquals, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";

const VALUE = "supersecretvalue123";

Deno.test("secrets: artifact_get in base64 or from an offset never shows a secret's value", async () => {
  const dir = await Deno.makeTempDir({ prefix: "browxai-secrets-paging-" });
  const secrets = join(dir, "secrets.env");
  await Deno.writeTextFile(secrets, `API=${VALUE}\n`, { mode: 0o600 });
  const mcp = await startStdio({
    env: {
      BROWX_SECRETS: secrets,
      BROWX_CAPABILITIES: "read,navigation,action,secrets",
      BROWX_TOOLSETS: "all",
    },
  });
  // Every piece of the value three characters or longer.
  const pieces: string[] = [];
  for (let i = 0; i + 3 <= VALUE.length; i++) pieces.push(VALUE.slice(i, i + 3));
  const leaks = (text: string) => {
    const unmasked = text.replaceAll("[secret:API]", "");
    return pieces.filter((p) => unmasked.includes(p));
  };
  try {
    await mcp.ok("artifact_save", { name: "k", content: `key={{secret:API}};end` });
    const whole = await mcp.ok("artifact_get", { name: "k" });
    assertEquals(whole.content, "key=[secret:API];end");
    const b64 = await mcp.ok("artifact_get", { name: "k", encoding: "base64" });
    const decoded = new TextDecoder().decode(
      Uint8Array.from(atob(String(b64.content)), (c) => c.charCodeAt(0)),
    );
    assertEquals(decoded, "key=[secret:API];end");
    for (let offset = 1; offset < 4 + VALUE.length; offset++) {
      for (const encoding of ["utf8", "base64"]) {
        const r = await mcp.call("artifact_get", { name: "k", offset, encoding });
        const text = textOf(r);
        const content = String(r.structuredContent?.content ?? "");
        const shown = encoding === "base64"
          ? new TextDecoder().decode(Uint8Array.from(atob(content), (c) => c.charCodeAt(0)))
          : content;
        assertEquals(leaks(text + shown), [], `offset ${offset} ${encoding}: ${shown}`);
        if (offset > 4) assertTrue(shown.startsWith("[secret:API]"), shown);
      }
    }
  } finally {
    await mcp.close();
    await Deno.remove(dir, { recursive: true });
  }
});
