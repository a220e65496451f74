/**
 * The code stays clean in CI, not only on a developer's machine: `deno fmt --check` and
 * `deno task lint` (deno lint + the layering check) must pass. The README's test command is what
 * CI runs, so these checks are a test of their own.
 *
 * @module
 */
import { assertTrue } from "./_assert.ts";
import { ROOT } from "./_mcp.ts";

/** Runs `deno <args>` at the repository root; returns its success and output. */
async function deno(args: string[]): Promise<{ ok: boolean; out: string }> {
  const r = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const text = new TextDecoder().decode(r.stdout) + new TextDecoder().decode(r.stderr);
  return { ok: r.success, out: text };
}

Deno.test("code hygiene: deno fmt --check passes", async () => {
  const r = await deno(["fmt", "--check"]);
  assertTrue(r.ok, `deno fmt --check failed (run \`deno task fmt\`):\n${r.out.slice(-3000)}`);
});

Deno.test("code hygiene: deno task lint (lint + layering) passes", async () => {
  const r = await deno(["task", "lint"]);
  assertTrue(r.ok, `deno task lint failed:\n${r.out.slice(-3000)}`);
});
