/** `browxai doctor` (issue 16): what browxai would run here, and what to fix. */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { findChromium } from "../cdp/discovery.ts";
import { ROOT } from "./_mcp.ts";
import { join } from "./_paths.ts";

async function doctor(args: string[], env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", join(ROOT, "main.ts"), "doctor", ...args],
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
}

Deno.test("doctor: a usable machine: the Chromium found, its version, every path tried", async () => {
  const ws = await Deno.makeTempDir({ prefix: "browxai-doctor-" });
  try {
    const chromium = findChromium().path;
    const r = await doctor([], {
      BROWX_WORKSPACE: ws,
      BROWX_BROWSER_CACHE: join(ws, "cache"),
      CHROME_PATH: chromium,
    });
    assertEquals(r.code, 0, r.stdout);
    assertIncludes(r.stdout, `ok    deno: Deno ${Deno.version.deno}`);
    assertIncludes(r.stdout, `ok    chromium: ${chromium} (CHROME_PATH): Chromium `);
    assertIncludes(r.stdout, `used    ${chromium} (CHROME_PATH)`);
    assertIncludes(r.stdout, "sandbox: ");
    assertIncludes(r.stdout, "fonts: ");
    assertIncludes(r.stdout, `ok    workspace: ${ws} writable`);
    assertIncludes(r.stdout, "\nusable");
    // No setting printed without its value (a bare "BROWX_NO_DOWNLOAD=" line).
    assertEquals(r.stdout.split("\n").filter((l) => /=\s*$/.test(l)), [], r.stdout);
    const off = await doctor([], {
      BROWX_WORKSPACE: ws,
      BROWX_BROWSER_CACHE: join(ws, "cache"),
      CHROME_PATH: chromium,
      BROWX_NO_DOWNLOAD: "1",
    });
    assertIncludes(off.stdout, "BROWX_NO_DOWNLOAD=1: no browser is installed on first need");
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("doctor: no browser and an unusable workspace: each problem with what to do, exit 1", async () => {
  const ws = await Deno.makeTempDir({ prefix: "browxai-doctor-" });
  try {
    const file = join(ws, "a-file");
    await Deno.writeTextFile(file, "");
    const cache = join(ws, "cache");
    const r = await doctor(["--workspace", join(file, "ws")], {
      BROWX_BROWSER_CACHE: cache,
      BROWX_BROWSER_SEARCH: "cache-only",
      PATH: "/usr/bin:/bin",
    });
    assertEquals(r.code, 1, r.stdout);
    assertIncludes(r.stdout, "fail  chromium: no Chromium or Chrome found");
    assertIncludes(
      r.stdout,
      `skipped ${cache}/chrome-headless-shell/<platform>-<build> (cache: nothing installed`,
    );
    assertIncludes(r.stdout, 'fix: run "browxai install-browser"');
    assertIncludes(r.stdout, `fail  workspace: ${join(file, "ws")} is not writable`);
    assertIncludes(r.stdout, "fix: give a directory browxai may create and write");
    assertIncludes(r.stdout, "2 problem(s)");
    // A named path that does not exist is reported as such, never replaced by another.
    const named = await doctor(["--browser", "/nope/chrome", "--workspace", ws], {});
    assertEquals(named.code, 1);
    assertIncludes(named.stdout, "fail  chromium: /nope/chrome does not exist");
    assertIncludes(named.stdout, "skipped /nope/chrome (flag: not found)");
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});
