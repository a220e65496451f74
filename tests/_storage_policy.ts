/**
 * What the storage policy tests share: the refusal they expect, and saved auth states (a file
 * in a stdio server's auth folder, `<workspace>/.auth-states/<name>.json`, as an earlier
 * `auth_save` or another run left it).
 */
import { join } from "node:path";
import { assertEquals } from "./_assert.ts";
import { type McpHarness, textOf, type ToolResult } from "./_mcp.ts";

/** Asserts `r` is a `blocked-by-policy` refusal (`what`: the call, for the message). */
export function assertBlocked(r: ToolResult, what: string): void {
  assertEquals(r.isError, true, `${what}: ${textOf(r)}`);
  assertEquals(
    (r.structuredContent?.error as Record<string, unknown>).code,
    "blocked-by-policy",
    `${what}: ${textOf(r)}`,
  );
}

/** Writes `state` as the saved auth state `name` of `mcp`'s workspace. */
export async function saveAuthState(mcp: McpHarness, name: string, state: unknown): Promise<void> {
  const dir = join(mcp.workspace, ".auth-states");
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(join(dir, `${name}.json`), JSON.stringify(state));
}
