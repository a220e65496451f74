/**
 * The JavaScript worlds of one tab's frames (its own and those of its out-of-process
 * iframes): for each frame, the execution context id of the page's own (main) world and of
 * browxai's isolated world, kept from the `Runtime.executionContextCreated` /
 * `executionContextDestroyed` / `executionContextsCleared` events of every session of the
 * tab. The isolated world is created on demand (`Page.createIsolatedWorld`).
 *
 * @module
 */
import type { CdpSession } from "./connection.ts";
import type { FrameInfo } from "./frame_tree.ts";
import type { CdpEventArgs } from "./types.ts";

/** Name of browxai's isolated world in every frame. */
export const UTILITY_WORLD = "__browxai_utility";

/** The context ids of a tab's frames. */
export class ExecutionContexts {
  /** frameId → context id of the isolated world / of the main world. */
  #worlds = new Map<string, number>();
  #mainWorlds = new Map<string, number>();
  /** sessionId → (contextId → frameId). */
  #contextFrames = new Map<string, Map<number, string>>();
  /** frameId → the isolated world being created. */
  #pendingWorlds = new Map<string, Promise<number>>();

  /** Starts tracking the contexts of a session of the tab. */
  addSession(sessionId: string): void {
    this.#contextFrames.set(sessionId, new Map());
  }

  /** Stops tracking a detached session (its frames are forgotten with {@link forgetFrame}). */
  dropSession(sessionId: string): void {
    this.#contextFrames.delete(sessionId);
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
        if (context.name === UTILITY_WORLD) this.#worlds.set(aux.frameId, context.id);
        else if (aux.isDefault) this.#mainWorlds.set(aux.frameId, context.id);
        break;
      }
      case "Runtime.executionContextDestroyed": {
        const map = this.#contextFrames.get(session.id);
        const frameId = map?.get(params.executionContextId);
        map?.delete(params.executionContextId);
        if (frameId) {
          if (this.#worlds.get(frameId) === params.executionContextId) this.#worlds.delete(frameId);
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
   * The context id of browxai's isolated world in a frame: the known one at once, else a
   * promise of it, created once however many callers ask meanwhile (on the frame's own
   * session). CDP: `Page.createIsolatedWorld` (with universal access).
   *
   * @throws whatever `Page.createIsolatedWorld` throws (frame gone, target closed, …).
   */
  utility(frame: FrameInfo): number | Promise<number> {
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
        this.#worlds.set(frameId, r.executionContextId);
        return r.executionContextId;
      }).finally(() => this.#pendingWorlds.delete(frameId));
      this.#pendingWorlds.set(frameId, pending);
    }
    return pending;
  }
}
