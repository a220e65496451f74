/**
 * The npm package (issue 16, "Download and run"), for real: `npm pack` of
 * npm/ (its prepack builds the bundle), `npm install` of the tarball into a
 * temporary prefix (from the npm registry: the `deno` package and its
 * platform binary), then the installed `browxai` bin: --version, a usage
 * error's exit code, MCP initialize + tools/list + navigate over stdio
 * (scripts/smoke.ts), and a SIGTERM passed on to the server.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { ROOT } from "./_mcp.ts";
import { join } from "./_paths.ts";
import { eventually } from "./_util.ts";
import { runSmoke } from "../scripts/smoke.ts";

async function sh(cmd: string, args: string[], cwd: string) {
  const out = await new Deno.Command(cmd, {
    args,
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")} failed (${out.code}):\n${text}`);
  return text;
}

Deno.test("npm package: pack, install into a temp prefix, run browxai (--version, MCP, signals)", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "browxai-npm-" });
  try {
    await sh("npm", ["pack", "--pack-destination", tmp, "--loglevel=error"], join(ROOT, "npm"));
    const pkg = JSON.parse(await Deno.readTextFile(join(ROOT, "npm", "package.json")));
    const tarball = join(tmp, `${pkg.name}-${pkg.version}.tgz`);
    const listing = await sh("tar", ["tzf", tarball], tmp);
    for (const f of ["package/bin/browxai.mjs", "package/dist/browxai.js", "package/README.md"]) {
      assertIncludes(listing, f);
    }
    // The web console's static files ship beside dist/ (mcp/static_root.ts finds them there).
    const hasUi = await Deno.stat(join(ROOT, "ui")).then(() => true, () => false);
    if (hasUi) assertIncludes(listing, "package/ui/");
    const prefix = join(tmp, "prefix");
    await sh("npm", [
      "install",
      "--prefix",
      prefix,
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      tarball,
    ], tmp);
    const bin = join(prefix, "node_modules", ".bin", "browxai");
    const report = await runSmoke([bin]);
    assertEquals(report.version, `browxai ${pkg.version}`);
    assertTrue(report.tools > 10, `tools/list: ${report.tools}`);
    assertTrue(report.navigated, report.text);
    // A usage error's exit code comes through the bin.
    const bad = await new Deno.Command(bin, { args: ["--no-such-flag"], stderr: "piped" }).output();
    assertEquals(bad.code, 2);
    assertIncludes(new TextDecoder().decode(bad.stderr), "Usage: browxai");
    // SIGTERM to the bin reaches the server, which exits 143 after closing up.
    const child = new Deno.Command(bin, {
      env: { BROWX_WORKSPACE: join(tmp, "ws") },
      stdin: "piped",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    let err = "";
    const pump = (async () => {
      const dec = new TextDecoder();
      for await (const c of child.stderr) err += dec.decode(c, { stream: true });
    })();
    await eventually(() => err.includes("MCP on stdio"), 20_000, "the server's start line");
    child.kill("SIGTERM");
    const status = await child.status;
    await pump;
    await child.stdin.close().catch(() => {});
    assertEquals(status.code, 143, err);
    assertIncludes(err, "SIGTERM: exiting");
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
