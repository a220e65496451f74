/**
 * The JavaScript worlds of one tab's frames (its own and those of its out-of-process
 * iframes): for each frame, the execution context id of the page's own (main) world and of
 * browxai's isolated world, kept from the `Runtime.executionContextCreated` /
 * `executionContextDestroyed` / `executionContextsCleared` events of every session of the
 * tab. The isolated world is made at each document's start when the tab puts a script in it
 * (`Page.attach`'s `utilityScript`), else on demand (`Page.createIsolatedWorld`).
 *
 * @module
 */
import type { CdpSession } from "./connection.ts";
import type { FrameInfo } from "./frame_tree.ts";
import type { CdpEventArgs } from "./types.ts";

/** Name of browxai's isolated world in every frame. */
export const UTILITY_WORLD = "__browxai_utility";

/** browxai's isolated world in one frame's document, as the tab knows it. */
export interface UtilityWorld {
  /** Its execution context id. */
  readonly contextId: number;
  /**
   * Nothing of browxai's library can be in it: the tab created it (`Page.createIsolatedWorld`),
   * or its `Runtime.executionContextCreated` came after the session's `Runtime.enable` answered
   * (a new document's world, made by the tab's document-start script). False for a world that
   * existed before (reported by `Runtime.enable`: an attached browser's tab, a target attached
   * again), which a caller must probe first.
   */
  readonly fresh: boolean;
  /**
   * What callers did in this world (e.g. installed a library), for them to read back. A new
   * world is a new object, so the marks end with the world they describe.
   */
  readonly marks: Set<string>;
}

/** The context ids of a tab's frames. */
export class ExecutionContexts {
  /** frameId → the isolated world; frameId → context id of the main world. */
  #worlds = new Map<string, { contextId: number; fresh: boolean; marks: Set<string> }>();
  #mainWorlds = new Map<string, number>();
  /** sessionId → (contextId → frameId). */
  #contextFrames = new Map<string, Map<number, string>>();
  /** frameId → the isolated world being created. */
  #pendingWorlds = new Map<string, Promise<UtilityWorld>>();
  /** Sessions whose `Runtime.enable` answered: worlds they report now are new. */
  #enabled = new Set<string>();

  /** Starts tracking the contexts of a session of the tab. */
  addSession(sessionId: string): void {
    this.#contextFrames.set(sessionId, new Map());
  }

  /** Stops tracking a detached session (its frames are forgotten with {@link forgetFrame}). */
  dropSession(sessionId: string): void {
    this.#contextFrames.delete(sessionId);
    this.#enabled.delete(sessionId);
  }

  /**
   * The session's `Runtime.enable` answered: the contexts that existed were reported before
   * it, so a utility world it reports from now on is new ({@link UtilityWorld.fresh}).
   */
  enabled(sessionId: string): void {
    if (this.#contextFrames.has(sessionId)) this.#enabled.add(sessionId);
  }

  /** Forgets a frame's worlds: its document ended (navigated or removed). */
  forgetFrame(frameId: string): void {
    this.#worlds.delete(frameId);
    this.#mainWorlds.delete(frameId);
  }

  /** Applies a `Runtime.executionContext*` event of `session`; ignores every other event. */
  apply(...[method, params, session]: CdpEventArgs<[session: CdpSession]>): void {
    switch (method) {
      case "Runtime.executionContextCreated": {
        const { context } = params;
        const aux = context.auxData as { frameId?: string; isDefault?: boolean } | undefined;
        if (!aux?.frameId) break;
        this.#contextFrames.get(session.id)?.set(context.id, aux.frameId);
        if (context.name === UTILITY_WORLD) {
          // Our own creation's event arrives before its reply: keep what is known of it.
          if (this.#worlds.get(aux.frameId)?.contextId !== context.id) {
            this.#worlds.set(aux.frameId, {
              contextId: context.id,
              fresh: this.#enabled.has(session.id),
              marks: new Set(),
            });
          }
        } else if (aux.isDefault) this.#mainWorlds.set(aux.frameId, context.id);
        break;
      }
      case "Runtime.executionContextDestroyed": {
        const map = this.#contextFrames.get(session.id);
        const frameId = map?.get(params.executionContextId);
        map?.delete(params.executionContextId);
        if (frameId) {
          if (this.#worlds.get(frameId)?.contextId === params.executionContextId) {
            this.#worlds.delete(frameId);
          }
          if (this.#mainWorlds.get(frameId) === params.executionContextId) {
            this.#mainWorlds.delete(frameId);
          }
        }
        break;
      }
      case "Runtime.executionContextsCleared": {
        const map = this.#contextFrames.get(session.id);
        for (const frameId of map?.values() ?? []) {
          this.#worlds.delete(frameId);
          this.#mainWorlds.delete(frameId);
        }
        map?.clear();
        break;
      }
    }
  }

  /** The page's own (main world) execution context of a frame, if known. */
  main(frameId: string): number | undefined {
    return this.#mainWorlds.get(frameId);
  }

  /**
   * browxai's isolated world in a frame: the known one at once, else a promise of it,
   * created once however many callers ask meanwhile (on the frame's own session). CDP:
   * `Page.createIsolatedWorld` (with universal access).
   *
   * @throws whatever `Page.createIsolatedWorld` throws (frame gone, target closed, …).
   */
  utility(frame: FrameInfo): UtilityWorld | Promise<UtilityWorld> {
    const { frameId } = frame;
    const known = this.#worlds.get(frameId);
    if (known !== undefined) return known;
    let pending = this.#pendingWorlds.get(frameId);
    if (!pending) {
      pending = frame.session.send("Page.createIsolatedWorld", {
        frameId,
        worldName: UTILITY_WORLD,
        grantUniveralAccess: true,
      }).then((r) => {
        const seen = this.#worlds.get(frameId);
        if (seen?.contextId === r.executionContextId) {
          // Seen in its creation event first: it is still the world made just now.
          seen.fresh = true;
          return seen;
        }
        const world = {
          contextId: r.executionContextId,
          fresh: true,
          marks: new Set<string>(),
        };
        this.#worlds.set(frameId, world);
        return world;
      }).finally(() => this.#pendingWorlds.delete(frameId));
      this.#pendingWorlds.set(frameId, pending);
    }
    return pending;
  }
}
