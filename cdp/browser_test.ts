import { assertEquals, assertIncludes, assertRejects, assertTrue } from "../tests/_assert.ts";
import { alive } from "../tests/_util.ts";
import { Browser, resolveEndpoint } from "./browser.ts";
import { Connection } from "./connection.ts";
import { findChromium } from "./discovery.ts";
import { CdpError, ProtocolError } from "./errors.ts";
import { launchChromium } from "./launcher.ts";
import { connectWebSocket } from "./transport.ts";

const executablePath = findChromium().path;

/** A loopback port nobody listens on (bound, then released). */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

Deno.test("resolveEndpoint() passes ws and wss URLs through", async () => {
  const ws = "ws://127.0.0.1:9222/devtools/browser/4b1c1f0e-0000-4000-8000-000000000000";
  assertEquals(await resolveEndpoint(ws), ws);
  assertEquals(
    await resolveEndpoint("wss://example.test/devtools/browser/x"),
    "wss://example.test/devtools/browser/x",
  );
});

Deno.test("resolveEndpoint() rejects garbage with TypeError", async () => {
  for (const bad of ["", "not a url", "127.0.0.1:9222", "ftp://127.0.0.1:9222"]) {
    const error = await assertRejects(() => resolveEndpoint(bad), TypeError);
    assertIncludes(error.message, `Invalid CDP endpoint "${bad}"`);
  }
});

Deno.test("resolveEndpoint() fails fast with CdpError on a port nobody listens on", async () => {
  const endpoint = `http://127.0.0.1:${freePort()}`;
  const started = Date.now();
  const error = await assertRejects(() => resolveEndpoint(endpoint), CdpError);
  assertTrue(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
  assertIncludes(error.message, `Cannot reach CDP endpoint "${endpoint}": `);
});

Deno.test("resolveEndpoint() asks /json/version of a running browser", async () => {
  const proc = await launchChromium({ executablePath, debugPort: true });
  try {
    const port = new URL(proc.wsEndpoint!).port;
    assertEquals(await resolveEndpoint(`http://127.0.0.1:${port}`), proc.wsEndpoint!);
    assertEquals(await resolveEndpoint(`http://127.0.0.1:${port}/`), proc.wsEndpoint!);
  } finally {
    await proc.close();
  }
});

Deno.test("Browser.connect() then close() leaves someone else's browser running", async () => {
  const proc = await launchChromium({ executablePath, debugPort: true });
  try {
    const port = new URL(proc.wsEndpoint!).port;
    const browser = await Browser.connect(`http://127.0.0.1:${port}`);
    try {
      assertEquals(browser.owned, false);
      assertEquals(browser.pid, undefined);
      assertEquals(browser.wsEndpoint, proc.wsEndpoint!);
      const ctx = await browser.createContext();
      const page = await browser.newPage(ctx);
      assertEquals(page.browserContextId, ctx);
    } finally {
      await browser.close();
    }
    assertEquals(browser.isClosed, true);
    assertEquals(alive(proc.pid), true, "the browser process still runs");
    const conn = new Connection(await connectWebSocket(proc.wsEndpoint!));
    try {
      const { product } = await conn.send("Browser.getVersion");
      assertIncludes(product, "Chrome/");
    } finally {
      await conn.close();
    }
  } finally {
    await proc.close();
  }
});

Deno.test("Browser.close() of a launched browser ends its process", async () => {
  const browser = await Browser.launch({ executablePath });
  const pid = browser.pid;
  try {
    assertEquals(browser.owned, true);
    assertTrue(pid !== undefined && alive(pid));
  } finally {
    await browser.close();
  }
  assertEquals(browser.isClosed, true);
  assertEquals(alive(pid!), false);
  await browser.close(); // idempotent
});

Deno.test("Browser.createContext() isolates cookies, and disposeContext() drops them", async () => {
  const browser = await Browser.launch({ executablePath });
  try {
    const a = await browser.createContext();
    const b = await browser.createContext();
    assertTrue(a !== b);
    await browser.connection.send("Storage.setCookies", {
      browserContextId: a,
      cookies: [{ name: "who", value: "a", domain: "127.0.0.1", path: "/" }],
    });
    const names = async (browserContextId?: string) => {
      const { cookies } = await browser.connection.send(
        "Storage.getCookies",
        browserContextId ? { browserContextId } : {},
      );
      return cookies.map((c) => `${c.name}=${c.value}`);
    };
    assertEquals(await names(a), ["who=a"]);
    assertEquals(await names(b), []);
    assertEquals(await names(), [], "the default context sees nothing either");

    await browser.disposeContext(a);
    const { browserContextIds } = await browser.connection.send("Target.getBrowserContexts");
    assertEquals(browserContextIds.includes(a), false);
    assertEquals(browserContextIds.includes(b), true);
    await assertRejects(() => names(a), ProtocolError);
    assertEquals(await names(b), []);
  } finally {
    await browser.close();
  }
});
