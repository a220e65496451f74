/**
 * The stdio wire's flow under attack: a client that sends and never reads
 * cannot make the server buffer answers without end; a cancelled request
 * does not hold the exit; two requests in flight cannot share an id.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { ROOT } from "./_mcp.ts";
import { join } from "./_paths.ts";
import { initializeRequest, startRawStdio, type Wire } from "./_wire.ts";
import { eventually } from "./_util.ts";
import { parseAuditLog } from "../policy/audit.ts";

type R = Record<string, unknown>;
const enc = new TextEncoder();
const line = (m: Wire, pad = 0) => enc.encode(JSON.stringify(m) + " ".repeat(pad) + "\n");
const call = (id: number | string, name: string, args: R = {}): Wire => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

Deno.test("stdio: a client that never reads stalls its own writes, not the server's memory", async () => {
  const ws = await Deno.makeTempDir({ prefix: "browxai-wire-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", join(ROOT, "main.ts")],
    env: { BROWX_WORKSPACE: ws, BROWX_TOOLSETS: "all" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let err = "";
  const errPump = (async () => {
    for await (const t of child.stderr.pipeThrough(new TextDecoderStream())) err += t;
  })();
  const w = child.stdin.getWriter();
  // The server stops reading once ~64 MiB of answers wait unwritten: after ~45 of these
  // requests (each answer carries the 1 MB artifact). 150 is over three times that (margin for a
  // server that reads faster than it answers), and each answer read afterwards still costs
  // ~1.5 MB through the pipe (300 moved ~450 MB).
  const N = 150;
  try {
    await w.write(line(initializeRequest(0)));
    await w.write(line({ jsonrpc: "2.0", method: "notifications/initialized" }));
    await w.write(line(call(1, "artifact_save", { name: "big", content: "y".repeat(1_000_000) })));
    const seen = new Set<unknown>();
    let rest = "";
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    const readSome = async () => {
      const { value, done } = await reader.read();
      if (done) throw new Error(`stdout closed; stderr:\n${err}`);
      rest += value;
      let nl;
      while ((nl = rest.indexOf("\n")) !== -1) {
        const m = JSON.parse(rest.slice(0, nl)) as Wire;
        rest = rest.slice(nl + 1);
        assertTrue(m.result && !(m.result as R).isError, JSON.stringify(m).slice(0, 300));
        seen.add(m.id);
      }
    };
    while (!seen.has(1)) await readSome();
    // N requests for the 1 MB artifact (each padded to 256 KiB, so the pipe holds few), written
    // without reading a byte of stdout.
    let written = 0;
    const writing = (async () => {
      for (let i = 0; i < N; i++) {
        await w.write(line(call(100 + i, "artifact_get", { name: "big" }), 256 * 1024));
        written++;
      }
    })();
    writing.catch(() => {});
    await eventually(
      () => err.includes("paused reading") || err.includes("exiting"),
      120_000,
      "the server to pause reading",
    );
    assertIncludes(err, "paused reading");
    // It stopped reading: our writes stall in the pipe, its answers stay bounded.
    assertTrue(written < N, `all ${N} requests were read while nobody read an answer`);
    const hwm = Number(
      /VmHWM:\s+(\d+) kB/.exec(Deno.readTextFileSync(`/proc/${child.pid}/status`))![1],
    );
    assertTrue(hwm < 600 * 1024, `server peak RSS ${hwm} kB`);

    // Now the client reads: every answer arrives, and the writes finish.
    while (seen.size < N + 2) await readSome();
    await writing;
    assertEquals(seen.size, N + 2);
    assertIncludes(err, "resumed reading");
    await w.close();
    await reader.cancel().catch(() => {});
    assertEquals((await child.status).code, 0);
  } finally {
    await w.close().catch(() => {});
    try {
      child.kill();
    } catch { /* exited */ }
    await child.status;
    await errPump.catch(() => {});
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});

Deno.test("stdio: a cancelled request does not hold the exit; a busy id is refused", async () => {
  const s = await startRawStdio({ BROWX_TOOLSETS: "all" });
  let closed = false;
  try {
    await s.send(call(1, "navigate", { url: "about:blank", snapshot: "none" }));
    assertTrue((await s.reply(1)).result);
    // A request that waits 30 s, and another with its id while it runs.
    await s.send(call("slow", "wait_for", { text: "never-there", timeoutMs: 30_000 }));
    await s.send(call("slow", "list_sessions"));
    const dup = await s.reply("slow");
    assertEquals((dup.error as R).code, -32600, JSON.stringify(dup));
    assertIncludes(String((dup.error as R).message), 'id "slow" is already in use');
    // Cancelled: MCP gives it no answer, so stdin's close must not wait for one.
    await s.send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: "slow" },
    });
    await s.send({ jsonrpc: "2.0", id: 2, method: "ping" });
    await s.reply(2);
    const status = await s.close();
    closed = true;
    assertEquals(status.code, 0);
    // Nothing was left to answer at EOF: the cancelled request did not hold the exit.
    assertTrue(!s.stderr().includes("answering"), s.stderr());
    assertEquals(s.unclaimed().filter((m) => m.id === "slow"), []);
  } finally {
    if (!closed) await s.close();
  }
});

Deno.test("stdio: a second initialize is refused, as over HTTP", async () => {
  const s = await startRawStdio();
  try {
    await s.send(initializeRequest(7));
    const m = await s.reply(7);
    assertEquals((m.error as R).code, -32600);
    assertIncludes(String((m.error as R).message), "already initialized");
  } finally {
    assertEquals((await s.close()).code, 0);
  }
});

Deno.test("stdio: an oversize notification is not answered; an oversize line's id is its last", async () => {
  const s = await startRawStdio();
  try {
    const big = "q".repeat(97 * 1024 * 1024);
    await s.send(`{"jsonrpc":"2.0","method":"notifications/x","params":{"a":"${big}"}}`);
    await s.send(`{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":"${big}"},"id":2}`);
    await s.send({ jsonrpc: "2.0", id: "p", method: "ping" });
    const refused = await s.reply(2);
    assertEquals((refused.error as R).code, -32600);
    await s.reply("p");
    // Nothing else: no id-null answer to the notification, none under the first id.
    assertEquals(s.unclaimed(), []);
    assertIncludes(s.stderr(), "notification: over");
  } finally {
    assertEquals((await s.close()).code, 0);
  }
});

Deno.test("stdio: with 64 requests in flight, cancels, pings and later requests are still read", async () => {
  const s = await startRawStdio({ BROWX_TOOLSETS: "all" });
  let closed = false;
  try {
    await s.send(call(1, "navigate", { url: "about:blank", snapshot: "none" }));
    assertTrue((await s.reply(1)).result);
    // 64 calls that each run 30 s: the most the server runs at once.
    const ids = Array.from({ length: 64 }, (_, i) => `w${i}`);
    for (const id of ids) {
      await s.send(call(id, "wait_for", { text: "never-there", timeoutMs: 30_000 }));
    }
    // One more request (held back until a place frees) and a ping (answered at once).
    await s.send(call("late", "list_sessions"));
    await s.send({ jsonrpc: "2.0", id: "p", method: "ping" });
    assertEquals((await s.reply("p", 15_000)).result, {});
    await eventually(
      () => s.stderr().includes("holding requests back"),
      10_000,
      "the server to hold the 65th request back",
    );
    // The cancels are read and acted on: every wait_for ends now, not in 30 s.
    for (const id of ids) {
      await s.send({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: id },
      });
    }
    const late = await s.reply("late", 15_000);
    assertEquals((late.result as R).isError, undefined, JSON.stringify(late));
    await eventually(
      async () => {
        const dir = join(s.workspace, "audit");
        let text = "";
        for await (const f of Deno.readDir(dir)) text += await Deno.readTextFile(join(dir, f.name));
        const outcomes = parseAuditLog(text).entries.filter((e) => e.tool === "wait_for");
        return outcomes.length === 64 && outcomes.every((e) => e.error === "cancelled");
      },
      15_000,
      "64 wait_for outcomes, cancelled",
    );
    const status = await s.close();
    closed = true;
    assertEquals(status.code, 0);
    // Cancelled requests get no answer (MCP), and none held the exit.
    assertEquals(s.unclaimed().filter((m) => ids.includes(m.id as string)), []);
    assertTrue(!s.stderr().includes("answering"), s.stderr());
  } finally {
    if (!closed) await s.close();
  }
});
