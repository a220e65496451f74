/**
 * The frames of one tab (its own and those of its out-of-process iframes):
 * which session owns each, its URL, document (loader) and lifecycle, kept
 * from `Page.getFrameTree` and the `Page.*` frame events.
 *
 * @module
 */
import type { CdpSession } from "./connection.ts";
import type { CdpEventArgs, Protocol } from "./types.ts";

/** One frame of a tab. */
export interface FrameInfo {
  frameId: string;
  parentId: string | undefined;
  /** The session that owns the frame's document (differs from the tab's for OOPIFs). */
  session: CdpSession;
  url: string;
  name: string;
  loaderId: string;
  /** Lifecycle events seen for the current document (`DOMContentLoaded`, `load`, `networkIdle`, …). */
  lifecycle: Set<string>;
}

/** What a frame event changed, for the tab to act on. */
export interface FrameChange {
  /** Frames whose document ended (navigated or removed): their execution contexts are stale. */
  ended: string[];
  /** A load state may have been reached (lifecycle waiters should look again). */
  lifecycle: boolean;
  /** The top frame committed a new document. */
  topNavigated: boolean;
}

/** The frame map of a tab. */
export class FrameTree {
  #frames = new Map<string, FrameInfo>();

  /** A frame by id. */
  get(frameId: string): FrameInfo | undefined {
    return this.#frames.get(frameId);
  }

  /** All known frames, parents before children. */
  all(): FrameInfo[] {
    return [...this.#frames.values()];
  }

  /** The child frames of a frame. */
  children(frameId: string): FrameInfo[] {
    return this.all().filter((f) => f.parentId === frameId);
  }

  /**
   * Merges a `Page.getFrameTree` answer. What events of the same session
   * already said is newer than the tree and wins.
   */
  addTree(tree: Protocol.Page.FrameTree, session: CdpSession, parentId: string | undefined): void {
    const f = tree.frame;
    const existing = this.#frames.get(f.id);
    const keep = existing?.session === session ? existing : undefined;
    this.#frames.set(f.id, {
      frameId: f.id,
      parentId: f.parentId ?? parentId ?? existing?.parentId,
      session,
      url: keep?.url || f.url + (f.urlFragment ?? ""),
      name: f.name ?? "",
      loaderId: keep?.loaderId || f.loaderId,
      lifecycle: keep ? keep.lifecycle : new Set(),
    });
    for (const child of tree.childFrames ?? []) this.addTree(child, session, f.id);
  }

  /** Removes a frame and its descendants; returns the removed ids. */
  remove(frameId: string): string[] {
    const out: string[] = [];
    for (const f of this.all()) if (f.parentId === frameId) out.push(...this.remove(f.frameId));
    if (this.#frames.delete(frameId)) out.push(frameId);
    return out;
  }

  /** Removes the frames a detached session owned (but `keep`); returns the removed ids. */
  dropSession(sessionId: string, keep: string): string[] {
    const out: string[] = [];
    for (const f of this.all()) {
      if (f.session.id === sessionId && f.frameId !== keep) out.push(...this.remove(f.frameId));
    }
    return out;
  }

  /**
   * Applies one CDP event of a session of the tab. Returns what changed, or
   * undefined for events that are not about frames.
   */
  apply(
    ...[method, params, session]: CdpEventArgs<[session: CdpSession]>
  ): FrameChange | undefined {
    const change: FrameChange = { ended: [], lifecycle: false, topNavigated: false };
    switch (method) {
      case "Page.frameAttached": {
        if (!this.#frames.has(params.frameId)) {
          this.#frames.set(params.frameId, {
            frameId: params.frameId,
            parentId: params.parentFrameId,
            session,
            url: "",
            name: "",
            loaderId: "",
            lifecycle: new Set(),
          });
        }
        return change;
      }
      case "Page.frameNavigated": {
        const { frame, type } = params;
        const prev = this.#frames.get(frame.id);
        change.topNavigated = !frame.parentId;
        // A new document (frameNavigated is never same-document): the old
        // one's child frames are gone, and Chromium does not always say so.
        for (const child of this.children(frame.id)) {
          change.ended.push(...this.remove(child.frameId));
        }
        this.#frames.set(frame.id, {
          frameId: frame.id,
          parentId: frame.parentId ?? prev?.parentId,
          session,
          url: frame.url + (frame.urlFragment ?? ""),
          name: frame.name ?? "",
          loaderId: frame.loaderId,
          lifecycle: type === "BackForwardCacheRestore"
            // A page restored from the back/forward cache is loaded already: no lifecycle events follow.
            ? new Set(["DOMContentLoaded", "load", "networkAlmostIdle", "networkIdle"])
            : prev?.loaderId === frame.loaderId && prev.session === session
            ? prev.lifecycle
            : new Set(),
        });
        change.ended.push(frame.id);
        change.lifecycle = true;
        return change;
      }
      case "Page.navigatedWithinDocument": {
        const f = this.#frames.get(params.frameId);
        if (f) f.url = params.url;
        change.lifecycle = true;
        return change;
      }
      case "Page.frameDetached": {
        // "swap" means the frame moved to another process: its OOPIF target takes over.
        if (params.reason !== "swap") change.ended.push(...this.remove(params.frameId));
        return change;
      }
      case "Page.lifecycleEvent": {
        const f = this.#frames.get(params.frameId);
        if (f) {
          if (params.name === "init") {
            f.lifecycle = new Set();
            f.loaderId = params.loaderId;
          } else if (f.loaderId === params.loaderId || !f.loaderId) f.lifecycle.add(params.name);
          change.lifecycle = true;
        }
        return change;
      }
    }
    return undefined;
  }
}
