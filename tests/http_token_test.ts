/**
 * The `--http` token browxai makes survives restarts (issue 17): kept in the workspace
 * (`http-token`, mode 0600), reused on the next start so client configs keep working; a token
 * file others can read is refused with what to do. On loopback with no token (the default) any
 * local process connects: the start banner says so in one line.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { ROOT, startHttp } from "./_mcp.ts";
import { join } from "./_paths.ts";

Deno.test("http token: the same token after a restart, owner-only, and it still opens /mcp", async () => {
  const workspace = await Deno.makeTempDir({ prefix: "browxai-token-ws-" });
  const file = join(workspace, "http-token");
  try {
    const first = await startHttp({ workspace, args: ["--host", "0.0.0.0"] });
    const token = first.token;
    await first.close();
    assertTrue(token !== undefined && token.length >= 32, first.stderr());
    assertIncludes(first.stderr(), `the token is kept in ${file}`);
    assertEquals((await Deno.stat(file)).mode! & 0o777, 0o600);
    assertEquals((await Deno.readTextFile(file)).trim(), token);

    const second = await startHttp({ workspace, args: ["--host", "0.0.0.0"] });
    try {
      assertEquals(second.token, token);
      const client = await second.connect({ authorization: `Bearer ${token}` });
      assertEquals((await client.ok("list_sessions")).count, 0);
      const refused = await fetch(second.url.replace("0.0.0.0", "127.0.0.1"), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      assertEquals(refused.status, 401);
      await refused.body?.cancel();
    } finally {
      await second.close();
    }

    // An explicit BROWX_HTTP_TOKEN wins, and leaves the kept one alone.
    const given = await startHttp({
      workspace,
      args: ["--host", "0.0.0.0"],
      env: { BROWX_HTTP_TOKEN: "given-token-0123456789" },
    });
    try {
      const client = await given.connect({ authorization: "Bearer given-token-0123456789" });
      assertEquals((await client.ok("list_sessions")).count, 0);
    } finally {
      await given.close();
    }
    assertEquals((await Deno.readTextFile(file)).trim(), token);

    // A token file others can read is no secret: the server refuses to start, saying what to do.
    await Deno.chmod(file, 0o644);
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-all",
        join(ROOT, "main.ts"),
        "--http",
        "--host",
        "0.0.0.0",
        "--port",
        "0",
      ],
      env: { BROWX_WORKSPACE: workspace },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
      cwd: ROOT,
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 1, stderr);
    assertIncludes(stderr, `The HTTP token file ${file} is open to others (mode 644)`);
    assertIncludes(stderr, "delete it and start again for a new token");
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});

Deno.test("http token: loopback without BROWX_HTTP_TOKEN warns in one line that anyone local connects", async () => {
  const open = await startHttp();
  try {
    // The red team's attack (session 16): a local client with no credentials drives the server.
    const anyone = await open.connect();
    assertEquals((await anyone.ok("list_sessions")).count, 0);
    const warning = open.stderr().split("\n").filter((l) => l.includes("no token"));
    assertEquals(warning.length, 1, open.stderr());
    assertIncludes(warning[0]!, "any local process");
    assertIncludes(warning[0]!, "BROWX_HTTP_TOKEN");
  } finally {
    await open.close();
  }
  // With a token there is nothing to warn about.
  const closed = await startHttp({ env: { BROWX_HTTP_TOKEN: "given-token-0123456789" } });
  try {
    assertTrue(!closed.stderr().includes("no token"), closed.stderr());
  } finally {
    await closed.close();
  }
});
