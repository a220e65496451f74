/**
 * Small helpers for end-to-end tests.
 *
 * @module
 */
import { CAPABILITIES } from "../policy/capabilities.ts";

/** The ref on the first snapshot line matching `pattern`; throws with the tree when none. */
export function refOf(tree: string, pattern: RegExp | string): string {
  const re = typeof pattern === "string"
    ? new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    : pattern;
  for (const line of tree.split("\n")) {
    if (!re.test(line)) continue;
    const m = /\[ref=(e\d+)\]/.exec(line);
    if (m) return m[1]!;
  }
  throw new Error(`no line with a ref matches ${re} in:\n${tree}`);
}

/** What {@link eventually} keeps waiting on. */
type Falsy = false | 0 | "" | null | undefined;

/**
 * Waits until `fn` returns a truthy value (polling every 50 ms; a throw counts as not yet),
 * and returns that value; throws after `timeoutMs`, naming `what` and the last value or error.
 */
export async function eventually<T>(
  fn: () => Promise<T | Falsy> | T | Falsy,
  timeoutMs = 5000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await fn();
      if (v) return v as T;
      last = v;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(
    `timed out waiting for ${what}: last ${
      last instanceof Error ? last.message : JSON.stringify(last)
    }`,
  );
}

// The launcher's own process helpers: the tests check what it reaps with the same view.
export { descendantsOf as descendants, running as alive } from "../cdp/launcher.ts";

/** True when something (a file, a folder, a link, even a dangling one) is at `path`. */
export function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The command line of a process, or "". */
export function cmdline(pid: number): string {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/cmdline`).replaceAll("\0", " ");
  } catch {
    return "";
  }
}

/**
 * A server configuration for building `tools/list` offline (toolList): no hooks, the given
 * toolsets and capabilities (default: every capability, so every tool of the toolsets is listed).
 */
export function listConfig(
  toolsets: Set<string> | "all",
  capabilities: readonly string[] = CAPABILITIES,
): never {
  return {
    capabilities: new Set(capabilities),
    confirmRequired: new Set(),
    workspace: "/tmp",
    headful: false,
    version: "test",
    toolsets,
  } as never;
}

/** A loopback server of fixed HTML pages, by path; other paths answer 404. */
export interface PageServer {
  /** `http://127.0.0.1:<port>`. */
  base: string;
  close(): Promise<void>;
}

/** Serves `pages` (path → HTML) on 127.0.0.1; any other path is a 404 ("not found"). */
export function servePages(pages: Record<string, string>): PageServer {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const page = pages[new URL(req.url).pathname];
    return new Response(page ?? "not found", {
      status: page ? 200 : 404,
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  });
  return { base: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}
