/**
 * `--shared-browser-context`: the `default` session that every HTTP client of a browser host
 * shares (one browser context, so one set of cookies and storage, and the same tabs), as the
 * peer's flag does. Made on the first client's first need, kept while the server runs (a client
 * leaving does not close it), made again after its browser crashed.
 *
 * @module
 */
import type { NavGuard } from "../nav_guard/nav_guard.ts";
import type { BrowserHost } from "./browser_host.ts";
import type { BrowserSession } from "./browser_session.ts";
import { WorkspaceAreas } from "./areas.ts";
import { startDownloads } from "./downloads.ts";
import { launchToolError } from "./launch_errors.ts";
import type { SecretSpans } from "./log_text.ts";
import { applySessionDefaults } from "./session_defaults.ts";
import { launchSession, type OpenOptions } from "./session_launch.ts";

/** The host's shared `default` session (see the module doc). */
class SharedDefault {
  #session: Promise<BrowserSession> | undefined;

  /** The live shared session, made by `create` when there is none (or it crashed or closed). */
  async get(create: () => Promise<BrowserSession>): Promise<BrowserSession> {
    const current = this.#session;
    if (current) {
      const s = await current.catch(() => undefined);
      if (s && !s.crashed && !s.closed) return s;
      if (this.#session === current) this.#session = undefined;
    }
    this.#session ??= create();
    const made = this.#session;
    made.catch(() => {
      if (this.#session === made) this.#session = undefined;
    });
    return await made;
  }

  /** True when `session` is the shared one (closing it is not a client's to do). */
  async has(session: BrowserSession): Promise<boolean> {
    return this.#session !== undefined && await this.#session.catch(() => undefined) === session;
  }
}

const shared = new WeakMap<BrowserHost, SharedDefault>();

/** The shared `default` session holder of `host`. */
export function sharedDefaultOf(host: BrowserHost): SharedDefault {
  let s = shared.get(host);
  if (!s) shared.set(host, s = new SharedDefault());
  return s;
}

/**
 * Makes the shared `default` session: launched as `options` say, guarded, given the host's
 * session defaults; no pool slot (it is no client's), its downloads in the workspace's shared
 * folder (a client's own folder goes with the client).
 *
 * @throws ToolError as a session launch does (`launch_errors.ts`).
 */
export async function createSharedDefault(
  options: OpenOptions,
  deps: {
    host: BrowserHost;
    secretSpans: SecretSpans | undefined;
    profileDir: (name: string) => Promise<string>;
    manyClients?: boolean | undefined;
    guard: ((session: BrowserSession) => NavGuard) | undefined;
    workspace: string;
  },
): Promise<BrowserSession> {
  let session: BrowserSession;
  try {
    session = await launchSession("default", options, deps);
  } catch (e) {
    throw launchToolError(e);
  }
  session.navGuard = deps.guard?.(session);
  try {
    await applySessionDefaults(session, deps.host.defaults, { isDefault: true });
  } catch (e) {
    await session.close().catch(() => {});
    throw e;
  }
  await startDownloads(session, deps.workspace, new WorkspaceAreas({}).downloads);
  return session;
}
