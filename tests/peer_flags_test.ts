/**
 * The flags @playwright/mcp users know, end to end over MCP stdio against real Chromium: one
 * server per flag combination, each page (and its frames, its popups) reporting what it sees
 * to the test's own server. Chromium sends loopback hosts past a proxy, so the proxy is
 * reached through made-up hosts (`http://proxied.test/`) that the test's proxy answers.
 */
import { chromiumMajor } from "../cdp/user_agent.ts";
import { findChromium } from "../cdp/discovery.ts";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { type McpHarness, startHttp, startStdio, textOf } from "./_mcp.ts";
import { join } from "./_paths.ts";
import { eventually } from "./_util.ts";

/** What a probe page (or frame) saw. */
interface Report {
  where: string;
  init: string | null;
  webdriver: boolean;
  ua: string;
  brands: string;
  w: number;
  h: number;
  dpr: number;
  touch: number;
  cookie: string;
  ls: string | null;
  /** The User-Agent header of the report's request. */
  header: string;
}

const PROBE = `<!doctype html><meta charset="utf-8"><title>probe</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><body><script>
const q = new URLSearchParams(location.search);
const r = { where: q.get("where"), init: window.__init ?? null, webdriver: navigator.webdriver,
  ua: navigator.userAgent, brands: (navigator.userAgentData?.brands ?? []).map((b) => b.brand).join(","),
  w: innerWidth, h: innerHeight, dpr: devicePixelRatio, touch: navigator.maxTouchPoints,
  cookie: document.cookie, ls: (() => { try { return localStorage.getItem("k"); } catch { return null; } })() };
fetch("/report", { method: "POST", body: JSON.stringify(r) });
for (const src of q.getAll("frame")) {
  const f = document.createElement("iframe");
  f.src = src;
  document.body.append(f);
}
</script>`;

/** The test's page server: probe pages, and the reports they send. */
function startPages() {
  const reports = new Map<string, Report>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/report") {
      const r = JSON.parse(await req.text()) as Report;
      r.header = req.headers.get("user-agent") ?? "";
      reports.set(r.where, r);
      return new Response("ok");
    }
    if (url.pathname === "/set") {
      // What the --user-data-dir test keeps: a lasting cookie and a localStorage item.
      return new Response(
        `<script>document.cookie = "kept=1; max-age=86400; path=/";
        localStorage.setItem("k", "kept");</script>set`,
        { headers: { "content-type": "text/html" } },
      );
    }
    // Without a viewport meta tag a mobile browser lays the page out 980 px wide.
    const page = url.searchParams.has("nometa")
      ? PROBE.replace(/<meta name="viewport"[^>]*>/, "")
      : PROBE;
    return new Response(page, { headers: { "content-type": "text/html" } });
  });
  const port = server.addr.port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    reports,
    report: (where: string) =>
      eventually(() => reports.get(where), 15_000, `a report from ${where}`),
    close: () => server.shutdown(),
  };
}

/** A forward proxy that answers every request itself, saying which URL it was asked for. */
function startProxy() {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(req.url);
    return new Response(`<title>proxied</title>via proxy: ${req.url}`, {
      headers: { "content-type": "text/html" },
    });
  });
  return { port: server.addr.port, seen, close: () => server.shutdown() };
}

const TOOLS_ENV = {
  BROWX_TOOLSETS: "core,debug",
  BROWX_CAPABILITIES: "read,navigation,action,eval",
};

async function evalIn(mcp: McpHarness, expression: string): Promise<unknown> {
  return (await mcp.ok("eval_js", { expression })).value;
}

Deno.test("peer flags: viewport, init script, storage state, proxy, origins, no automation tells", async (t) => {
  const pages = startPages();
  const proxy = startProxy();
  const dir = await Deno.makeTempDir({ prefix: "browxai-flags-" });
  await Deno.writeTextFile(join(dir, "init.js"), `window.__init = "yes";`);
  await Deno.writeTextFile(
    join(dir, "state.json"),
    JSON.stringify({
      cookies: [{ name: "sc", value: "1", domain: "127.0.0.1", path: "/" }],
      origins: [{ origin: pages.origin, localStorage: [{ name: "k", value: "from-state" }] }],
    }),
  );
  const mcp = await startStdio({
    env: TOOLS_ENV,
    args: [
      "--viewport-size",
      "1024x700",
      "--init-script",
      join(dir, "init.js"),
      "--storage-state",
      join(dir, "state.json"),
      "--proxy-server",
      `http://127.0.0.1:${proxy.port}`,
      "--proxy-bypass",
      "bypassed.test",
      "--allowed-origins",
      "127.0.0.1;localhost;proxied.test;bypassed.test;blocked.test",
      "--blocked-origins",
      "blocked.test",
    ],
  });
  try {
    await t.step("page, same-origin frame and cross-site frame see the flags", async () => {
      const frame = `${pages.origin}/probe?where=frame`;
      const oopif = `http://localhost:${pages.port}/probe?where=oopif`;
      const first = await mcp.ok("navigate", {
        url: `${pages.origin}/probe?where=page&frame=${encodeURIComponent(frame)}&frame=${
          encodeURIComponent(oopif)
        }`,
      });
      // The scratch tab --storage-state was applied through is browxai's: not news.
      assertEquals(first.sinceLastCall, undefined, JSON.stringify(first.sinceLastCall));
      for (const where of ["page", "frame", "oopif"]) {
        const r = await pages.report(where);
        assertEquals(r.init, "yes", `${where}: the init script ran first`);
        assertEquals(r.webdriver, false, `${where}: navigator.webdriver`);
        assertTrue(!r.ua.includes("Headless"), `${where}: navigator.userAgent ${r.ua}`);
        assertTrue(!r.header.includes("Headless"), `${where}: User-Agent header ${r.header}`);
        assertIncludes(r.ua, "Chrome/");
        assertTrue(r.brands.includes("Chromium"), `${where}: userAgentData brands ${r.brands}`);
        assertTrue(!r.brands.includes("Headless"), `${where}: brands ${r.brands}`);
      }
      const page = pages.reports.get("page")!;
      assertEquals([page.w, page.h], [1024, 700]);
      assertIncludes(page.cookie, "sc=1");
      assertEquals(page.ls, "from-state");
    });

    await t.step("a popup the page opens gets the init script and the viewport", async () => {
      await evalIn(mcp, `window.open("/probe?where=popup"), true`);
      const r = await pages.report("popup");
      assertEquals(r.init, "yes");
      assertEquals([r.w, r.h], [1024, 700]);
      assertEquals(r.webdriver, false);
    });

    await t.step("--proxy-server carries a made-up host to the test's proxy", async () => {
      await mcp.ok("navigate", { url: "http://proxied.test/hello" });
      assertIncludes(String(await evalIn(mcp, "document.body.textContent")), "via proxy");
      assertTrue(proxy.seen.some((u) => u.includes("proxied.test/hello")), proxy.seen.join());
    });

    await t.step(
      "--proxy-bypass sends a host past the proxy (a made-up one: no such host)",
      async () => {
        const r = await mcp.call("navigate", { url: "http://bypassed.test/" });
        assertEquals(r.isError, true, textOf(r));
        assertTrue(!proxy.seen.some((u) => u.includes("bypassed.test")), proxy.seen.join());
      },
    );

    await t.step(
      "--blocked-origins wins over --allowed-origins; off the allowlist is refused",
      async () => {
        const blocked = await mcp.call("navigate", { url: "http://blocked.test/" });
        assertEquals(blocked.isError, true);
        assertIncludes(textOf(blocked), "blocklist");
        const off = await mcp.call("navigate", { url: "http://elsewhere.test/" });
        assertEquals(off.isError, true);
        assertIncludes(textOf(off), "not on the navigation allowlist");
        assertTrue(!proxy.seen.some((u) => /blocked\.test|elsewhere\.test/.test(u)));
      },
    );
  } finally {
    await mcp.close();
    await pages.close();
    await proxy.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** A self-signed certificate for 127.0.0.1, made with openssl. */
async function selfSigned(dir: string): Promise<{ cert: string; key: string }> {
  const out = await new Deno.Command("openssl", {
    args: [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      join(dir, "key.pem"),
      "-out",
      join(dir, "cert.pem"),
    ],
    stdout: "null",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  return {
    cert: await Deno.readTextFile(join(dir, "cert.pem")),
    key: await Deno.readTextFile(join(dir, "key.pem")),
  };
}

Deno.test("peer flags: --device, --config precedence, --ignore-https-errors; the tells setting", async (t) => {
  const pages = startPages();
  const dir = await Deno.makeTempDir({ prefix: "browxai-flags-" });
  const tls = await selfSigned(dir);
  const https = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {}, ...tls },
    () =>
      new Response("<title>secure</title>over https", { headers: { "content-type": "text/html" } }),
  );
  const httpsUrl = `https://127.0.0.1:${https.addr.port}/`;
  const config = join(dir, "browxai.json");
  await Deno.writeTextFile(
    config,
    JSON.stringify({
      viewportSize: "800x600",
      "ignore-https-errors": true,
      BROWX_CAPABILITIES: "read,navigation,action,eval",
      BROWX_TOOLSETS: "core,debug",
    }),
  );
  try {
    await t.step("flags > file > environment; a device's scale, touch and user agent", async () => {
      const mcp = await startStdio({
        // The file's capabilities (with eval) win over the environment's.
        env: { BROWX_CAPABILITIES: "read,navigation,action" },
        args: ["--config", config, "--device", "iPhone 15", "--viewport-size", "500x400"],
      });
      try {
        await mcp.ok("navigate", { url: `${pages.origin}/probe?where=device` });
        const r = await pages.report("device");
        assertEquals([r.w, r.h], [500, 400], "--viewport-size over the file's and the device's");
        assertEquals(r.dpr, 3);
        assertTrue(r.touch > 0, `maxTouchPoints ${r.touch}`);
        assertIncludes(r.ua, "iPhone");
        assertIncludes(r.header, "iPhone");
        await mcp.ok("navigate", { url: `${pages.origin}/probe?where=layout&nometa` });
        assertEquals((await pages.report("layout")).w, 980, "a mobile layout viewport");
        // The file's ignoreHttpsErrors: a self-signed server loads.
        await mcp.ok("navigate", { url: httpsUrl });
        assertEquals(await evalIn(mcp, "document.title"), "secure");
      } finally {
        await mcp.close();
      }
    });

    await t.step("a device preset's Chrome version is the running browser's", async () => {
      const mcp = await startStdio({ env: TOOLS_ENV, args: ["--device", "Pixel 7"] });
      try {
        await mcp.ok("navigate", { url: `${pages.origin}/probe?where=pixel` });
        const r = await pages.report("pixel");
        assertIncludes(r.ua, "Pixel 7");
        const running = await chromiumMajor(findChromium().path);
        assertIncludes(r.ua, `Chrome/${running}.0.0.0`);
      } finally {
        await mcp.close();
      }
    });

    await t.step(
      "BROWX_AUTOMATION_TELLS=1 announces automation; no flag: a certificate error",
      async () => {
        const mcp = await startStdio({ env: { ...TOOLS_ENV, BROWX_AUTOMATION_TELLS: "1" } });
        try {
          await mcp.ok("navigate", { url: `${pages.origin}/probe?where=tells` });
          const r = await pages.report("tells");
          assertEquals(r.webdriver, true);
          assertIncludes(r.ua, "HeadlessChrome");
          const bad = await mcp.call("navigate", { url: httpsUrl });
          assertEquals(bad.isError, true);
          assertIncludes(textOf(bad), "CERT");
          assertIncludes(textOf(bad), "--ignore-https-errors");
        } finally {
          await mcp.close();
        }
      },
    );
  } finally {
    await https.shutdown();
    await pages.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("peer flags: --user-data-dir keeps the default session's state across a restart", async () => {
  const pages = startPages();
  const dir = await Deno.makeTempDir({ prefix: "browxai-flags-" });
  const profile = join(dir, "profile");
  try {
    const first = await startStdio({ env: TOOLS_ENV, args: ["--user-data-dir", profile] });
    try {
      const r = await first.ok("navigate", { url: `${pages.origin}/set` });
      assertEquals(r.ok, true);
      assertEquals(await evalIn(first, "localStorage.getItem('k')"), "kept");
    } finally {
      await first.close();
    }
    const second = await startStdio({ env: TOOLS_ENV, args: ["--user-data-dir", profile] });
    try {
      await second.ok("navigate", { url: `${pages.origin}/probe?where=restart` });
      const r = await pages.report("restart");
      assertIncludes(r.cookie, "kept=1");
      assertEquals(r.ls, "kept");
    } finally {
      await second.close();
    }
  } finally {
    await pages.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("peer flags: --shared-browser-context shares one context between HTTP clients; without it they are apart", async () => {
  const pages = startPages();
  const env = { ...TOOLS_ENV, BROWX_NO_DOWNLOAD: "1" };
  /** Client a sets a cookie; what client b's page then sees. */
  async function cookieSeenByOther(args: string[]): Promise<string> {
    const server = await startHttp({ env, args });
    try {
      const a = await server.connect();
      const b = await server.connect();
      await a.ok("navigate", { url: `${pages.origin}/set` });
      const where = `b${args.length}`;
      await b.ok("navigate", { url: `${pages.origin}/probe?where=${where}` });
      return (await pages.report(where)).cookie;
    } finally {
      await server.close();
    }
  }
  try {
    assertIncludes(await cookieSeenByOther(["--shared-browser-context"]), "kept=1");
    assertEquals(await cookieSeenByOther([]), "");
  } finally {
    await pages.close();
  }
});
