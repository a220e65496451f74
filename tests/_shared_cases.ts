/**
 * Cases of a test file that share one costly fixture: an MCP server and its Chromium (starting
 * both and navigating once costs 2–4 CPU-seconds, about half of the suite's CPU), a fixture
 * site. The cases become the steps of one `Deno.test`, run in the order they were declared;
 * each case isolates itself from the others (a session of its own, or the default session
 * closed after it) where a fresh server would have.
 *
 * @module
 */
import { type McpHarness, type StartOptions, startStdio } from "./_mcp.ts";
import { type FixtureServer, startFixtureServer } from "./fixtures/server.ts";

/** What {@link sharedCases} returns: declares cases, and reads the shared fixture in one. */
export interface SharedCases<S> {
  /** Declares a case (a step named `name`), given the shared fixture and the step's context. */
  test(name: string, fn: (shared: S, t: Deno.TestContext) => Promise<void>): void;
  /** The shared fixture while the cases run; throws outside them. */
  readonly value: S;
}

/**
 * Registers one `Deno.test` named `name` that calls `start` once, runs every case declared
 * with {@link SharedCases.test} as a step (a failing step fails the test; later steps still
 * run) followed by `after` (also after a failure: what isolates the next case), then calls
 * `stop` (also after a failure). Declare the cases at module load, as with `Deno.test`.
 * `deno test --filter` matches `name`, not a case.
 */
export function sharedCases<S>(
  name: string,
  start: () => Promise<S>,
  stop: (shared: S) => Promise<void>,
  after?: (shared: S) => Promise<void>,
): SharedCases<S> {
  const cases: Array<{ name: string; fn: (shared: S, t: Deno.TestContext) => Promise<void> }> = [];
  let current: { value: S } | undefined;
  Deno.test(name, async (t) => {
    const value = await start();
    current = { value };
    try {
      for (const c of cases) {
        await t.step(c.name, async (step) => {
          try {
            await c.fn(value, step);
          } finally {
            await after?.(value);
          }
        });
      }
    } finally {
      current = undefined;
      await stop(value);
    }
  });
  return {
    test(caseName, fn) {
      cases.push({ name: caseName, fn });
    },
    get value(): S {
      if (!current) throw new Error(`${name}: the shared fixture is used outside its cases`);
      return current.value;
    },
  };
}

/** A fixture site and one MCP server (stdio) shared by the cases of a file. */
export interface SiteAndServer {
  fx: FixtureServer;
  mcp: McpHarness;
}

/**
 * Closes every session `mcp`'s client has open (the default one too): a case after it starts
 * with no session, as on a fresh server. Needs the `sessions` toolset.
 */
export async function closeAllSessions(mcp: McpHarness): Promise<void> {
  const listed = await mcp.ok("list_sessions");
  for (const s of listed.sessions as Array<{ session: string }>) {
    await mcp.ok("close_session", { session: s.session });
  }
}

/** {@link SharedCases} over a {@link SiteAndServer}, with a page opener for a case. */
export interface SiteCases extends SharedCases<SiteAndServer> {
  /**
   * Navigates the default session to the site's `page` and calls `fn` with the page's
   * snapshot tree.
   */
  withPage(
    page: string,
    fn: (mcp: McpHarness, tree: string, fx: FixtureServer) => Promise<void>,
  ): Promise<void>;
}

/**
 * Cases (see {@link sharedCases}) sharing one fixture site and one stdio server started with
 * `options` (its toolsets must include `sessions`). After each case every session of the
 * server is closed ({@link closeAllSessions}: contexts, tabs and storage go), so each case
 * starts as on a fresh server.
 */
export function sharedSiteCases(name: string, options: StartOptions): SiteCases {
  const cases = sharedCases(
    name,
    async () => ({ fx: await startFixtureServer(), mcp: await startStdio(options) }),
    async ({ fx, mcp }) => {
      await mcp.close();
      await fx.close();
    },
    ({ mcp }) => closeAllSessions(mcp),
  );
  return {
    test: cases.test,
    get value() {
      return cases.value;
    },
    async withPage(page, fn) {
      const { fx, mcp } = cases.value;
      await mcp.ok("navigate", { url: fx.url(page), snapshot: "none" });
      const tree = String((await mcp.ok("snapshot")).tree);
      await fn(mcp, tree, fx);
    },
  };
}

/**
 * Cases (see {@link sharedCases}) sharing one stdio server started with `options` (its
 * toolsets must include `sessions`, as the default ones do); after each case every session is
 * closed ({@link closeAllSessions}), so each case starts as on a fresh server.
 */
export function sharedServerCases(
  name: string,
  options: StartOptions = {},
): SharedCases<McpHarness> {
  return sharedCases(name, () => startStdio(options), (mcp) => mcp.close(), closeAllSessions);
}
