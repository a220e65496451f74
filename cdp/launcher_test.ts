import { spawn } from "node:child_process";
import { join } from "node:path";
import { assertEquals, assertIncludes, assertRejects, assertTrue } from "../tests/_assert.ts";
import { alive, cmdline, descendants, eventually, exists } from "../tests/_util.ts";
import { listeningPorts, processesMentioning } from "../tests/_procs.ts";
import { Connection } from "./connection.ts";
import { findChromium } from "./discovery.ts";
import { CdpError } from "./errors.ts";
import { chromiumArgs } from "./chromium_args.ts";
import { launchChromium, ProfileInUseError, testMessageCap } from "./launcher.ts";
import { connectWebSocket, MAX_MESSAGE_BYTES } from "./transport.ts";

const executablePath = findChromium().path;

/** Local addresses (hex, as in /proc/net/tcp*) listening on a TCP port. */
function listeners(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const out: string[] = [];
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = Deno.readTextFileSync(file);
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state === "0A" && local?.endsWith(`:${hexPort}`)) out.push(local.split(":")[0]!);
    }
  }
  return out;
}

Deno.test("launchChromium() drives the browser over its pipe and opens no port", async () => {
  const browser = await launchChromium({ executablePath });
  try {
    assertEquals(browser.wsEndpoint, undefined);
    assertTrue(browser.pid > 0 && alive(browser.pid));
    assertIncludes(cmdline(browser.pid), "--remote-debugging-pipe");
    assertTrue(!cmdline(browser.pid).includes("--remote-debugging-port"));
    const conn = new Connection(browser.transport!);
    try {
      const { product } = await conn.send("Browser.getVersion");
      assertIncludes(product, "Chrome/");
      await conn.send("Target.createTarget", { url: "data:text/html,<p>hi" });
      const family = [browser.pid, ...descendants(browser.pid)];
      assertEquals(listeningPorts(family), [], "no process of the browser listens on TCP");
    } finally {
      await conn.close();
    }
  } finally {
    await browser.close();
  }
});

Deno.test("launchChromium(): a headless browser's first tab comes without the omnibox's WebUI popups", async () => {
  // They are made with the window (before Target.createTarget answers): two renderers of
  // `chrome://omnibox-popup.top-chrome` that a headless browser never shows.
  const browser = await launchChromium({ executablePath });
  const conn = new Connection(browser.transport!);
  try {
    await conn.send("Target.createTarget", { url: "about:blank" });
    const { targetInfos } = await conn.send("Target.getTargets");
    assertEquals(targetInfos.map((t) => `${t.type} ${t.url}`), ["page about:blank"]);
    const webUi = descendants(browser.pid).filter((p) => cmdline(p).includes("--top-chrome-webui"));
    assertEquals(webUi, [], "no top-chrome WebUI renderer");
  } finally {
    await conn.close();
    await browser.close();
  }
});

Deno.test("launchChromium({ debugPort }) gives a loopback ws endpoint and a pid", async () => {
  const browser = await launchChromium({ executablePath, debugPort: true });
  try {
    const m = /^ws:\/\/127\.0\.0\.1:(\d+)\/devtools\/browser\/[0-9a-f-]+$/.exec(
      browser.wsEndpoint!,
    );
    assertTrue(m, `unexpected endpoint ${browser.wsEndpoint}`);
    assertTrue(browser.pid > 0 && alive(browser.pid));
    assertIncludes(cmdline(browser.pid), `--user-data-dir=${browser.userDataDir}`);
    assertTrue(exists(browser.userDataDir));
    // The debugging port listens on 127.0.0.1 only.
    assertEquals(listeners(Number(m[1])), ["0100007F"]);
    const conn = new Connection(await connectWebSocket(browser.wsEndpoint!));
    try {
      const { product } = await conn.send("Browser.getVersion");
      assertIncludes(product, "Chrome/");
    } finally {
      await conn.close();
    }
  } finally {
    await browser.close();
  }
});

Deno.test("launchChromium() close() ends the browser and all its children, and removes the temp profile", async () => {
  const browser = await launchChromium({ executablePath });
  let conn: Connection | undefined;
  try {
    conn = new Connection(browser.transport!);
    // Renderers of two tabs, besides the zygotes, GPU and utility processes.
    for (const text of ["one", "two"]) {
      await conn.send("Target.createTarget", { url: `data:text/html,<p>${text}` });
    }
    const children = await eventually(
      () => {
        const pids = descendants(browser.pid);
        const renderers = pids.filter((p) => cmdline(p).includes("--type=renderer"));
        return renderers.length >= 2 ? pids : undefined;
      },
      5000,
      "the renderers to start",
    ) as number[];
    assertTrue(processesMentioning(browser.userDataDir).length >= 1);

    await browser.close();

    assertEquals(alive(browser.pid), false, "the browser process is gone");
    assertEquals(children.filter(alive), [], "no child process is left");
    assertEquals(processesMentioning(browser.userDataDir), [], "nothing runs on the profile");
    assertEquals(exists(browser.userDataDir), false, "the temp profile is removed");
    assertEquals(await browser.exited, await browser.exited, "exited stays resolved");
    await conn.closed;
    await browser.close(); // idempotent
  } finally {
    await conn?.close();
    await browser.close();
  }
});

Deno.test("launchChromium() keeps a persistent profile, and refuses it while in use", async () => {
  const root = await Deno.makeTempDir({ prefix: "browxai-launcher-test-" });
  const userDataDir = join(root, "profile");
  try {
    const first = await launchChromium({ executablePath, userDataDir });
    try {
      assertEquals(first.userDataDir, userDataDir);
      const started = Date.now();
      const error = await assertRejects(
        () => launchChromium({ executablePath, userDataDir }),
        ProfileInUseError,
      );
      assertTrue(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
      assertTrue(error instanceof CdpError);
      assertIncludes(error.message, `Cannot open profile "${userDataDir}"`);
      assertIncludes(error.message, `in use by another browxai server (pid ${Deno.pid})`);
      assertTrue(alive(first.pid), "the running browser is not disturbed");
    } finally {
      await first.close();
    }
    assertTrue(exists(join(userDataDir, "Local State")), "the profile survives close");
    assertEquals(processesMentioning(userDataDir), []);

    // Closed cleanly, the profile is free again.
    const second = await launchChromium({ executablePath, userDataDir });
    await second.close();
    assertTrue(exists(userDataDir));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("launchChromium() fails clearly for a missing executable and leaves no temp profile", async () => {
  const error = await assertRejects(
    () => launchChromium({ executablePath: "/nonexistent/chromium" }),
    CdpError,
  );
  assertIncludes(error.message, 'Cannot start Chromium "/nonexistent/chromium": ');
  assertEquals((error.cause as { code?: string }).code, "ENOENT");

  // The temp-dir check runs in a child process with its own TMPDIR, so that
  // browsers of tests running in parallel cannot blur it.
  const tmp = await Deno.makeTempDir({ prefix: "browxai-launcher-test-" });
  try {
    const launcher = new URL("./launcher.ts", import.meta.url).href;
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `import { launchChromium } from ${JSON.stringify(launcher)};
        await launchChromium({ executablePath: "/nonexistent/chromium" })
          .catch((e) => console.log(e.name));`,
      ],
      env: { TMPDIR: tmp },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    assertEquals(code, 0, decoder.decode(stderr));
    assertEquals(decoder.decode(stdout).trim(), "BrowserStartError");
    assertEquals([...Deno.readDirSync(tmp)].map((e) => e.name), []);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("testMessageCap(): the test-only cap is 1 MiB up to the default, else the default", () => {
  const MiB = 1024 * 1024;
  const cap = (v: string | undefined) =>
    testMessageCap((n) => n === "BROWX_TEST_CDP_MAX_MESSAGE_BYTES" ? v : undefined);
  assertEquals(MAX_MESSAGE_BYTES, 256 * MiB);
  assertEquals(cap(undefined), undefined);
  assertEquals(cap(String(32 * MiB)), 32 * MiB);
  assertEquals(cap(String(MiB)), MiB);
  assertEquals(cap(String(256 * MiB)), 256 * MiB);
  for (
    const bad of ["", "abc", "-5", "1e9", "33554432.5", String(MiB - 1), String(256 * MiB + 1)]
  ) {
    assertEquals(cap(bad), undefined, bad);
  }
});

Deno.test("chromiumArgs() has headless, pipe debugging and the closed-network flags", () => {
  const args = chromiumArgs({ userDataDir: "/p", args: ["--lang=fr"] });
  for (
    const flag of [
      "--headless",
      "--remote-debugging-pipe",
      "--user-data-dir=/p",
      "--no-first-run",
      "--no-default-browser-check",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-domain-reliability",
      "--disable-client-side-phishing-detection",
      "--no-pings",
      "--disable-breakpad",
      "--password-store=basic",
      "--component-updater=url-source=http://127.0.0.1:9/",
      "--gaia-url=http://127.0.0.1:9/",
    ]
  ) {
    assertTrue(args.includes(flag), `missing ${flag} in ${args.join(" ")}`);
  }
  assertEquals(args.at(-1), "--lang=fr", "extra switches come last");
  const disabled = (a: string[]) => a.filter((f) => f.startsWith("--disable-features="));
  assertEquals(disabled(args).length, 1);
  assertTrue(disabled(args)[0]!.includes("NetworkTimeServiceQuerying"));
  // APIs whose requests the browser process sends, past every guard (red team s15 #1, #2).
  for (const f of ["BackgroundFetch", "WebPayments", "FedCm", "FetchLaterAPI"]) {
    assertTrue(disabled(args)[0]!.split(/[=,]/).includes(f), `${f} not disabled`);
  }
  // A caller's own --disable-features joins ours (Chromium keeps only the last one given).
  const merged = disabled(chromiumArgs({ userDataDir: "/p", args: ["--disable-features=Foo"] }));
  assertEquals(merged.length, 1);
  assertTrue(/Prerender2.*,Foo$/.test(merged[0]!), merged[0]);
  assertEquals(args.filter((a) => a.startsWith("--remote-debugging-")), [
    "--remote-debugging-pipe",
  ]);

  const headful = chromiumArgs({ userDataDir: "/p", headful: true });
  assertEquals(headful.filter((a) => a.startsWith("--headless")), []);
  assertTrue(headful.includes("--remote-debugging-pipe"));

  const port = chromiumArgs({ userDataDir: "/p", debugPort: true });
  assertEquals(port.filter((a) => a.startsWith("--remote-debugging-")), [
    "--remote-debugging-port=0",
    "--remote-debugging-address=127.0.0.1",
  ]);

  const root = Deno.uid() === 0;
  assertEquals(args.includes("--no-sandbox"), root, "--no-sandbox only as root");
  assertEquals(headful.includes("--no-sandbox"), root);
});

Deno.test("launchChromium() refuses a profile a Chromium it did not start holds, naming its pid", async () => {
  const root = await Deno.makeTempDir({ prefix: "browxai-launcher-test-" });
  const userDataDir = join(root, "profile");
  const theirs = new Deno.Command(executablePath, {
    args: [...chromiumArgs({ userDataDir, debugPort: true }), "about:blank"],
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    const holder = await eventually(
      () => {
        try {
          return Number(Deno.readLinkSync(join(userDataDir, "SingletonLock")).split("-").at(-1));
        } catch {
          return undefined;
        }
      },
      10_000,
      "their SingletonLock",
    );
    const error = await assertRejects(
      () => launchChromium({ executablePath, userDataDir }),
      ProfileInUseError,
    );
    assertIncludes(error.message, `in use by Chromium process ${holder}`);
    assertTrue(alive(holder!), "their browser is not disturbed");
  } finally {
    theirs.kill("SIGKILL");
    await theirs.status;
    await eventually(() => processesMentioning(userDataDir).length === 0, 5000, "their exit");
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("launchChromium() takes over a profile from a pipe browser whose server let go, and a stale lock", async () => {
  const root = await Deno.makeTempDir({ prefix: "browxai-launcher-test-" });
  const userDataDir = join(root, "profile");
  try {
    // A browxai browser left on the profile: its server's claim is gone (here: never taken),
    // yet it runs, its pipe still open.
    const left = spawn(executablePath, [...chromiumArgs({ userDataDir }), "about:blank"], {
      stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"],
    });
    const leftPid = left.pid!;
    await eventually(() => exists(join(userDataDir, "SingletonLock")), 10_000, "its lock");
    const browser = await launchChromium({ executablePath, userDataDir });
    try {
      assertEquals(alive(leftPid), false, "the left browser was ended");
      assertTrue(browser.pid !== leftPid && alive(browser.pid));
    } finally {
      await browser.close();
    }
    // A lock left by a killed browser whose pid now runs something else: stale.
    await Deno.remove(join(userDataDir, "SingletonLock")).catch(() => {});
    Deno.symlinkSync(`${Deno.hostname()}-${Deno.pid}`, join(userDataDir, "SingletonLock"));
    const again = await launchChromium({ executablePath, userDataDir });
    await again.close();
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
