/**
 * The scope of one tool call, for session locks that must span more than one
 * step: once a call asked a human about a session, it holds that session
 * until it ends, so what the human approved is what runs (another call
 * cannot move the tab or change the form in between).
 *
 * Uses `AsyncLocalStorage` (node:async_hooks): the scope follows the call's
 * async work without being passed around.
 *
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { AuditTarget } from "../../policy/audit.ts";

/** A session a call used, told how the call failed (so it knows what the agent heard). */
export interface UsedSession {
  /** The session's name. */
  readonly id: string;
  /** Aborted when the session is closed (`close_session`, the client going away). */
  readonly closedSignal: AbortSignal;
  callFailed(error: unknown): void;
}

/** What a call holds. */
export interface CallScope {
  /** Session locks this call holds (by session object). */
  readonly held: Set<object>;
  /** Releases of locks taken with `hold`, run when the call ends. */
  readonly releases: Array<() => void>;
  /** Sessions the call looked up or opened. */
  readonly used: Set<UsedSession>;
  /**
   * The call's signal (the client's cancel and the call's budget): a call that waited for a
   * session's turn and was cancelled meanwhile never acts when its turn comes.
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * Sessions (by id) whose turn the call is waiting for right now: a call whose budget runs
   * out there was kept waiting by another call, not by the page.
   */
  readonly waitingFor: Set<string>;
  /**
   * Told when a session the call used is closed by someone else while the call runs (another
   * call's `close_session`, the client going away): the call can end at once, saying so,
   * instead of failing later on a browser context that is gone.
   */
  readonly sessionClosed?: ((session: UsedSession) => void) | undefined;
  /**
   * The MCP client making the call (a token: its session manager): what is whole-browser (the
   * clipboard) is kept apart between clients of one Chromium (`shared_clipboard.ts`).
   */
  readonly client?: object | undefined;
  /**
   * What the call acted on, as resolved (the element's role, name, frame origin): written by
   * the action runner, read by the audit (`target` on the call's line).
   */
  readonly acted: { target?: AuditTarget };
}

const storage = new AsyncLocalStorage<CallScope>();

/**
 * Runs `fn` as one call: locks it takes with a session's `holdForCall` are
 * released after; when it fails, the sessions it used hear the error.
 */
export async function inCallScope<T>(
  fn: () => Promise<T>,
  options: { signal?: AbortSignal | undefined; scope?: CallScope } = {},
): Promise<T> {
  const scope: CallScope = options.scope ?? newCallScope(options.signal);
  try {
    return await storage.run(scope, fn);
  } catch (e) {
    for (const s of scope.used) s.callFailed(e);
    throw e;
  } finally {
    for (const release of scope.releases.splice(0)) release();
  }
}

/**
 * A fresh scope for one call (`signal`: the call's signal; `sessionClosed` and `client`: see
 * {@link CallScope.sessionClosed}, {@link CallScope.client}; `acted`: the holder the audit reads,
 * {@link CallScope.acted}).
 */
export function newCallScope(
  signal?: AbortSignal,
  sessionClosed?: (session: UsedSession) => void,
  options: { client?: object | undefined; acted?: { target?: AuditTarget } } = {},
): CallScope {
  return {
    held: new Set(),
    releases: [],
    used: new Set(),
    signal,
    waitingFor: new Set(),
    sessionClosed,
    client: options.client,
    acted: options.acted ?? {},
  };
}

/** Records what the current call acted on, for its audit line ({@link CallScope.acted}). */
export function noteActedTarget(target: AuditTarget): void {
  const scope = currentCallScope();
  if (scope) scope.acted.target = target;
}

/**
 * Counts `session` as used by the current call (if any): it hears how the call failed, and
 * the call hears of the session's close while it runs ({@link CallScope.sessionClosed}) —
 * unless the call closes it itself (a failed set-up of `open_session`): the close runs in that
 * call's own scope then.
 */
export function useSession(session: UsedSession): void {
  const scope = currentCallScope();
  if (!scope || scope.used.has(session)) return;
  scope.used.add(session);
  const notify = scope.sessionClosed;
  if (!notify) return;
  // Dispatched synchronously inside close(): the current scope is the closing call's.
  const onClose = () => {
    if (currentCallScope() !== scope) notify(session);
  };
  session.closedSignal.addEventListener("abort", onClose, { once: true });
  scope.releases.push(() => session.closedSignal.removeEventListener("abort", onClose));
}

/** The current call's scope, when running inside {@link inCallScope}. */
export function currentCallScope(): CallScope | undefined {
  return storage.getStore();
}
