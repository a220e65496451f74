/**
 * Issue 16, "Beyond one machine", for real on loopback: three browxai `--http` instances behind
 * Debian's HAProxy running deploy/haproxy.cfg (only its `bind` line, server lines and error file
 * path replaced). Each instance gets `BROWX_TEST_HAPROXY_CLIENTS` MCP clients (default 4)
 * through HAProxy; every client runs a short TodoMVC flow (open the app, add two todos, toggle
 * one, check the page). Every call of a client must land on one instance (its audit log names
 * the client's MCP session), with zero errors. Then one instance is stopped: each of its clients
 * gets a clear error on its next call, the others are untouched.
 *
 * 4 clients per instance, 6 flows at once (`BROWX_TEST_HAPROXY_AT_ONCE`) already put several
 * clients on every instance, running interleaved, which is what affinity is about. The issue's
 * figure (30 per instance, 90 clients: ~4 min of the suite on 2 cores) is one variable away:
 * `BROWX_TEST_HAPROXY_CLIENTS=30 BROWX_TEST_HAPROXY_AT_ONCE=15 deno test -A tests/haproxy_test.ts`.
 *
 * Needs `haproxy` (`.ci/run` installs Debian's package); when it is missing and cannot be
 * installed here (not root, no apt-get), the test is skipped with a message saying so.
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { clientOptions, type HttpProcess, ROOT, startHttp, type ToolResult } from "./_mcp.ts";
import { eventually, refOf } from "./_util.ts";
import { join } from "./_paths.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { sample } from "./_metrics.ts";

/** Finds haproxy, installing Debian's package when it is missing and this process may. */
function haproxyPath(): string | undefined {
  const which = () => {
    const out = new Deno.Command("sh", { args: ["-c", "command -v haproxy"], stdout: "piped" })
      .outputSync();
    return out.success ? new TextDecoder().decode(out.stdout).trim() : undefined;
  };
  const found = which();
  if (found) return found;
  if (Deno.uid() !== 0) return undefined;
  const env = { DEBIAN_FRONTEND: "noninteractive", PATH: Deno.env.get("PATH") ?? "" };
  for (const args of [["install", "-y", "--no-install-recommends", "haproxy"], ["update"]]) {
    try {
      new Deno.Command("apt-get", { args, env, stdout: "null", stderr: "null" }).outputSync();
    } catch {
      return undefined; // no apt-get
    }
    if (args[0] === "update") {
      new Deno.Command("apt-get", {
        args: ["install", "-y", "--no-install-recommends", "haproxy"],
        env,
        stdout: "null",
        stderr: "null",
      }).outputSync();
    }
    const now = which();
    if (now) return now;
  }
  return undefined;
}

const HAPROXY = haproxyPath();
if (!HAPROXY) {
  console.error(
    "haproxy_test: SKIPPED: haproxy is not installed and could not be installed here " +
      "(apt-get install haproxy needs root and Debian's package index); .ci/run installs it",
  );
}
/** Clients per instance. */
const PER_INSTANCE = Number(Deno.env.get("BROWX_TEST_HAPROXY_CLIENTS") ?? 4);
/** Flows running at once (all instances together): the machine has 2 cores. */
const AT_ONCE = Number(Deno.env.get("BROWX_TEST_HAPROXY_AT_ONCE") ?? 6);

/** A free loopback TCP port (listened on and closed again). */
function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** deploy/haproxy.cfg for loopback: its bind, server lines and error file replaced. */
export async function renderConfig(port: number, servers: number[]): Promise<string> {
  const cfg = await Deno.readTextFile(join(ROOT, "deploy", "haproxy.cfg"));
  const begin = cfg.indexOf("    # servers begin\n");
  const end = cfg.indexOf("    # servers end\n");
  assertTrue(begin > 0 && end > begin, "deploy/haproxy.cfg lost its server markers");
  const lines = servers.map((p, i) => `    server browxai${i + 1} 127.0.0.1:${p}\n`).join("");
  const out = cfg.slice(0, begin) + lines + cfg.slice(end)
    .replace("    # servers end\n", "");
  const replaced = out
    .replace(/^ {4}bind :8080$/m, `    bind 127.0.0.1:${port}`)
    .replace(
      /^ {4}errorfile 503 \S+$/m,
      `    errorfile 503 ${join(ROOT, "deploy", "503-mcp.http")}`,
    );
  assertTrue(replaced.includes(`bind 127.0.0.1:${port}`), "deploy/haproxy.cfg lost `bind :8080`");
  return replaced;
}

interface Agent {
  client: Client;
  transport: StreamableHTTPClientTransport;
  sessionId: string;
  call(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
}

async function connect(url: string): Promise<Agent> {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: "haproxy-test", version: "0" }, clientOptions());
  await client.connect(transport);
  // The SDK client validates every result's structuredContent against its tool's outputSchema
  // once it holds the list (it caches a validator per tool from tools/list): every call of
  // every test checks its result's shape.
  await client.listTools();
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const r = await client.callTool({ name, arguments: args }) as unknown as ToolResult;
    if (r.isError) throw new Error(`${name}: ${r.content.map((c) => c.text).join("\n")}`);
    return r.structuredContent ?? {};
  };
  return { client, transport, sessionId: transport.sessionId!, call };
}

/**
 * Open the app, add two todos, toggle the first, check the page. Returns the calls made. The
 * calls that act get the largest budget: the test is about affinity, and 15 flows on 2 cores
 * (CI runs other test files beside it) can take longer than the default 10 s for one step.
 */
async function todoFlow(a: Agent, url: string, n: number): Promise<number> {
  const slow = { timeoutMs: 30_000 };
  await a.call("navigate", { url, snapshot: "none", ...slow });
  const first = String((await a.call("snapshot")).tree);
  const input = refOf(first, /textbox "What needs to be done\?"/);
  await a.call("fill", {
    ref: input,
    value: `first ${n}`,
    submit: true,
    snapshot: "none",
    ...slow,
  });
  await a.call("fill", {
    ref: input,
    value: `second ${n}`,
    submit: true,
    snapshot: "none",
    ...slow,
  });
  const listed = String((await a.call("snapshot")).tree);
  const toggles = listed.split("\n").filter((l) =>
    /checkbox/.test(l) && /\[ref=/.test(l) && !/toggle all|mark all/i.test(l)
  );
  assertEquals(toggles.length, 2, listed);
  await a.call("click", {
    ref: /\[ref=(e\d+)\]/.exec(toggles[0]!)![1]!,
    snapshot: "none",
    ...slow,
  });
  const done = String((await a.call("snapshot")).tree);
  assertIncludes(done, `second ${n}`);
  const line = done.split("\n").find((l) =>
    l.includes(`[ref=${/\[ref=(e\d+)\]/.exec(toggles[0]!)![1]}]`)
  );
  assertTrue(/checked/.test(line ?? ""), `the first todo is not checked:\n${done}`);
  await a.call("close_session", { session: "default" });
  return 8;
}

/** Outcome lines per MCP client id in an instance's audit log. */
async function auditedClients(server: HttpProcess): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for await (const f of Deno.readDir(join(server.workspace, "audit"))) {
    const text = await Deno.readTextFile(join(server.workspace, "audit", f.name));
    for (const line of text.split("\n")) {
      if (!line || line.includes('"phase":"start"')) continue;
      const client = (JSON.parse(line) as { client?: string }).client;
      if (client) counts.set(client, (counts.get(client) ?? 0) + 1);
    }
  }
  return counts;
}

Deno.test({
  name: "haproxy: three instances, affinity on Mcp-Session-Id, TodoMVC flows, one stopped",
  ignore: !HAPROXY,
  async fn() {
    const started = performance.now();
    const fx = await startFixtureServer();
    const instances: HttpProcess[] = [];
    let haproxy: Deno.ChildProcess | undefined;
    const agents: Agent[] = [];
    let haproxyLog = "";
    try {
      // Sticky routing is what this checks, not browser isolation: one Chromium per instance
      // (per client, the default, would launch 12 here).
      for (let i = 0; i < 3; i++) {
        instances.push(await startHttp({ env: { BROWX_HTTP_BROWSERS: "shared" } }));
      }
      const ports = instances.map((s) => Number(new URL(s.url).port));
      const port = freePort();
      const dir = await Deno.makeTempDir({ prefix: "browxai-haproxy-" });
      const cfgPath = join(dir, "haproxy.cfg");
      await Deno.writeTextFile(cfgPath, await renderConfig(port, ports));
      // Every instance ready (its first /readyz starts its browser) before HAProxy starts: its
      // health checks then pass from the first one. A check timing out while a browser starts
      // (loaded machine) can take a server down and back up through `slowstart`, and round robin
      // then hands out unequal numbers of clients: the likely cause of a loaded full-suite run's
      // "clients per instance 9 !== 4" (not confirmed: that run's HAProxy log was not kept).
      for (const s of instances) {
        await eventually(
          async () => (await fetch(new URL("/readyz", s.url))).status === 200,
          30_000,
        );
      }
      const check = await new Deno.Command(HAPROXY!, { args: ["-c", "-f", cfgPath] }).output();
      assertTrue(check.success, new TextDecoder().decode(check.stderr));
      haproxy = new Deno.Command(HAPROXY!, {
        args: ["-db", "-f", cfgPath],
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      // Its log (errors, servers going down): shown when the test fails.
      for (const stream of [haproxy.stdout, haproxy.stderr]) {
        stream.pipeThrough(new TextDecoderStream()).pipeTo(
          new WritableStream({ write: (t) => void (haproxyLog += t) }),
        ).catch(() => {});
      }
      const url = `http://127.0.0.1:${port}/mcp`;
      // HAProxy listening.
      await eventually(
        async () => {
          const r = await fetch(`http://127.0.0.1:${port}/nothing`);
          await r.body?.cancel();
          return r.status === 404;
        },
        10_000,
        "HAProxy to listen",
      );

      // Clients connect one after the other: round robin hands each instance the same number.
      for (let i = 0; i < 3 * PER_INSTANCE; i++) agents.push(await connect(url));
      for (const s of instances) {
        const m = await (await fetch(new URL("/metrics", s.url))).text();
        assertEquals(sample(m, "browxai_mcp_clients"), PER_INSTANCE, "clients per instance");
      }
      const connected = performance.now();

      const app = fx.url("todomvc/examples/vanillajs/");
      const calls = new Map<string, number>();
      let next = 0;
      const worker = async () => {
        while (next < agents.length) {
          const i = next++;
          const a = agents[i]!;
          calls.set(a.sessionId, await todoFlow(a, app, i));
        }
      };
      await Promise.all(Array.from({ length: AT_ONCE }, worker));
      const flowed = performance.now();

      // Every client's calls on exactly one instance, all of them.
      const audits = await Promise.all(instances.map(auditedClients));
      const home = new Map<string, number>();
      for (const a of agents) {
        const where = audits.flatMap((m, i) => m.has(a.sessionId) ? [i] : []);
        assertEquals(where.length, 1, `client ${a.sessionId} is audited on instances ${where}`);
        assertEquals(audits[where[0]!]!.get(a.sessionId), calls.get(a.sessionId));
        home.set(a.sessionId, where[0]!);
      }
      for (const [i, s] of instances.entries()) {
        const m = await (await fetch(new URL("/metrics", s.url))).text();
        assertEquals(
          sample(m, "browxai_calls_total", { tool: "click", outcome: "ok" }),
          PER_INSTANCE,
        );
        assertEquals(
          [...home.values()].filter((h) => h === i).length,
          PER_INSTANCE,
          `clients at instance ${i}`,
        );
      }

      // One instance stops: its clients hear a clear error on their next call, the rest go on.
      const stopped = instances[0]!;
      stopped.child.kill("SIGTERM");
      assertEquals((await stopped.child.status).code, 0);
      for (const a of agents) {
        if (home.get(a.sessionId) === 0) {
          const e = await a.call("list_sessions").then(() => undefined, (e: Error) => e);
          assertTrue(e !== undefined, "a call of a stopped instance's client succeeded");
          assertTrue(
            /initialize again \(.*instance that held it|No browxai instance is available/
              .test(e!.message),
            `not a clear error: ${e!.message}`,
          );
        } else {
          assertEquals((await a.call("list_sessions")).count, 0);
        }
      }
      console.error(
        `haproxy_test: ${agents.length} clients (${PER_INSTANCE} per instance, ${AT_ONCE} flows ` +
          `at once): start+connect ${((connected - started) / 1000).toFixed(1)} s, flows ${
            ((flowed - connected) / 1000).toFixed(1)
          } s, total ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    } catch (e) {
      console.error(`haproxy log (last 4000 characters):\n${haproxyLog.slice(-4000)}`);
      throw e;
    } finally {
      await Promise.all(agents.map((a) => a.client.close().catch(() => {})));
      try {
        haproxy?.kill("SIGTERM");
      } catch { /* gone */ }
      await haproxy?.status;
      await Promise.all(instances.map((s) => s.close()));
      await fx.close();
    }
  },
});
