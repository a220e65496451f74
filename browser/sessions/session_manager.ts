/**
 * The browxai sessions of one MCP client: open, look up (creating `default`
 * on first use), list, close. Sessions of one client are invisible to another,
 * and so are its files (see `areas.ts`). The errors it tells are in
 * `session_errors.ts`.
 *
 * @module
 */
import type { NavGuard } from "../nav_guard/nav_guard.ts";
import type { InstallProgress } from "../../cdp/install_browser.ts";
import {
  clientClosing,
  invalidSessionName,
  notOpenForArtifacts,
  profileRefused,
  sessionExists,
  unknownSession,
} from "./session_errors.ts";
import { launchToolError } from "./launch_errors.ts";
import type { BrowserHost } from "./browser_host.ts";
import type { BrowserSession } from "./browser_session.ts";
import { launchSession, type OpenOptions } from "./session_launch.ts";
import { ArtifactStore } from "../../storage/artifacts.ts";
import { PathGuardError } from "../../policy/path_guard.ts";
import { safeMkdir, safeRemove } from "../../storage/safe_fs.ts";
import { WorkspaceAreas } from "./areas.ts";
import { startDownloads, stopDownloads } from "./downloads.ts";
import { currentCallScope, useSession } from "./call_scope.ts";
import { ReapedNames, type SessionPool } from "./session_pool.ts";
import { NameTurns } from "./name_turns.ts";
import { removeUploadCopies } from "./upload_copies.ts";
import type { SecretSpans } from "./log_text.ts";
import { releaseMemorySoon } from "./heap_release.ts";
import { applySessionDefaults } from "./session_defaults.ts";
import { createSharedDefault, sharedDefaultOf } from "./shared_default.ts";

/** Session and profile names: letters, digits, `._-`, 1–64 chars, no leading dot. */
export const SESSION_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/;

export type { OpenOptions };

/**
 * One client's sessions.
 *
 * Opening, closing and (re)creating a session happen one at a time per
 * name (`name_turns.ts`), in the order they were asked for: a close waits for an open still
 * under way (and its set-up), a second open of a name hears `session-exists`
 * once the first succeeded, a lookup of a name being opened waits for it.
 * Different names never wait for each other.
 */
export class SessionManager {
  #host: BrowserHost;
  #workspace: string;
  #sessions = new Map<string, BrowserSession>();
  /** Per name: its queue of opens, closes and re-creations. */
  readonly #turns = new NameTurns();
  /** Set by {@link closeAll}: this client is going away, nothing new opens. */
  #closing = false;
  /** Told each session that closed or was replaced ({@link onClosed}). */
  #closedListeners = new Set<(id: string) => void>();

  /** The server-wide limits (max sessions, idle reaping); absent: none. */
  #pool: SessionPool | undefined;
  /** Names the pool reaped, with why: the next call on the name hears it once. */
  readonly #gone = new ReapedNames();
  #guard: ((session: BrowserSession) => NavGuard) | undefined;
  #secretSpans: SecretSpans | undefined;
  /** Where this client's artifacts, auth states, dumps and profiles live. */
  readonly areas: WorkspaceAreas;

  /**
   * Listens to the download progress of a browser install the host runs (the first launch
   * on a machine without a browser); a call waiting on it shows it to its client. Returns the
   * unsubscribe function.
   */
  onInstallProgress(listener: (p: InstallProgress) => void): () => void {
    return this.#host.onInstallProgress(listener);
  }

  /**
   * @param options.guard Makes the navigation guard of each new session (policy).
   * @param options.namespace An HTTP client's own namespace (letters, digits, `_-`): its
   *   artifacts, auth states, dumps and profiles live in `.clients/<namespace>/`, removed by
   *   {@link closeAll}. Absent (stdio): the shared locations, artifacts per server instance.
   * @param options.secretSpans Where secrets' values occur in a text (the secret store's
   *   `spans`): each session's logs cut before a value, never inside it.
   * @param options.pool The server-wide session limits (`session_pool.ts`): each open takes a
   *   slot (or waits, or hears `busy`), idle sessions are reaped.
   * @param options.instance The server's claimed instance id (`storage/instances.ts`): it names
   *   a stdio server's artifact folder, so a later start can sweep it once this server is dead.
   */
  constructor(
    host: BrowserHost,
    workspace: string,
    options: {
      guard?: (session: BrowserSession) => NavGuard;
      namespace?: string;
      instance?: string;
      secretSpans?: SecretSpans | undefined;
      pool?: SessionPool | undefined;
    } = {},
  ) {
    this.#pool = options.pool;
    this.#host = host;
    this.#workspace = workspace;
    this.#guard = options.guard;
    this.#secretSpans = options.secretSpans;
    this.areas = new WorkspaceAreas({
      namespace: options.namespace,
      ...(options.instance ? { instance: options.instance } : {}),
    });
  }

  /** The workspace root. */
  get workspace(): string {
    return this.#workspace;
  }

  /** Validates a session name. @throws ToolError invalid-argument */
  static checkName(name: string): void {
    if (!SESSION_NAME.test(name)) {
      throw invalidSessionName(name);
    }
  }

  /**
   * Calls `listener(id)` after each session of this client closes (close_session, a
   * re-creation after a crash, the client going away): what the session earned (its
   * approvals) goes with it. Returns the remover.
   */
  onClosed(listener: (id: string) => void): () => void {
    this.#closedListeners.add(listener);
    return () => this.#closedListeners.delete(listener);
  }

  #closedNow(id: string): void {
    for (const l of this.#closedListeners) {
      try {
        l(id);
      } catch (e) {
        console.error("browxai: a session-closed listener failed:", e);
      }
    }
  }

  /**
   * Counts `session` as used by the current tool call: it hears how the call failed, and the
   * call hears of its close (see `useSession`).
   */
  #used(session: BrowserSession): BrowserSession {
    const scope = currentCallScope();
    if (this.#pool && scope && !scope.used.has(session)) {
      // In use until the call ends: the reaper never closes a session under a call.
      const pool = this.#pool;
      pool.begin(session);
      scope.releases.push(() => pool.end(session));
    }
    useSession(session);
    return session;
  }

  /**
   * The named session; `default` is created (incognito) on first use and
   * after its browser crashed. A crash is reported once: by this lookup,
   * unless a call already reported it (the call it broke).
   *
   * @throws ToolError unknown-session, browser-crashed
   */
  async get(name = "default"): Promise<BrowserSession> {
    SessionManager.checkName(name);
    const live = this.#sessions.get(name);
    if (live && !live.crashed && !this.#turns.has(name)) return this.#used(live);
    return await this.#turns.run(name, async () => {
      const s = this.#sessions.get(name);
      if (s?.crashed) {
        // Forget the session so it can be reopened; say so unless the agent heard it already.
        this.#sessions.delete(name);
        await this.#closeSession(s);
        if (!s.crashReported) s.ensureAlive();
      } else if (s) return this.#used(s);
      this.#gone.tell(name);
      if (name === "default" && this.#sharesDefault) {
        const shared = await sharedDefaultOf(this.#host).get(() =>
          createSharedDefault(this.#defaultOptions(), {
            host: this.#host,
            secretSpans: this.#secretSpans,
            profileDir: (n) => this.#profileDir(n),
            manyClients: this.#manyClients,
            guard: this.#guard,
            workspace: this.#workspace,
          })
        );
        this.#sessions.set(name, shared);
        return this.#used(shared);
      }
      if (name === "default") return this.#used(await this.#create(name, this.#defaultOptions()));
      throw unknownSession(name, [...this.#sessions.keys()]);
    });
  }

  /** The sessions, in opening order. */
  list(): BrowserSession[] {
    return [...this.#sessions.values()];
  }

  /**
   * Opens a session, then runs `setUp` on it (seeding, the first URL) in the
   * same turn: a close asked for meanwhile waits for both. When `setUp`
   * fails, the session is closed again and the error passed on. `prepare`
   * runs first in the turn (reading a seed file): the turn is taken at once,
   * so a call on `name` sent right after this open waits for it instead of
   * hearing `unknown-session`.
   *
   * @throws ToolError session-exists, invalid-argument, browser-unavailable, refused
   */
  open(
    name: string,
    options: OpenOptions,
    setUp?: (session: BrowserSession) => Promise<void>,
    prepare?: () => Promise<void>,
  ): Promise<BrowserSession> {
    SessionManager.checkName(name);
    return this.#turns.run(name, async () => {
      await prepare?.();
      const existing = this.#sessions.get(name);
      if (existing && !existing.crashed) {
        throw sessionExists(name, existing.mode);
      }
      this.#gone.delete(name);
      const session = this.#used(await this.#create(name, options));
      try {
        await setUp?.(session);
      } catch (e) {
        // A failed set-up (a refused first URL) leaves no half-made session behind.
        await this.#closeNow(name).catch(() => {});
        throw e;
      }
      return session;
    });
  }

  /**
   * This is an HTTP client whose host's shared browser serves the other clients too (not a
   * Chromium per client): see `BrowserSession.sharedWithClients`.
   */
  get #manyClients(): boolean {
    return this.areas.namespace !== undefined && !this.#host.perClient;
  }

  /** An HTTP client's `default` is the host's shared one (`--shared-browser-context`). */
  get #sharesDefault(): boolean {
    return this.areas.namespace !== undefined && this.#host.defaults.sharedContext === true;
  }

  /** True when `s` is the host's shared `default` session, still alive. */
  async #isShared(s: BrowserSession): Promise<boolean> {
    return this.#sharesDefault && !s.crashed && await sharedDefaultOf(this.#host).has(s);
  }

  /** How `default` opens on first use: incognito, or persistent on `--user-data-dir`. */
  #defaultOptions(): OpenOptions {
    const dir = this.#host.defaults.userDataDir;
    return dir ? { mode: "persistent", profileDir: dir } : { mode: "incognito" };
  }

  async #create(name: string, options: OpenOptions): Promise<BrowserSession> {
    if (this.#closing) {
      throw clientClosing(name);
    }
    const old = this.#sessions.get(name);
    if (old) {
      this.#sessions.delete(name);
      await this.#closeSession(old);
    }
    // A slot first (or a wait in the queue within the call's budget, or `busy`).
    const release = await this.#pool?.acquire(currentCallScope()?.signal);
    let session: BrowserSession;
    try {
      session = await launchSession(name, options, {
        host: this.#host,
        secretSpans: this.#secretSpans,
        profileDir: (n) => this.#profileDir(n),
        manyClients: this.#manyClients,
      });
    } catch (e) {
      release?.();
      throw launchToolError(e);
    }
    if (release) this.#pool!.track(session, release, (why) => this.#reap(name, session, why));
    session.navGuard = this.#guard?.(session);
    try {
      const warnings = await applySessionDefaults(session, this.#host.defaults, {
        isDefault: name === "default",
      });
      for (const w of warnings) console.error(`browxai: session "${name}": ${w}`);
    } catch (e) {
      await this.#closeSession(session).catch(() => {});
      throw e;
    }
    // Before the agent's first action: undeclared downloads are denied from the start.
    await startDownloads(session, this.#workspace, this.areas.downloads);
    this.#sessions.set(name, session);
    return session;
  }

  /**
   * A profile's folder, made (0700) through the path guard: a real folder in the workspace,
   * never a link (Chromium would write wherever it led).
   */
  async #profileDir(name: string): Promise<string> {
    try {
      return await safeMkdir({ workspace: this.#workspace }, this.areas.profile(name));
    } catch (e) {
      if (!(e instanceof PathGuardError)) throw e;
      throw profileRefused(name, e.message);
    }
  }

  /** Closes `s` and gives its pool slot back; the shared `default` is only let go of. */
  async #closeSession(s: BrowserSession): Promise<void> {
    try {
      if (await this.#isShared(s)) return;
      await s.close();
    } finally {
      this.#pool?.untrack(s);
      this.#closedNow(s.id);
    }
  }

  /** The pool found `session` idle: close it; the next call on `name` hears why, once. */
  #reap(name: string, session: BrowserSession, reason: string): void {
    if (this.#sessions.get(name) !== session || this.#closing) return;
    this.#gone.set(name, reason);
    this.close(name).catch(() => {});
  }

  /**
   * Closes a session, after any open of it still under way; idempotent.
   * Returns whether it was running.
   */
  close(name: string): Promise<boolean> {
    return this.#turns.run(name, () => this.#closeNow(name));
  }

  async #closeNow(name: string): Promise<boolean> {
    const s = this.#sessions.get(name);
    let wasRunning = false;
    if (s) {
      this.#sessions.delete(name);
      wasRunning = !s.crashed;
      if (await this.#isShared(s)) {
        // The other clients keep using it: this client only lets go.
        this.#closedNow(s.id);
      } else {
        await stopDownloads(s);
        // Before close, which drops the session's slots (the copies' folder is one).
        await removeUploadCopies(s);
        await this.#closeSession(s);
        releaseMemorySoon();
      }
    }
    // Artifacts live as long as their session; wiped even when it was not running (the
    // `default` session's may have been saved before its first use).
    await new ArtifactStore(this.#workspace, this.areas.artifacts(name)).wipe();
    return wasRunning;
  }

  /**
   * Runs `fn` in `name`'s turn (after an open under way, before a close asked for later), when
   * the session is open or is `default` (made on first use): what `fn` writes for the session
   * (artifacts) is then wiped by its close, never left behind it.
   *
   * @throws ToolError unknown-session for a name that is not open
   */
  whileOpen<T>(name: string, fn: () => Promise<T>): Promise<T> {
    SessionManager.checkName(name);
    return this.#turns.run(name, () => {
      if (!this.#sessions.has(name)) this.#gone.tell(name);
      if (name !== "default" && !this.#sessions.has(name)) {
        throw notOpenForArtifacts(name);
      }
      return fn();
    });
  }

  /**
   * Closes every session of this client, and removes what only it could reach: a stdio
   * server's artifact folder; an HTTP client's whole area (artifacts, auth states, dumps,
   * profiles). Opens still under way are waited for and what they opened is closed (a
   * persistent browser launched meanwhile would otherwise run on with no owner); opens
   * asked for later are refused.
   */
  async closeAll(): Promise<void> {
    this.#closing = true;
    const names = new Set([...this.#sessions.keys(), ...this.#turns.names()]);
    await Promise.all([...names].map((n) => this.close(n).catch(() => {})));
    const area = this.areas.namespace === undefined ? this.areas.artifactsRoot : this.areas.own;
    await safeRemove({ workspace: this.#workspace }, area, { recursive: true }).catch((e) =>
      console.error(`browxai: could not remove ${area}:`, e)
    );
  }
}
