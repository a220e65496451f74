/**
 * Installing Chrome for Testing (issue 16), against a local mirror in CfT's
 * layout (tests/_cft_fixture.ts): no outside network.
 */
import { assertEquals, assertIncludes, assertRejects, assertTrue as assert } from "./_assert.ts";
import { BrowserInstallError, installBrowser, PINNED_BUILD } from "../cdp/install_browser.ts";
import { listTree, sha256Hex, startCftMirror } from "./_cft_fixture.ts";
import { ROOT, startStdio, textOf, type ToolResult } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { join } from "./_paths.ts";
import { eventually } from "./_util.ts";

const BUILD_DIR = `chrome-headless-shell/linux-${PINNED_BUILD}`;
const EXE = `${BUILD_DIR}/chrome-headless-shell-linux64/chrome-headless-shell`;

/** The cache holds nothing but the lock file (and, optionally, empty browser folders). */
function assertNothingInstalled(cache: string) {
  const left = listTree(cache).filter((p) =>
    p !== ".install.lock" && p !== "chrome-headless-shell"
  );
  assertEquals(left, [], "nothing left in the cache");
}

Deno.test("install-browser: downloads with progress, installs atomically, then reuses", async () => {
  const mirror = await startCftMirror();
  const cache = await Deno.makeTempDir({ prefix: "browxai-cache-" });
  try {
    const progress: [number, number][] = [];
    const got = await installBrowser({
      cacheDir: cache,
      mirror: mirror.url,
      onProgress: (p) => progress.push([p.downloaded, p.total]),
    });
    assertEquals(got.path, join(cache, EXE));
    assertEquals(got.reused, false);
    assertIncludes(got.version, "Chromium");
    assert(progress.length > 1, `several progress reports, got ${progress.length}`);
    const last = progress.at(-1)!;
    assertEquals(last, [mirror.archive.length, mirror.archive.length]);
    // Nothing but the build and the lock: no archive, no temp folder.
    assertEquals(listTree(cache).filter((p) => !p.startsWith(`${BUILD_DIR}/`)), [
      ".install.lock",
      "chrome-headless-shell",
      BUILD_DIR,
    ]);
    const again = await installBrowser({ cacheDir: cache, mirror: mirror.url });
    assertEquals([again.path, again.reused], [got.path, true]);
    assertEquals(mirror.archiveRequests, 1);
  } finally {
    await mirror.close();
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("install-browser: a truncated, a corrupt, a mismatched archive leave nothing behind", async () => {
  const mirror = await startCftMirror();
  const cache = await Deno.makeTempDir({ prefix: "browxai-cache-" });
  try {
    mirror.mode = "truncated";
    const t = await assertRejects(
      () => installBrowser({ cacheDir: cache, mirror: mirror.url }),
      BrowserInstallError,
    );
    assertIncludes(t.message, `Cannot install chrome-headless-shell ${PINNED_BUILD}`);
    assertNothingInstalled(cache);
    mirror.mode = "corrupt";
    await assertRejects(
      () => installBrowser({ cacheDir: cache, mirror: mirror.url }),
      BrowserInstallError,
    );
    assertNothingInstalled(cache);
    // The mirror's checksum file names another archive: refused before unpacking.
    mirror.mode = "ok";
    mirror.sha256 = await sha256Hex(new Uint8Array([1, 2, 3]));
    const m = await assertRejects(
      () => installBrowser({ cacheDir: cache, mirror: mirror.url }),
      BrowserInstallError,
    );
    assertIncludes(m.message, "Integrity check failed");
    assertNothingInstalled(cache);
    // The right checksum: installed.
    mirror.sha256 = await sha256Hex(mirror.archive);
    const ok = await installBrowser({ cacheDir: cache, mirror: mirror.url });
    assertEquals(ok.reused, false);
  } finally {
    await mirror.close();
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("install-browser: missing shared libraries give the apt-get line, install nothing", async () => {
  const mirror = await startCftMirror();
  const cache = await Deno.makeTempDir({ prefix: "browxai-cache-" });
  try {
    mirror.mode = "missing-libs";
    const e = await assertRejects(
      () => installBrowser({ cacheDir: cache, mirror: mirror.url }),
      BrowserInstallError,
    );
    assertEquals(e.aptGet, "apt-get install -y libnss3");
    assertIncludes(e.message, "apt-get install -y libnss3");
    assertNothingInstalled(cache);
  } finally {
    await mirror.close();
    await Deno.remove(cache, { recursive: true });
  }
});

/** Spawns `browxai install-browser` against the mirror; collects its output as it comes. */
function spawnInstall(env: Record<string, string>) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", join(ROOT, "main.ts"), "install-browser"],
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const out = { stdout: "", stderr: "" };
  const pump = async (s: ReadableStream<Uint8Array>, key: "stdout" | "stderr") => {
    const dec = new TextDecoder();
    for await (const c of s) out[key] += dec.decode(c, { stream: true });
  };
  const done = Promise.all([pump(child.stdout, "stdout"), pump(child.stderr, "stderr")])
    .then(() => child.status);
  return { out, done, pid: child.pid };
}

Deno.test("install-browser: two processes at once: one downloads, the other waits and reuses", async () => {
  const mirror = await startCftMirror();
  const cache = await Deno.makeTempDir({ prefix: "browxai-cache-" });
  let release = () => {};
  // The download is held until the second process says it waits on the lock: they overlap.
  mirror.hold = new Promise((r) => release = r);
  try {
    const env = { BROWX_BROWSER_CACHE: cache, BROWX_BROWSER_MIRROR: mirror.url };
    const a = spawnInstall(env);
    const b = spawnInstall(env);

    await eventually(
      () => [a, b].some((p) => p.out.stderr.includes("waiting for another install")),
      30_000,
      "one process waiting on the other's lock",
    );
    release();
    const [sa, sb] = await Promise.all([a.done, b.done]);
    assertEquals([sa.code, sb.code], [0, 0], a.out.stderr + b.out.stderr);
    assertEquals(mirror.archiveRequests, 1);
    assertEquals(a.out.stdout.trim(), join(cache, EXE));
    assertEquals(b.out.stdout.trim(), join(cache, EXE));
    const said = [a.out.stderr, b.out.stderr].map((s) =>
      s.includes("already installed") ? "reused" : s.includes("installed:") ? "installed" : s
    ).sort();
    assertEquals(said, ["installed", "reused"]);
  } finally {
    release();
    await mirror.close();
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("install-browser: an install killed mid-download leaves nothing once the next one ran", async () => {
  const mirror = await startCftMirror();
  const cache = await Deno.makeTempDir({ prefix: "browxai-cache-" });
  let release = () => {};
  mirror.hold = new Promise((r) => release = r);
  try {
    const env = { BROWX_BROWSER_CACHE: cache, BROWX_BROWSER_MIRROR: mirror.url };
    const a = spawnInstall(env);

    await eventually(() => mirror.archiveRequests === 1, 30_000, "the download under way");
    Deno.kill(a.pid, "SIGKILL");
    await a.done;
    assert(listTree(cache).some((p) => p.startsWith(".tmp-")), "the killed install's temp folder");
    mirror.hold = undefined;
    release();
    const b = spawnInstall(env);
    assertEquals((await b.done).code, 0, b.out.stderr);
    assertEquals(listTree(cache).filter((p) => p.startsWith(".tmp-")), []);
    assertEquals(b.out.stdout.trim(), join(cache, EXE));
  } finally {
    release();
    await mirror.close();
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("a server with no browser installs one on first need, then navigates (MCP)", async () => {
  const mirror = await startCftMirror();
  const cache = await Deno.makeTempDir({ prefix: "browxai-cache-" });
  const pages = await startFixtureServer();
  // The machine's own Chromium is hidden from discovery: only the (empty) cache is searched.
  const env = {
    BROWX_BROWSER_SEARCH: "cache-only",
    BROWX_BROWSER_CACHE: cache,
    BROWX_BROWSER_MIRROR: mirror.url,
    BROWX_BROWSER: "",
    CHROME_PATH: "",
  };
  const off = await startStdio({ env: { ...env, BROWX_NO_DOWNLOAD: "1" } });
  try {
    const r = await off.call("navigate", { url: pages.url("basic.html") });
    assertEquals(r.isError, true);
    assertIncludes(textOf(r), "browxai install-browser");
    assertEquals(mirror.archiveRequests, 0);
  } finally {
    await off.close();
  }
  const mcp = await startStdio({ env });
  try {
    // The call that waits on the download gets MCP progress notifications (it asked: onprogress).
    const progress: { progress: number; total?: number | undefined }[] = [];
    const r = await mcp.client.callTool(
      { name: "navigate", arguments: { url: pages.url("basic.html") } },
      undefined,
      { onprogress: (p) => progress.push(p) },
    ) as ToolResult;
    assertEquals(r.isError ?? false, false, textOf(r));
    assertIncludes(textOf(r), "basic.html");
    assertEquals(mirror.archiveRequests, 1);
    assert(progress.length > 0, "progress notifications");
    // The download's last report, then navigate's own phases continue above it (increasing).
    const downloads = progress.filter((p) =>
      (p as { message?: string }).message?.startsWith("downloading")
    );
    assert(progress.every((p, i) => i === 0 || p.progress > progress[i - 1]!.progress));
    assert(progress.at(-1)!.progress > mirror.archive.length, "navigate's phases after it");
    assertEquals(
      downloads.at(-1),
      {
        progress: mirror.archive.length,
        total: mirror.archive.length,
        message: `downloading chrome-headless-shell ${PINNED_BUILD} (no browser was found)`,
      } as (typeof progress)[number],
    );
    assertIncludes(mcp.stderr(), "browxai: downloading chrome-headless-shell");
    assertIncludes(mcp.stderr(), `using ${join(cache, EXE)}`);
  } finally {
    await mcp.close();
    await pages.close();
    await mirror.close();
    await Deno.remove(cache, { recursive: true });
  }
});
