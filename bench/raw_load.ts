/**
 * The floor of a navigation: Chromium's own time from `Page.navigate` to the load event, with
 * nothing between (a bare CDP client on a WebSocket, one tab, Page/Network/Runtime enabled as
 * every driver does). Neither server can answer a `navigate` that waits for the load sooner;
 * the bench shows it beside the servers' times so a ratio target can be read against it.
 *
 * @module
 */
import { launchChromium } from "../cdp/launcher.ts";

/** One CDP message from the browser. */
interface Message {
  id?: number;
  method?: string;
  sessionId?: string;
  result?: Record<string, unknown>;
  error?: { message: string };
}

/**
 * Loads each page `rounds` times in one fresh tab of a fresh Chromium (after one warm-up load
 * of `warmupUrl`) and returns each page's times, in ms.
 * CDP: `Target.createTarget`, `Target.attachToTarget` (flat), `Page.enable`,
 * `Network.enable`, `Runtime.enable`, `Page.navigate`; waits for `Page.loadEventFired`.
 *
 * @throws Error when the browser does not start or a command fails.
 */
export async function rawLoadMs(
  chromium: string,
  pages: Array<{ id: string; url: string }>,
  warmupUrl: string,
  rounds = 1,
): Promise<Record<string, number[]>> {
  const browser = await launchChromium({ executablePath: chromium, debugPort: true });
  const ws = new WebSocket(browser.wsEndpoint!);
  try {
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = () => reject(new Error("cannot connect to the browser's DevTools socket"));
    });
    let next = 0;
    const pending = new Map<number, (m: Message) => void>();
    const waiters = new Set<(m: Message) => void>();
    ws.onmessage = (e) => {
      const m = JSON.parse(String(e.data)) as Message;
      if (m.id !== undefined) pending.get(m.id)?.(m);
      else for (const w of waiters) w(m);
    };
    const send = (method: string, params: object = {}, sessionId?: string) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const id = ++next;
        pending.set(id, (m) => {
          pending.delete(id);
          if (m.error) reject(new Error(`${method}: ${m.error.message}`));
          else resolve(m.result ?? {});
        });
        ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      });
    const { targetId } = await send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true }) as {
      sessionId: string;
    };
    for (const m of ["Page.enable", "Network.enable", "Runtime.enable"]) {
      await send(m, {}, sessionId);
    }
    const load = async (url: string) => {
      const t0 = performance.now();
      const loaded = new Promise<void>((resolve) => {
        const w = (m: Message) => {
          if (m.method === "Page.loadEventFired" && m.sessionId === sessionId) {
            waiters.delete(w);
            resolve();
          }
        };
        waiters.add(w);
      });
      await send("Page.navigate", { url }, sessionId);
      await loaded;
      return performance.now() - t0;
    };
    await load(warmupUrl);
    const out: Record<string, number[]> = {};
    for (let r = 0; r < rounds; r++) {
      for (const p of pages) (out[p.id] ??= []).push(await load(p.url));
    }
    return out;
  } finally {
    ws.close();
    await browser.close();
  }
}
