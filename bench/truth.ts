/**
 * Ground truth for the coverage check, from a plain headless Chromium driven by a minimal CDP
 * client written here (so neither server under test is asked what the page holds).
 *
 * @module
 */
import { type PageTruth, TRUTH_SCRIPT } from "./coverage.ts";

/** A plain Chromium that answers {@link PageTruth} for URLs. */
export interface TruthBrowser {
  /**
   * Loads `url` in a fresh tab, waits for `load` plus `settleMs` (default 500), and runs
   * {@link TRUTH_SCRIPT}.
   */
  collect(url: string, settleMs?: number): Promise<PageTruth>;
  /** Kills the browser and removes its profile. */
  close(): Promise<void>;
}

interface CdpMessage {
  id?: number;
  method?: string;
  sessionId?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
}

function isRoot(): boolean {
  try {
    return Deno.uid() === 0;
  } catch {
    return false;
  }
}

async function readWsUrl(
  stderr: ReadableStream<Uint8Array<ArrayBuffer>>,
  timeoutMs: number,
): Promise<string> {
  const reader = stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  const timer = setTimeout(() => reader.cancel().catch(() => {}), timeoutMs);
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`Chromium did not print its DevTools URL: ${seen.slice(-500)}`);
      seen += value;
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (m) {
        // Keep draining stderr so the pipe never fills.
        (async () => {
          while (!(await reader.read().catch(() => ({ done: true }))).done) { /* drain */ }
        })();
        return m[1]!;
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Launches `chromium` headless on a temp profile and connects to it.
 *
 * @param chromium Path of the Chromium executable.
 */
export async function openTruthBrowser(chromium: string): Promise<TruthBrowser> {
  const profile = await Deno.makeTempDir({ prefix: "browxai-bench-truth-" });
  const child = new Deno.Command(chromium, {
    args: [
      "--headless",
      "--remote-debugging-port=0",
      `--user-data-dir=${profile}`,
      "--no-first-run",
      "--window-size=1280,800",
      "--hide-scrollbars",
      "--disable-background-networking",
      ...(isRoot() ? ["--no-sandbox"] : []),
      "about:blank",
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let ws: WebSocket | undefined;
  const pending = new Map<number, (m: CdpMessage) => void>();
  const listeners = new Set<(m: CdpMessage) => void>();
  let nextId = 1;
  const kill = async () => {
    try {
      ws?.close();
    } catch { /* closed */ }
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
    await child.status;
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  };
  try {
    const url = await readWsUrl(child.stderr, 20_000);
    ws = new WebSocket(url);
    await new Promise((ok, fail) => {
      ws!.onopen = ok;
      ws!.onerror = () => fail(new Error(`cannot connect to ${url}`));
    });
  } catch (e) {
    await kill();
    throw e;
  }
  const socket = ws;
  socket.onmessage = (ev) => {
    const msg = JSON.parse(String(ev.data)) as CdpMessage;
    if (msg.id !== undefined) pending.get(msg.id)?.(msg);
    else for (const l of listeners) l(msg);
  };
  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string) => {
    const id = nextId++;
    socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    return new Promise<Record<string, unknown>>((ok, fail) => {
      pending.set(id, (m) => {
        pending.delete(id);
        if (m.error) fail(new Error(`${method}: ${m.error.message}`));
        else ok(m.result ?? {});
      });
    });
  };
  const waitEvent = (method: string, sessionId: string, timeoutMs: number) =>
    new Promise<void>((ok) => {
      const timer = setTimeout(done, timeoutMs);
      function done() {
        clearTimeout(timer);
        listeners.delete(l);
        ok();
      }
      const l = (m: CdpMessage) => {
        if (m.method === method && m.sessionId === sessionId) done();
      };
      listeners.add(l);
    });
  return {
    async collect(url, settleMs = 500) {
      const { targetId } = await send("Target.createTarget", { url: "about:blank" });
      const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
      const sid = String(sessionId);
      try {
        await send("Page.enable", {}, sid);
        const loaded = waitEvent("Page.loadEventFired", sid, 60_000);
        await send("Page.navigate", { url }, sid);
        await loaded;
        await new Promise((r) => setTimeout(r, settleMs));
        const r = await send("Runtime.evaluate", {
          expression: TRUTH_SCRIPT,
          awaitPromise: true,
          returnByValue: true,
        }, sid);
        const value = (r.result as { value?: PageTruth } | undefined)?.value;
        if (!value) throw new Error(`truth script returned nothing: ${JSON.stringify(r)}`);
        return value;
      } finally {
        await send("Target.closeTarget", { targetId }).catch(() => {});
      }
    },
    close: kill,
  };
}
