/**
 * `flake_check`'s runs and the state they start from: the calls that name no session run in the
 * `default` session, where run 1's cookies and localStorage are run 2's start (a todo app's
 * saved list made runs 2 and 3 fail, and that read as a flake). With `fresh`, each run gets a
 * new incognito session seeded with `default`'s cookies and localStorage as flake_check found
 * them; without, the result says when run 1 changed them.
 *
 * @module
 */
import type { ToolContext } from "../context.ts";
import type { BatchCall } from "./batch.ts";
import { dumpSession, injectSession } from "../../browser/storage/session_state.ts";
import { dumpPolicy } from "../../browser/storage/storage_gate.ts";
import type { StorageState } from "../../storage/storage_state.ts";

/** Batch tools with no `session` argument: they run as they are in a fresh run. */
const SESSIONLESS = new Set(["approve_actions", "list_approvals", "get_config", "list_sessions"]);

/** True when some call runs in `default` (names no session and takes one). */
export function usesDefault(calls: readonly BatchCall[]): boolean {
  return calls.some((c) => !SESSIONLESS.has(c.tool) && c.args?.session === undefined);
}

/**
 * `default`'s cookies and localStorage now (see `dumpSession`: a scratch tab, CDP
 * `Storage.getCookies` and a read of each origin's localStorage), without the origins the
 * policy stops, as `dump_storage_state` leaves them out (`skipped` names them): a fresh run
 * must not carry an off-list bank's cookie into a context of its own.
 */
export async function defaultState(
  ctx: ToolContext,
): Promise<StorageState & { skipped: string[] }> {
  const s = await ctx.sessions.get("default");
  return await dumpSession(s, dumpPolicy(ctx, s));
}

/**
 * Runs `run` with `calls` in a new incognito session (`flake-<id>-<run>`) seeded with `seed`:
 * every call that names no session is sent there. The session is closed afterwards, whatever
 * happened.
 *
 * @throws ToolError from opening the session (browser-unavailable) or seeding it.
 */
export async function inFreshSession<T>(
  ctx: ToolContext,
  calls: readonly BatchCall[],
  options: { seed: StorageState; name: string },
  run: (calls: BatchCall[]) => Promise<T>,
): Promise<T> {
  const { seed, name } = options;
  await ctx.sessions.open(name, { mode: "incognito" }, async (s) => {
    if (seed.cookies.length || seed.origins.length) await injectSession(s, seed, "merge");
  });
  try {
    return await run(
      calls.map((c) =>
        SESSIONLESS.has(c.tool) || c.args?.session !== undefined
          ? c
          : { ...c, args: { ...c.args, session: name } }
      ),
    );
  } finally {
    await ctx.sessions.close(name).catch(() => {});
  }
}

/**
 * What run 1 changed of `default`'s state (`before` → `after`): the origins whose cookies or
 * localStorage differ, as a warning, or undefined when nothing did.
 */
export function carriedOver(before: StorageState, after: StorageState): string | undefined {
  const changed = new Set<string>();
  const cookies = (s: StorageState) =>
    new Map(s.cookies.map((c) => [`${c.domain}\u0000${c.path}\u0000${c.name}`, c.value]));
  const [a, b] = [cookies(before), cookies(after)];
  for (const [k, v] of b) if (a.get(k) !== v) changed.add(k.split("\u0000")[0]!);
  for (const [k] of a) if (!b.has(k)) changed.add(k.split("\u0000")[0]!);
  const stores = (s: StorageState) =>
    new Map(s.origins.map((o) => [
      o.origin,
      JSON.stringify(o.localStorage.map((e) => [e.name, e.value]).sort()),
    ]));
  const [x, y] = [stores(before), stores(after)];
  for (const o of new Set([...x.keys(), ...y.keys()])) {
    if ((x.get(o) ?? "[]") !== (y.get(o) ?? "[]")) changed.add(o);
  }
  if (!changed.size) return undefined;
  const list = [...changed].slice(0, 3).join(", ") + (changed.size > 3 ? ", …" : "");
  return `run 1 changed cookies or localStorage (${list}) and later runs started with it: a failure after run 1 may be that, not a flake; fresh: true starts each run alike`;
}
