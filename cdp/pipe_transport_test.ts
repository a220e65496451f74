import { spawn } from "node:child_process";
import { assertEquals, assertIncludes, assertTrue } from "../tests/_assert.ts";
import { Connection } from "./connection.ts";
import { ProtocolError } from "./errors.ts";
import { findChromium } from "./discovery.ts";
import { launchChromium } from "./launcher.ts";
import { type PipeReadable, pipeTransport, type PipeWritable } from "./pipe_transport.ts";

const executablePath = findChromium().path;

/** The time budget of the tests' calls straight on a transport, ms. */
const CALL = { timeoutMs: 30_000 };

/** A transport reading a shell command's stdout (a real OS pipe) and writing to its stdin. */
function transportOverShell(script: string) {
  const child = spawn("sh", ["-c", script], { stdio: ["pipe", "pipe", "ignore"] });
  const transport = pipeTransport(
    child.stdin as unknown as PipeWritable,
    child.stdout as unknown as PipeReadable,
  );
  const closed = new Promise<string>((r) => transport.onClose = r);
  return { transport, closed, child };
}

Deno.test("pipe transport: a 100 MB reply from Chromium arrives whole, and commands go on", async () => {
  const browser = await launchChromium({ executablePath });
  const conn = new Connection(browser.transport!, { defaultTimeoutMs: 120_000 });
  try {
    const { targetId } = await conn.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await conn.send("Target.attachToTarget", { targetId, flatten: true });
    const size = 100 * 1024 * 1024;
    const { result } = await conn.rawSend(
      "Runtime.evaluate",
      { expression: `"é".repeat(8) + "x".repeat(${size})`, returnByValue: true },
      sessionId,
    );
    const value = result.value as string;
    assertEquals(value.length, size + 8);
    assertTrue(value.startsWith("éééééééé") && value.endsWith("xxx"));
    const { product } = await conn.send("Browser.getVersion");
    assertIncludes(product, "Chrome/");
  } finally {
    await conn.close();
    await browser.close();
  }
});

/** A transport with a small cap over a shell command's stdout. */
function cappedTransportOverShell(script: string, maxMessageBytes: number) {
  const child = spawn("sh", ["-c", script], { stdio: ["pipe", "pipe", "ignore"] });
  const transport = pipeTransport(
    child.stdin as unknown as PipeWritable,
    child.stdout as unknown as PipeReadable,
    { maxMessageBytes },
  );
  return { transport, child };
}

Deno.test("pipe transport: a message past the cap is skipped: its reply fails, its event drops, the wire goes on", async () => {
  const cap = 64 * 1024;
  const big = "x".repeat(cap * 3);
  const messages = [
    JSON.stringify({ method: "Runtime.consoleAPICalled", params: { v: big } }),
    JSON.stringify({ method: "A.small", params: {} }),
    JSON.stringify({ id: 1, result: { v: big } }),
    JSON.stringify({ id: 2, result: { ok: true } }),
  ];
  const file = await Deno.makeTempFile({ prefix: "browxai-pipe-test-" });
  await Deno.writeTextFile(file, messages.map((m) => `${m}\0`).join(""));
  // dd with a small block size: the oversize messages arrive over many reads.
  const { transport, child } = cappedTransportOverShell(
    `head -c 1 > /dev/null; dd if='${file}' bs=4096 status=none; sleep 5`,
    cap,
  );
  let closedReason: string | undefined;
  transport.onClose = (r) => closedReason = r;
  const events: string[] = [];
  transport.onEvent = (method) => events.push(method);
  const first = transport.send("X.big", undefined, CALL).catch((e: Error) => e);
  const second = transport.send("X.small", undefined, CALL);
  const r1 = await first;
  assertTrue(r1 instanceof ProtocolError, `got ${r1}`);
  assertIncludes(r1.message, `reply over ${cap} bytes`);
  assertEquals(await second, { ok: true });
  assertEquals(events, ["A.small"]);
  assertEquals(closedReason, undefined);
  await transport.close();
  child.kill("SIGKILL");
  await Deno.remove(file);
});

Deno.test("pipe transport: an endless message past the cap is dropped as it comes, and the wire stays open", async () => {
  const cap = 1024 * 1024;
  const total = 32 * cap;
  // Never a NUL: one endless message, read as it comes and dropped.
  const { transport, child } = cappedTransportOverShell(
    `head -c ${total} /dev/zero | tr '\\0' a; cat > /dev/null`,
    cap,
  );
  let closedReason: string | undefined;
  transport.onClose = (r) => closedReason = r;
  const waiting = transport.send("Browser.getVersion", undefined, CALL)
    .then(() => "answered", (e: Error) => e.message);
  // The shell's output ends (head done) but its stdout stays open: wait for the bytes to pass.
  await new Promise<void>((resolve) => {
    let seen = 0;
    (child.stdout as unknown as { on(e: "data", f: (c: Uint8Array) => void): void }).on(
      "data",
      (c) => {
        seen += c.length;
        if (seen >= total) resolve();
      },
    );
  });
  assertEquals(closedReason, undefined);
  await transport.close();
  assertEquals(await waiting, "Connection closed: connection closed");
  child.kill("SIGKILL");
});

Deno.test("pipe transport: replies and events split and packed across reads, then an unreadable one", async () => {
  const messages = [
    JSON.stringify({ method: "A.one", params: { n: 1 } }),
    JSON.stringify({ id: 1, result: { ok: "x".repeat(300_000) } }),
    JSON.stringify({ method: "A.two", params: {}, sessionId: "S" }),
    "not json",
  ];
  const file = await Deno.makeTempFile({ prefix: "browxai-pipe-test-" });
  await Deno.writeTextFile(file, messages.map((m) => `${m}\0`).join(""));
  const { transport, closed, child } = transportOverShell(
    // Waits for our command before answering; the 300 kB reply spans many reads.
    `head -c 1 > /dev/null; cat '${file}'; sleep 5`,
  );
  const events: string[] = [];
  transport.onEvent = (method, _params, sessionId) => events.push(`${method}@${sessionId ?? ""}`);
  const reply = await transport.send("X.y", undefined, CALL);
  assertEquals((reply.ok as string).length, 300_000);
  const reason = await closed;
  assertEquals(events, ["A.one@", "A.two@S"]);
  assertIncludes(reason, "unreadable message from the browser");
  await transport.close();
  child.kill("SIGKILL");
  await Deno.remove(file);
});

Deno.test("pipe transport: real Chromium writes a reply's id first: an oversize reply fails alone, an oversize console event drops, the wire goes on", async () => {
  const profile = await Deno.makeTempDir({ prefix: "browxai-pipe-cap-" });
  const args = ["--remote-debugging-pipe", `--user-data-dir=${profile}`, "--headless"];
  if (Deno.uid() === 0) args.push("--no-sandbox");
  const child = spawn(executablePath, args, {
    stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"],
  });
  const cap = 1024 * 1024;
  const transport = pipeTransport(
    child.stdio[3] as unknown as PipeWritable,
    child.stdio[4] as unknown as PipeReadable,
    { maxMessageBytes: cap },
  );
  let closedReason: string | undefined;
  transport.onClose = (r) => closedReason = r;
  const consoleTexts: string[] = [];
  transport.onEvent = (method, params) => {
    if (method !== "Runtime.consoleAPICalled") return;
    const a = (params as { args: Array<{ value?: unknown }> }).args[0];
    consoleTexts.push(String(a?.value));
  };
  const send = (method: string, params?: object, sessionId?: string) =>
    transport.send(method, params, { ...CALL, sessionId });
  try {
    const { targetId } = await send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
    const sid = sessionId as string;
    await send("Runtime.enable", {}, sid);
    const big = await send(
      "Runtime.evaluate",
      { expression: `"x".repeat(${2 * cap})`, returnByValue: true },
      sid,
    ).catch((e: Error) => e);
    assertTrue(big instanceof ProtocolError, `got ${big}`);
    assertIncludes(big.message, `reply over ${cap} bytes`);
    await send("Runtime.evaluate", {
      expression: `console.log("y".repeat(${2 * cap})); console.log("small")`,
    }, sid);
    const { product } = await send("Browser.getVersion");
    assertIncludes(String(product), "Chrome/");
    assertEquals(consoleTexts, ["small"]);
    assertEquals(closedReason, undefined);
  } finally {
    await transport.close();
    child.kill("SIGKILL");
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
});
