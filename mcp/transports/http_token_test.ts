import { assertEquals, assertRejects, assertTrue } from "../../tests/_assert.ts";
import { join } from "node:path";
import { TOKEN_FILE, TokenFileError, workspaceToken } from "./http_token.ts";

Deno.test("workspaceToken: made once (0600), then reused", async () => {
  const ws = await Deno.makeTempDir();
  try {
    const a = await workspaceToken(ws);
    assertEquals(a.created, true);
    assertTrue(/^[0-9a-f]{32}$/.test(a.token), a.token);
    assertEquals((await Deno.stat(join(ws, TOKEN_FILE))).mode! & 0o777, 0o600);
    const b = await workspaceToken(ws);
    assertEquals([b.token, b.created], [a.token, false]);
    // Two starts at once agree on one token.
    await Deno.remove(a.file);
    const [c, d] = await Promise.all([workspaceToken(ws), workspaceToken(ws)]);
    assertEquals(c.token, d.token);
    assertEquals((await Array.fromAsync(Deno.readDir(ws))).map((e) => e.name), [TOKEN_FILE]);
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("workspaceToken: a file open to others, a symlink or an empty file is refused", async () => {
  const ws = await Deno.makeTempDir();
  try {
    const file = join(ws, TOKEN_FILE);
    await Deno.writeTextFile(file, "0123456789abcdef0123\n", { mode: 0o644 });
    await Deno.chmod(file, 0o644);
    const open = await assertRejects(() => workspaceToken(ws), TokenFileError);
    assertTrue(open.message.includes("mode 644") && open.message.includes("delete it"));
    await Deno.chmod(file, 0o600);
    assertEquals((await workspaceToken(ws)).token, "0123456789abcdef0123");
    await Deno.writeTextFile(file, "\n");
    await assertRejects(() => workspaceToken(ws), TokenFileError);
    await Deno.remove(file);
    await Deno.writeTextFile(join(ws, "elsewhere"), "0123456789abcdef0123", { mode: 0o600 });
    await Deno.symlink(join(ws, "elsewhere"), file);
    await assertRejects(() => workspaceToken(ws), TokenFileError);
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});
