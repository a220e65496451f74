import { spawn } from "node:child_process";
import { assertEquals, assertIncludes, assertRejects, assertTrue } from "../tests/_assert.ts";
import { Connection } from "./connection.ts";
import { findChromium } from "./discovery.ts";
import { launchChromium } from "./launcher.ts";
import { type PipeReadable, pipeTransport, type PipeWritable } from "./pipe_transport.ts";
import { MAX_MESSAGE_BYTES } from "./transport.ts";

const executablePath = findChromium().path;

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

Deno.test("pipe transport: a message past MAX_MESSAGE_BYTES ends it, failing what waits", async () => {
  // Never a NUL: one endless message, read as it comes (never held whole).
  const { transport, closed, child } = transportOverShell(
    `head -c ${MAX_MESSAGE_BYTES + 1024 * 1024} /dev/zero | tr '\\0' a; cat > /dev/null`,
  );
  const waiting = transport.send("Browser.getVersion", undefined, undefined);
  const reason = await closed;
  assertIncludes(reason, `over ${MAX_MESSAGE_BYTES} bytes`);
  const error = await assertRejects(() => waiting, Error);
  assertIncludes(error.message, `over ${MAX_MESSAGE_BYTES} bytes`);
  await assertRejects(() => transport.send("Browser.getVersion", undefined, undefined), Error);
  await transport.close();
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
  const reply = await transport.send("X.y", undefined, undefined);
  assertEquals((reply.result!.ok as string).length, 300_000);
  const reason = await closed;
  assertEquals(events, ["A.one@", "A.two@S"]);
  assertIncludes(reason, "unreadable message from the browser");
  await transport.close();
  child.kill("SIGKILL");
  await Deno.remove(file);
});
