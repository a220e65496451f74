/**
 * The committed console bundle (`ui/dist/console.js`) is what `deno task ui` builds from
 * `ui/src/`: a clean clone, `deno compile --include ui/` and the npm package serve it without a
 * build step, so a stale bundle would ship old code.
 *
 * @module
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { ROOT } from "./_mcp.ts";
import { join } from "./_paths.ts";

Deno.test("ui/dist/console.js is the bundle of ui/src (else: run `deno task ui`)", async () => {
  const config = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  const task: string = config.tasks.ui;
  const out = "ui/dist/console.js";
  assertTrue(task.includes(`-o ${out}`), `the ui task writes ${out}: ${task}`);
  const tmp = await Deno.makeTempFile({ suffix: ".js" });
  try {
    // The task's own command, writing elsewhere.
    const args = task.replace(/^deno /, "").replace(`-o ${out}`, `-o ${tmp}`).split(/\s+/);
    const r = await new Deno.Command(Deno.execPath(), {
      args,
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    })
      .output();
    assertTrue(r.success, `deno ${args.join(" ")} failed: ${new TextDecoder().decode(r.stderr)}`);
    const built = await Deno.readTextFile(tmp);
    const committed = await Deno.readTextFile(join(ROOT, out));
    assertTrue(built.length > 1000, "the bundle is not empty");
    assertEquals(
      committed === built,
      true,
      `${out} is stale: run \`deno task ui\` and commit it`,
    );
  } finally {
    await Deno.remove(tmp).catch(() => {});
  }
});
