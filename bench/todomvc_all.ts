/**
 * Every TodoMVC app of the npm `todomvc` package through one flow (`todomvc_flow.ts`: add two,
 * toggle one, filter Active, check after each step) on browxai and on `@playwright/mcp`, both
 * over MCP stdio with the same Chromium. Prints a table (app, browxai, peer: pass, or the step
 * that failed and why) and a summary line, and writes the runs as JSON under `bench/results/`.
 *
 * Apps that cannot work offline are skipped with the reason: no `index.html` (they need a build
 * or their own server), a `<script>` loaded from another host, or no new-todo field rendered
 * on any server (the reason then names the requests browxai saw fail, if any).
 *
 * Run: `deno run -A bench/todomvc_all.ts [--no-peer] [--only react,vue,…] [--open-url]`
 * (`--open-url`: browxai opens each app with `open_session { url }` instead of `navigate`; its
 * result lists no requests, so an app that needs the network shows as failing, not skipped).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { findChromium } from "../cdp/discovery.ts";
import { ensureTodoMvc } from "../tests/fixtures/todomvc.ts";
import { ROOT } from "../tests/_mcp.ts";
import { type BenchServer, type ServerKind, startServer } from "./clients.ts";
import { startPageServer } from "./page_server.ts";
import { ensurePeer } from "./peer.ts";
import { runTodoFlow, type TodoFlowReport } from "./todomvc_flow.ts";

/** One app's row. */
export interface AppRow {
  app: string;
  /** Why the app was skipped (not run, or rendered on no server). */
  skipped?: string;
  runs: Partial<Record<ServerKind, TodoFlowReport>>;
}

const LOOPBACK = /^(https?:)?\/\/(127\.0\.0\.1|localhost)(:\d+)?\//;

/**
 * Why an app cannot run offline from its files alone, or undefined: it has no `index.html`,
 * its `index.html` loads no script, a script from an absolute URL, or a script the package
 * does not hold.
 */
export async function staticSkip(examples: string, app: string): Promise<string | undefined> {
  let html: string;
  try {
    html = await Deno.readTextFile(join(examples, app, "index.html"));
  } catch {
    return "no index.html (needs a build step or its own server)";
  }
  if (!/<script\b/i.test(html)) return "its index.html loads no script (the example was removed)";
  const srcs = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!);
  const remote = srcs.find((s) => /^(https?:)?\/\//.test(s));
  if (!remote) {
    for (const src of srcs) {
      const file = join(examples, app, src.split(/[?#]/)[0]!);
      if (!(await Deno.stat(file).then(() => true, () => false))) {
        return `a script it loads is missing from the package: ${src}`;
      }
    }
    return undefined;
  }
  return LOOPBACK.test(remote)
    ? `loads a script from a dev server: ${remote}`
    : `loads a script from the network: ${remote}`;
}

/** URLs a browxai navigate result lists as failed requests to another host. */
function failedRemote(navigateText: string): string[] {
  const out: string[] = [];
  for (const m of navigateText.matchAll(/"url":"([^"]+)"[^}]*?"(?:failed|errorText)"/g)) {
    if (!/^https?:\/\/127\.0\.0\.1[:/]/.test(m[1]!)) out.push(m[1]!);
  }
  return out;
}

/** The page errors browxai reported on a failed run, as ` (page errors: …)`, or "". */
function pageErrorsOf(r: TodoFlowReport | undefined): string {
  return /\(page errors: .*\)$/.exec(r?.failed?.why ?? "")?.[0].replace(/^/, " ") ?? "";
}

function cell(r: TodoFlowReport | undefined): string {
  if (!r) return "-";
  if (r.ok) {
    const notes = r.steps.flatMap((s) => s.notApplicable ? [s.notApplicable] : []);
    const late = r.steps.filter((s) => s.lateMs !== undefined).map((s) => s.step);
    if (late.length) notes.push(`page late after: ${late.join(", ")}`);
    return notes.length ? `pass (${notes.join("; ")})` : "pass";
  }
  return `FAIL ${r.failed?.step}: ${r.failed?.why ?? "?"}`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      "no-peer": { type: "boolean" },
      only: { type: "string" },
      "open-url": { type: "boolean" },
    },
  });
  const chromium = findChromium().path;
  const root = await ensureTodoMvc();
  const examples = join(root, "examples");
  const only = values.only ? new Set(values.only.split(",").map((s) => s.trim())) : undefined;
  const apps = [...Deno.readDirSync(examples)].filter((e) => e.isDirectory).map((e) => e.name)
    .filter((a) => !only || only.has(a)).sort();
  const kinds: ServerKind[] = ["browxai"];
  let peerCli: string | undefined;
  if (!values["no-peer"]) {
    peerCli = await ensurePeer();
    kinds.push("peer");
  }
  const pages = startPageServer({ todomvcDir: root });
  const servers = new Map<ServerKind, BenchServer>();
  for (const kind of kinds) servers.set(kind, await startServer({ kind, chromium, peerCli }));
  const rows: AppRow[] = [];
  try {
    for (const app of apps) {
      const row: AppRow = { app, runs: {} };
      rows.push(row);
      const skip = await staticSkip(examples, app);
      if (skip) {
        row.skipped = skip;
        console.error(`${app}: skipped, ${skip}`);
        continue;
      }
      const url = pages.url(`/todomvc/examples/${app}/`);
      for (const kind of kinds) {
        const server = servers.get(kind)!;
        const r = await runTodoFlow(server, kind, url, {
          session: `todo-${app}`,
          workDir: server.workDir,
          openWithUrl: values["open-url"] === true,
        });
        // The peer's next navigate starts a fresh isolated context: no state leaks between apps.
        if (kind === "peer") await server.call("browser_close", {});
        row.runs[kind] = r;
        console.error(`${app} ${kind}: ${cell(r)}`);
      }
      // Failing everywhere, with requests to other hosts failing (or nothing rendered): the app
      // needs the network.
      const runs = Object.values(row.runs);
      const failed = failedRemote(row.runs.browxai?.navigateText ?? "");
      if (runs.every((r) => !r.ok) && (failed.length || runs.every((r) => !r.rendered))) {
        row.skipped = failed.length
          ? `needs the network: ${failed.length} request(s) to other hosts failed (${
            failed[0]!.slice(0, 60)
          }…)`
          : "renders no new-todo field offline" + pageErrorsOf(row.runs.browxai);
      }
    }
  } finally {
    for (const s of servers.values()) await s.close();
    await pages.close();
  }
  printTable(rows, kinds);
  const out = join(ROOT, "bench", "results", `todomvc-${new Date().toISOString()}.json`);
  await Deno.mkdir(join(ROOT, "bench", "results"), { recursive: true });
  await Deno.writeTextFile(out, JSON.stringify({ chromium, rows }, null, 2));
  console.log(`runs written to ${out}`);
}

function printTable(rows: AppRow[], kinds: ServerKind[]): void {
  const width = Math.max(...rows.map((r) => r.app.length), 3);
  console.log(`| ${"app".padEnd(width)} | ${kinds.join(" | ")} |`);
  console.log(`| ${"-".repeat(width)} | ${kinds.map(() => "---").join(" | ")} |`);
  for (const r of rows) {
    const cells = r.skipped
      ? kinds.map(() => `skipped: ${r.skipped}`)
      : kinds.map((k) => cell(r.runs[k]));
    console.log(`| ${r.app.padEnd(width)} | ${cells.join(" | ")} |`);
  }
  const ran = rows.filter((r) => !r.skipped);
  const parts = kinds.map((k) => `${k} ${ran.filter((r) => r.runs[k]?.ok).length}/${ran.length}`);
  console.log(
    `summary: ${rows.length} apps, ${rows.length - ran.length} skipped, pass: ${parts.join(", ")}`,
  );
  // Action calls (fill, click) of the runs that passed: what the agent waits per step.
  const median = (k: ServerKind) => {
    const ms = ran.flatMap((r) => r.runs[k]?.ok ? r.runs[k].steps.slice(1) : [])
      .filter((st) => st.ms > 0).map((st) => st.ms).sort((a, b) => a - b);
    return ms.length ? Math.round(ms[Math.floor(ms.length / 2)]!) : NaN;
  };
  console.log(`median action call, ms: ${kinds.map((k) => `${k} ${median(k)}`).join(", ")}`);
  if (kinds.includes("peer")) {
    const gap = ran.filter((r) => r.runs.peer?.ok && !r.runs.browxai?.ok).map((r) => r.app);
    const gap2 = ran.filter((r) => !r.runs.peer?.ok && r.runs.browxai?.ok).map((r) => r.app);
    console.log(`peer passes, browxai fails: ${gap.join(", ") || "none"}`);
    console.log(`browxai passes, peer fails: ${gap2.join(", ") || "none"}`);
  }
}

if (import.meta.main) await main();
