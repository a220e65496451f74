/**
 * The stdio wire under attack: oversize lines are refused and skipped, not
 * fatal; malformed JSON-RPC gets a correct error for every request with an
 * id; the server keeps serving, sessions kept.
 */
import { Buffer } from "node:buffer";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { MALFORMED } from "./_malformed.ts";
import { join } from "./_paths.ts";
import { ROOT } from "./_mcp.ts";
import { initializeRequest, startRawStdio, type Wire } from "./_wire.ts";

type R = Record<string, unknown>;
const MiB = 1024 * 1024;

function call(id: number, name: string, args: R = {}): Wire {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}

function errorOf(m: Wire): { code: number; message: string } {
  assertTrue(m.error, `expected an error: ${JSON.stringify(m).slice(0, 300)}`);
  return m.error as { code: number; message: string };
}

function resultOf(m: Wire): R {
  const r = m.result as R | undefined;
  assertTrue(r && !r.isError, `expected a result: ${JSON.stringify(m).slice(0, 500)}`);
  return r.structuredContent as R;
}

const HEAD = '{"jsonrpc":"2.0","method":"tools/call","params":{"name":"artifact_save",' +
  '"arguments":{"name":"big.txt","content":"';
const tail = (id: number) => `"}},"id":${id}}\n`;

/** A line of `size` bytes: an artifact_save request with its id after the payload. */
function hugeLine(size: number, id: number): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.fill(0x61); // "a"
  bytes.set(new TextEncoder().encode(HEAD));
  bytes.set(new TextEncoder().encode(tail(id)), size - tail(id).length);
  return bytes;
}

/** How many content bytes {@link hugeLine} carries. */
const contentOf = (size: number, id: number) => size - HEAD.length - tail(id).length;

async function sha256(bytes: Uint8Array): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("stdio: oversize messages are refused, the server and its sessions live", async () => {
  const s = await startRawStdio({ BROWX_TOOLSETS: "core,sessions,storage" });
  try {
    await s.send(call(1, "open_session", { session: "keep" }));
    resultOf(await s.reply(1));

    // 12 MiB used to end the process (the SDK's 10 MiB buffer); now it is an ordinary message.
    await s.send(hugeLine(12 * MiB, 2));
    assertEquals(resultOf(await s.reply(2)).size, contentOf(12 * MiB, 2));

    // 120 MiB is over the limit: refused by id (found after the payload), skipped, not fatal.
    await s.send(hugeLine(120 * MiB, 3));
    const big = errorOf(await s.reply(3));
    assertEquals(big.code, -32600);
    assertIncludes(big.message, "Message too large");
    assertIncludes(big.message, "96 MiB");
    // The same without a newline-free id: garbage of 100 MiB is answered with id null.
    const junk = new Uint8Array(100 * MiB + 1).fill(0x7b); // "{{{{…"
    junk[junk.length - 1] = 0x0a;
    await s.send(junk);
    assertEquals(errorOf(await s.reply(null)).code, -32600);

    // A 50 MiB artifact (the most a session keeps) as base64 fits in one message.
    const bytes = new Uint8Array(50 * MiB);
    for (let i = 0; i < bytes.length; i += 4096) bytes[i] = (i / 4096) & 0xff;
    bytes.set(crypto.getRandomValues(new Uint8Array(65536)), 1000);
    const content = Buffer.from(bytes).toString("base64");
    await s.send(call(4, "artifact_save", { name: "fifty.bin", content, encoding: "base64" }));
    const saved = resultOf(await s.reply(4));
    assertEquals(saved.size, 50 * MiB);
    const onDisk = await Deno.readFile(String(saved.path));
    assertEquals(await sha256(onDisk), await sha256(bytes));

    // Still serving, the session still there.
    await s.send(call(5, "list_sessions"));
    const listed = resultOf(await s.reply(5));
    assertEquals(listed.count, 1);
    assertIncludes(JSON.stringify(listed.sessions), "keep");
    assertIncludes(s.stderr(), "refused a 125829119-byte message (id 3)");
  } finally {
    const status = await s.close();
    assertEquals(status.code, 0);
    assertIncludes(s.stderr(), "stdin closed");
  }
});

Deno.test("stdio: every malformed request with an id gets the right error", async () => {
  const s = await startRawStdio();
  try {
    for (const c of MALFORMED) await s.send(c.text);
    // A batch: each member answered on its own, the valid ones served.
    await s.send(
      JSON.stringify([
        { jsonrpc: "2.0", id: 30, method: "ping" },
        { jsonrpc: "2.0", id: 31, method: "no/such" },
        { jsonrpc: "2.0", id: 32, method: "tools/call", params: { arguments: {} } },
      ]),
    );
    for (const c of MALFORMED) {
      if (c.expect === "none") continue;
      const m = await s.reply(c.expect.id);
      assertEquals(errorOf(m).code, c.expect.code, `${c.name}: ${JSON.stringify(m)}`);
    }
    assertEquals((await s.reply(30)).result, {});
    assertEquals(errorOf(await s.reply(31)).code, -32601);
    assertEquals(errorOf(await s.reply(32)).code, -32602);
    // Still serving; nothing answered that should not be (notifications, stray responses).
    await s.send(call(40, "list_sessions"));
    assertEquals(resultOf(await s.reply(40)).count, 0);
    assertEquals(s.unclaimed(), []);
    assertTrue(!JSON.stringify(s.unclaimed()).includes("-32603"));
  } finally {
    assertEquals((await s.close()).code, 0);
  }
});

Deno.test("stdio: a failed stdout is an exit with a reason and a non-zero code", async () => {
  const ws = await Deno.makeTempDir({ prefix: "browxai-wire-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", join(ROOT, "main.ts")],
    env: { BROWX_WORKSPACE: ws },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  try {
    // The client stops reading (its end of stdout closed), then sends a request.
    await child.stdout.cancel();
    const w = child.stdin.getWriter();
    await w.write(
      new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }) + "\n"),
    );
    const status = await child.status;
    const err = await new Response(child.stderr).text();
    assertEquals(status.code, 1, err);
    assertIncludes(err, "exiting: stdout failed");
    await w.close().catch(() => {});
  } finally {
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});

Deno.test("stdio: requests read before stdin closes are answered before the exit", async () => {
  const ws = await Deno.makeTempDir({ prefix: "browxai-wire-" });
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", join(ROOT, "main.ts")],
      env: { BROWX_WORKSPACE: ws },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const w = child.stdin.getWriter();
    const lines = [initializeRequest(1), call(2, "list_sessions")].map((m) => JSON.stringify(m));
    await w.write(new TextEncoder().encode(lines.join("\n") + "\n"));
    await w.close();
    const out = await child.output();
    assertEquals(out.code, 0);
    const replies = new TextDecoder().decode(out.stdout).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    assertEquals(replies.map((r) => r.id).sort(), [1, 2]);
    assertEquals(resultOf(replies.find((r) => r.id === 2)).count, 0);
  } finally {
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});
