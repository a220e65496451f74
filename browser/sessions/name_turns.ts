/**
 * The per-name queues of one client's sessions (`SessionManager`): opening, closing and
 * (re)creating a session happen one at a time per name, in the order asked for; different
 * names never wait for each other.
 *
 * @module
 */

/** Queues of steps by session name (see the module doc). */
export class NameTurns {
  /** Per name: the tail of its queue of opens, closes and re-creations. */
  #turns = new Map<string, Promise<unknown>>();

  /** Runs `fn` after every earlier open, close or re-creation of `name` settled. */
  run<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const run = (this.#turns.get(name) ?? Promise.resolve()).then(fn, fn);
    const tail = run.then(() => {}, () => {});
    this.#turns.set(name, tail);
    tail.then(() => {
      if (this.#turns.get(name) === tail) this.#turns.delete(name);
    });
    return run;
  }

  /** True while a step of `name` is queued or running. */
  has(name: string): boolean {
    return this.#turns.has(name);
  }

  /** The names with a step queued or running. */
  names(): IterableIterator<string> {
    return this.#turns.keys();
  }
}
