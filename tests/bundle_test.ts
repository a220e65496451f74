/**
 * The one-file bundle (issue 16, "Download and run"): `deno task bundle` builds
 * dist/browxai.js, which answers --version and serves MCP over stdio
 * (initialize, tools/list, a navigate) run by `deno run -A dist/browxai.js`;
 * and static files (ui/) are found beside dist/ from a bundle.
 */
import { assertEquals } from "./_assert.ts";
import { ROOT } from "./_mcp.ts";
import { join } from "./_paths.ts";
import { runSmoke } from "../scripts/smoke.ts";

Deno.test("bundle: dist/browxai.js answers --version and MCP over stdio (initialize, tools/list, navigate)", async () => {
  // `deno task bundle`'s own command, into a temp folder: tests/npm_package_test.ts (its
  // prepack) writes dist/browxai.js and may run at the same time.
  const task: string = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json"))).tasks.bundle;
  assertEquals(
    task.startsWith("deno bundle ") && task.includes(" -o dist/browxai.js "),
    true,
    task,
  );
  const tmp = await Deno.makeTempDir({ prefix: "browxai-bundle-" });
  try {
    const out = join(tmp, "dist", "browxai.js");
    const args = task.replace(/^deno /, "").replace(" -o dist/browxai.js ", ` -o ${out} `).split(
      " ",
    );
    const build = await new Deno.Command(Deno.execPath(), {
      args,
      cwd: ROOT,
      stdout: "null",
      stderr: "piped",
    }).output();
    assertEquals(build.success, true, new TextDecoder().decode(build.stderr));
    const report = await runSmoke([Deno.execPath(), "run", "-A", out]);
    assertEquals(report.version.startsWith("browxai "), true, report.version);
    assertEquals(report.tools > 10, true, `tools/list: ${report.tools}`);
    assertEquals(report.navigated, true, report.text);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("static root: ui/ is found beside dist/ from a bundle, and beside mcp/ from a clone", async () => {
  const pkg = await Deno.makeTempDir({ prefix: "browxai-static-" });
  try {
    await Deno.mkdir(join(pkg, "ui"));
    await Deno.writeTextFile(join(pkg, "ui", "probe.txt"), "from the package");
    const out = join(pkg, "dist", "probe.js");
    const b = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--platform",
        "deno",
        "-o",
        out,
        join(ROOT, "tests/fixtures/static_probe.ts"),
      ],
      stdout: "null",
      stderr: "piped",
    }).output();
    assertEquals(b.success, true, new TextDecoder().decode(b.stderr));
    const run = async (args: string[]) => {
      const r = await new Deno.Command(Deno.execPath(), { args, stdout: "piped", stderr: "piped" })
        .output();
      return JSON.parse(new TextDecoder().decode(r.stdout));
    };
    const bundled = await run(["run", "-A", out]);
    assertEquals(bundled.text, "from the package");
    // From the clone: the repo root (which holds ui/ once the console is merged).
    const clone = await run([
      "run",
      "-A",
      join(ROOT, "tests/fixtures/static_probe.ts"),
      "deno.json",
    ]);
    assertEquals(clone.root, new URL(`file://${ROOT}/`).href);
    assertEquals(typeof clone.text, "string");
  } finally {
    await Deno.remove(pkg, { recursive: true });
  }
});
