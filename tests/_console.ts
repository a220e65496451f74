/**
 * The web console under test: starts browxai with its console (stdio `--console`, or `--http`),
 * finds the console URL on stderr, and opens it in a second headless Chromium driven through
 * browxai's own CDP client, with helpers to read the console's DOM, click, type and wait.
 * Also raw helpers for access tests: log in (cookie), open a live socket with chosen headers,
 * and send an upgrade request to read the status it gets.
 *
 * @module
 */
import {
  type HttpProcess,
  type McpHarness,
  startHttp,
  type StartOptions,
  startStdio,
} from "./_mcp.ts";
import { launchTestBrowser, type TestBrowser } from "./_harness.ts";
import type { Page } from "../cdp/page.ts";
import { eventually } from "./_util.ts";

/** A browxai server with its console. */
export interface ConsoleServer {
  /** An MCP client of the server (the agent). */
  mcp: McpHarness;
  /** The console URL printed on stderr, with its token. */
  url: string;
  /** `http://127.0.0.1:PORT`. */
  base: string;
  /** The token of {@link url}. */
  token: string;
  /** The `--http` process, when started with {@link startConsoleHttp}. */
  http?: HttpProcess;
  close(): Promise<void>;
}

function parseUrl(stderr: string): { url: string; base: string; token: string } | undefined {
  const m = /web console: (http:\/\/[^\s/]+)\/console\?token=([0-9a-f]+)/.exec(stderr);
  return m ? { url: `${m[1]}/console?token=${m[2]}`, base: m[1]!, token: m[2]! } : undefined;
}

/** Starts browxai over stdio with `--console` and waits for the console URL on stderr. */
export async function startConsoleStdio(options: StartOptions = {}): Promise<ConsoleServer> {
  const mcp = await startStdio({ ...options, args: ["--console", ...(options.args ?? [])] });
  try {
    const found = await eventually(() => parseUrl(mcp.stderr()), 20_000, "the console URL");
    return { mcp, ...found, close: () => mcp.close() };
  } catch (e) {
    await mcp.close();
    throw new Error(`${(e as Error).message}: ${mcp.stderr()}`);
  }
}

/** Starts browxai with `--http` (console on the same port) and connects one MCP client. */
export async function startConsoleHttp(options: StartOptions = {}): Promise<ConsoleServer> {
  const http = await startHttp(options);
  try {
    const found = await eventually(() => parseUrl(http.stderr()), 20_000, "the console URL");
    const mcp = await http.connect();
    return { mcp, http, ...found, close: () => http.close() };
  } catch (e) {
    await http.close();
    throw e;
  }
}

/** Opens the token URL without following the redirect and returns the cookie it sets. */
export async function loginCookie(url: string): Promise<string> {
  const r = await fetch(url, { redirect: "manual" });
  await r.body?.cancel();
  const set = r.headers.get("set-cookie");
  if (r.status !== 303 || !set) throw new Error(`login: ${r.status}, no cookie`);
  return set.split(";")[0]!;
}

/** A live socket opened from the test (Deno's WebSocket, with chosen headers). */
export interface RawSocket {
  ws: WebSocket;
  /** Every message received, parsed. */
  messages: Array<Record<string, unknown>>;
  send(message: unknown): void;
  /** Waits for a message (received after `from`, an index into {@link messages}) matching `pred`. */
  next(
    pred: (m: Record<string, unknown>) => boolean,
    options?: { from?: number; timeoutMs?: number },
  ): Promise<Record<string, unknown>>;
  close(): void;
}

/** Opens `/console/live` with `headers` (cookie, origin) and waits for it to open. */
export async function openSocket(
  base: string,
  headers: Record<string, string>,
): Promise<RawSocket> {
  const ws = new WebSocket(`${base.replace(/^http/, "ws")}/console/live`, {
    headers,
  } as unknown as string[]);
  const messages: Array<Record<string, unknown>> = [];
  ws.onmessage = (e) => {
    try {
      messages.push(JSON.parse(String(e.data)));
    } catch {
      messages.push({ type: "<unparsable>", raw: String(e.data) });
    }
  };
  await new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error("the live socket did not open"));
  });
  return {
    ws,
    messages,
    send: (m) => ws.send(typeof m === "string" ? m : JSON.stringify(m)),
    async next(pred, options = {}) {
      const from = options.from ?? 0;
      return await eventually(
        () => messages.slice(from).find(pred),
        options.timeoutMs ?? 10_000,
        "a socket message",
      );
    },
    close: () => ws.close(),
  };
}

/**
 * Sends a raw WebSocket upgrade for `/console/live` and returns the response's status and body
 * (a refused upgrade answers a plain HTTP response).
 */
export async function upgradeStatus(
  base: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return await rawRequest(base, {
    path: "/console/live",
    headers: {
      Upgrade: "websocket",
      Connection: "Upgrade",
      "Sec-WebSocket-Version": "13",
      "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
      ...headers,
    },
  });
}

/**
 * Sends one HTTP/1.1 request over a raw TCP connection (so any Host header can be sent) and
 * returns the response's status and body (status 101: the upgrade was accepted).
 */
export async function rawRequest(
  base: string,
  options: { method?: string; path: string; headers?: Record<string, string> },
): Promise<{ status: number; body: string }> {
  const u = new URL(base);
  const conn = await Deno.connect({ hostname: u.hostname, port: Number(u.port) });
  try {
    const headers: Record<string, string> = { host: u.host, ...(options.headers ?? {}) };
    const lines = [
      `${options.method ?? "GET"} ${options.path} HTTP/1.1`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    await conn.write(new TextEncoder().encode(`${lines.join("\r\n")}\r\n\r\n`));
    // Bytes, not characters: content-length counts bytes (and the messages hold "…").
    let bytes = new Uint8Array(0);
    const buf = new Uint8Array(16 * 1024);
    const timer = setTimeout(() => {
      try {
        conn.close();
      } catch { /* closed */ }
    }, 10_000);
    try {
      while (true) {
        const n = await conn.read(buf).catch(() => null);
        if (n === null) break;
        const next = new Uint8Array(bytes.length + n);
        next.set(bytes);
        next.set(buf.subarray(0, n), bytes.length);
        bytes = next;
        const text = new TextDecoder().decode(bytes);
        const head = text.indexOf("\r\n\r\n");
        if (head < 0) continue;
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
        if (status === 101) return { status, body: "" };
        const headBytes = new TextEncoder().encode(text.slice(0, head + 4)).length;
        const len = Number(/content-length: (\d+)/i.exec(text.slice(0, head))?.[1] ?? 0);
        if (bytes.length >= headBytes + len) {
          return {
            status,
            body: new TextDecoder().decode(bytes.subarray(headBytes, headBytes + len)),
          };
        }
      }
    } finally {
      clearTimeout(timer);
    }
    const text = new TextDecoder().decode(bytes);
    return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), body: text };
  } finally {
    try {
      conn.close();
    } catch { /* closed */ }
  }
}

/** The console open in a headless Chromium. */
export interface ConsoleViewer {
  browser: TestBrowser;
  page: Page;
  /** Evaluates `expression` in the console page (isolated world: DOM only) and returns its JSON value. */
  eval<T = unknown>(expression: string): Promise<T>;
  /** Waits until `selector` matches an element; returns its text. */
  waitFor(selector: string, timeoutMs?: number): Promise<string>;
  /** Waits until the page's text contains `text`. */
  waitForText(text: string, timeoutMs?: number): Promise<void>;
  /** The text of the first element matching `selector` (null when none). */
  text(selector: string): Promise<string | null>;
  /** Clicks the centre of the first element matching `selector` with real mouse events. */
  click(selector: string): Promise<void>;
  /** Clicks at a point of the console page (CSS px). */
  clickAt(x: number, y: number): Promise<void>;
  /** Focuses `selector` and types `text` (Input.insertText). */
  type(selector: string, text: string): Promise<void>;
  /** The live image's frame counter (`data-frames`) and its `src` length + tail. */
  frame(): Promise<{ count: number; src: string }>;
  /** Saves a PNG of the console page (CDP Page.captureScreenshot). */
  screenshot(path: string): Promise<void>;
  close(): Promise<void>;
}

/** Opens `url` (the token URL) in a fresh headless Chromium, `width`×`height` CSS px. */
export async function openConsole(
  url: string,
  options: { width?: number; height?: number } = {},
): Promise<ConsoleViewer> {
  const browser = await launchTestBrowser();
  try {
    const page = await browser.newPage();
    await page.send("Emulation.setDeviceMetricsOverride", {
      width: options.width ?? 1280,
      height: options.height ?? 860,
      deviceScaleFactor: 1,
      mobile: false,
    });
    await page.navigate(url);
    const ev = async <T>(expression: string) => await page.evaluate(expression) as T;
    const q = (s: string) => JSON.stringify(s);
    const viewer: ConsoleViewer = {
      browser,
      page,
      eval: ev,
      async waitFor(selector, timeoutMs = 15_000) {
        return await eventually(
          () =>
            ev<string | null>(`document.querySelector(${q(selector)})?.textContent ?? null`)
              .then((t) => t === null ? undefined : t || " "),
          timeoutMs,
          `console element ${selector}`,
        );
      },
      async waitForText(text, timeoutMs = 15_000) {
        await eventually(
          () => ev<boolean>(`document.body.innerText.includes(${q(text)})`),
          timeoutMs,
          `console text ${JSON.stringify(text)}`,
        );
      },
      text: (selector) => ev(`document.querySelector(${q(selector)})?.textContent ?? null`),
      async click(selector) {
        const p = await ev<{ x: number; y: number } | null>(`(() => {
          const el = document.querySelector(${q(selector)});
          if (!el) return null;
          el.scrollIntoView({ block: "center" });
          const r = el.getBoundingClientRect();
          return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
        })()`);
        if (!p) throw new Error(`click: no element ${selector}`);
        await viewer.clickAt(p.x, p.y);
      },
      async clickAt(x, y) {
        await page.send("Input.dispatchMouseEvent", { type: "mouseMoved", x, y });
        for (const type of ["mousePressed", "mouseReleased"] as const) {
          await page.send("Input.dispatchMouseEvent", {
            type,
            x,
            y,
            button: "left",
            buttons: type === "mousePressed" ? 1 : 0,
            clickCount: 1,
          });
        }
      },
      async type(selector, text) {
        const ok = await ev<boolean>(
          `(() => { const el = document.querySelector(${
            q(selector)
          }); el?.focus(); return !!el; })()`,
        );
        if (!ok) throw new Error(`type: no element ${selector}`);
        await page.send("Input.insertText", { text });
      },
      async frame() {
        return await ev<{ count: number; src: string }>(`(() => {
          const img = document.querySelector(".live-img");
          return { count: Number(img?.dataset.frames ?? 0), src: img?.getAttribute("src") ?? "" };
        })()`);
      },
      async screenshot(path) {
        const r = await page.send("Page.captureScreenshot", { format: "png" });
        await Deno.writeFile(path, Uint8Array.from(atob(r.data), (c) => c.charCodeAt(0)));
      },
      close: () => browser.close(),
    };
    return viewer;
  } catch (e) {
    await browser.close();
    throw e;
  }
}
