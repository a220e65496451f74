/**
 * One session's turn for tool calls (`BrowserSession.exclusive`,
 * `BrowserSession.holdForCall`): exclusive steps run one after another in
 * the order asked, so two actions never interleave on one session; a call
 * can hold the turn until it ends (before asking a human).
 *
 * @module
 */
import { currentCallScope } from "./call_scope.ts";

/** The turn queue of one session (see the module doc). */
export class SessionTurns {
  /** The session: what a call scope holds (`held`). */
  readonly #owner: object;
  /** The session's id: what a call scope waits for (`waitingFor`). */
  readonly #id: string;
  #queue: Promise<unknown> = Promise.resolve();
  /** Exclusive steps running now (see {@link acting}). */
  #acting = 0;

  /** `owner`: the session whose turn this is; `id`: its id. */
  constructor(owner: object, id: string) {
    this.#owner = owner;
    this.#id = id;
  }

  /** True while a tool call acts on this session (an {@link exclusive} step runs). */
  get acting(): boolean {
    return this.#acting > 0;
  }

  /** Runs `fn` in the session's turn: see `BrowserSession.exclusive`. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const scope = currentCallScope();
    // The calling tool call holds this session already (see holdForCall): run inside its turn.
    if (scope?.held.has(this.#owner)) return fn();
    scope?.waitingFor.add(this.#id);
    const inTurn = async () => {
      scope?.waitingFor.delete(this.#id);
      // Nobody waits for this call any more: it must not act late.
      scope?.signal?.throwIfAborted();
      scope?.held.add(this.#owner);
      this.#acting++;
      try {
        return await fn();
      } finally {
        this.#acting--;
        scope?.held.delete(this.#owner);
      }
    };
    const run = this.#queue.then(inTurn, inTurn);
    this.#queue = run.catch(() => {});
    return run;
  }

  /** Takes the session's turn for the rest of the current call: see `BrowserSession.holdForCall`. */
  async holdForCall(): Promise<void> {
    const scope = currentCallScope();
    if (!scope || scope.held.has(this.#owner)) return;
    let release!: () => void;
    const done = new Promise<void>((r) => release = r);
    const turn = this.#queue.then(() => {}, () => {});
    this.#queue = turn.then(() => done);
    scope.waitingFor.add(this.#id);
    try {
      await turn;
    } finally {
      scope.waitingFor.delete(this.#id);
    }
    scope.held.add(this.#owner);
    scope.releases.push(() => {
      scope.held.delete(this.#owner);
      release();
    });
  }
}
