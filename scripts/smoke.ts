/**
 * The stdio smoke test of a built browxai (the bundle run by Deno, the npm
 * package's `browxai` bin, a `deno compile` binary): `--version`, then over
 * MCP stdio `initialize`, `tools/list` and a `navigate` to a page this script
 * serves on 127.0.0.1. Used by tests/bundle_test.ts, tests/npm_package_test.ts
 * and the release workflow:
 *
 *     deno run -A scripts/smoke.ts dist/browxai-x86_64-unknown-linux-gnu
 *     deno run -A scripts/smoke.ts deno run -A dist/browxai.js
 *
 * Exits 0 and prints a JSON report when every step passed; throws otherwise.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

/** What {@link runSmoke} saw. */
export interface SmokeReport {
  /** `--version`'s output, e.g. `browxai 0.1.0`. */
  version: string;
  /** The server's name and version from `initialize`. */
  server: string;
  /** Number of tools `tools/list` returned. */
  tools: number;
  /** True when `navigate` reached the page (its URL and heading are in the result). */
  navigated: boolean;
  /** The navigate result's text. */
  text: string;
}

const TITLE = "browxai smoke page";

/**
 * Runs the smoke against a command line (the executable and its leading
 * arguments; browxai's own arguments are appended).
 *
 * @param options.env Extra environment for the server (a temp `BROWX_WORKSPACE` is always set).
 * @throws Error naming the step that failed, with the server's stderr.
 */
export async function runSmoke(
  command: string[],
  options: { env?: Record<string, string> } = {},
): Promise<SmokeReport> {
  const [exe, ...pre] = command;
  if (!exe) throw new Error("runSmoke: no command");
  const ws = await Deno.makeTempDir({ prefix: "browxai-smoke-" });
  const env = { ...Deno.env.toObject(), BROWX_WORKSPACE: ws, ...(options.env ?? {}) };
  const ac = new AbortController();
  const page = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen: () => {} },
    () =>
      new Response(`<!doctype html><title>${TITLE}</title><h1>Hello</h1><button>OK</button>`, {
        headers: { "content-type": "text/html; charset=utf-8" },
      }),
  );
  let stderr = "";
  try {
    const v = await new Deno.Command(exe, {
      args: [...pre, "--version"],
      env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const version = new TextDecoder().decode(v.stdout).trim();
    if (!v.success || !version.startsWith("browxai ")) {
      throw new Error(
        `--version failed (${v.code}): ${version} ${new TextDecoder().decode(v.stderr)}`,
      );
    }
    const transport = new StdioClientTransport({ command: exe, args: pre, env, stderr: "pipe" });
    transport.stderr?.on("data", (d: Uint8Array) => stderr += new TextDecoder().decode(d));
    const client = new Client({ name: "browxai-smoke", version: "0.0.0" });
    try {
      await client.connect(transport);
      const info = client.getServerVersion();
      const { tools } = await client.listTools();
      const url = `http://127.0.0.1:${page.addr.port}/`;
      const r = await client.callTool({ name: "navigate", arguments: { url } }) as {
        isError?: boolean;
        content: { type: string; text?: string }[];
      };
      const text = r.content.map((c) => c.text ?? "").join("\n");
      if (r.isError) throw new Error(`navigate failed: ${text}`);
      return {
        version,
        server: `${info?.name} ${info?.version}`,
        tools: tools.length,
        navigated: text.includes("# Hello") && text.includes(url),
        text,
      };
    } finally {
      await client.close().catch(() => {});
    }
  } catch (e) {
    throw new Error(`smoke of ${command.join(" ")}: ${(e as Error).message}\nstderr:\n${stderr}`);
  } finally {
    ac.abort();
    await page.finished;
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const report = await runSmoke(Deno.args);
  console.log(JSON.stringify(report));
  if (!report.navigated || report.tools === 0) Deno.exit(1);
}
