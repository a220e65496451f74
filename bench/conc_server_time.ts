/**
 * Where a concurrent call's time goes: the bench's 20-session TodoMVC flow on one browxai
 * server (one stdio connection), then each session's first snapshot as the client saw it
 * against the server's own duration of that call (the audit log's `durationMs`). A large gap
 * is time outside the handler: the transport, or the client.
 *
 * ```
 * deno run -A bench/conc_server_time.ts [--sessions 20]
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { startServer } from "./clients.ts";
import { navigate, todoFlow } from "./flows.ts";
import { startPageServer } from "./page_server.ts";
import { ensureTodoMvc } from "../tests/fixtures/todomvc.ts";
import { findChromium } from "../cdp/discovery.ts";

const { values } = parseArgs({ args: Deno.args, options: { sessions: { type: "string" } } });
const sessions = Number(values.sessions ?? 20);
const ps = startPageServer({ todomvcDir: await ensureTodoMvc() });
const apps = ["react", "vue", "vanillajs"].map((a) => ps.url(`/todomvc/examples/${a}/`));
const workspace = await Deno.makeTempDir({ prefix: "browxai-conc-time-" });
const s = await startServer({
  kind: "browxai",
  chromium: findChromium().path,
  env: { BROWX_WORKSPACE: workspace },
});
await navigate(s, "browxai", ps.url("/gen/small.html"));
const flows = await Promise.all(
  Array.from(
    { length: sessions },
    (_, i) =>
      todoFlow(s, "browxai", apps[i % apps.length]!, { session: `s${i}`, todo: `Todo ${i}` }),
  ),
);
await s.close();
const first = new Map<string, number>();
for await (const e of Deno.readDir(`${workspace}/audit`)) {
  for (const line of (await Deno.readTextFile(`${workspace}/audit/${e.name}`)).split("\n")) {
    if (!line) continue;
    const l = JSON.parse(line) as { tool?: string; session?: string; durationMs?: number };
    if (l.tool === "snapshot" && typeof l.durationMs === "number" && l.session) {
      if (!first.has(l.session)) first.set(l.session, l.durationMs);
    }
  }
}
const p50 = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
console.log(
  `${sessions} sessions, first snapshot of each: client p50 ${
    p50(flows.map((f) => f.snapshot.ms)).toFixed(0)
  } ms, server handler p50 ${p50([...first.values()])} ms`,
);
await Deno.remove(workspace, { recursive: true }).catch(() => {});
await ps.close();
