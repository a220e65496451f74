/**
 * Builds a {@link Page} for every tab of a browser and hands it to the
 * browxai session that owns the tab's browser context; adopts out-of-process
 * iframes into their tab.
 *
 * @module
 */
import type { AttachedTarget, TargetListener } from "../../cdp/target_manager.ts";
import { Page, UTILITY_WORLD } from "../../cdp/page.ts";
import type { Connection, Unsubscribe } from "../../cdp/connection.ts";
import { FIRST_LISTENERS_SOURCE } from "../injected/first_listeners.ts";
import { holdUnheldRequests, type UnheldJudge } from "../nav_guard/unheld_requests.ts";

/**
 * What a target's documents get in browxai's utility world at their start: its first
 * listeners (`first_listeners.ts`), then what the owner added (the navigation guard's listener).
 */
function attachOptions(owned: string | undefined | void): { utilityScript: string } {
  return { utilityScript: FIRST_LISTENERS_SOURCE + (owned ? "\n" + owned : "") };
}

/** What owns the tabs of one browser context. */
export interface PageOwner {
  /** A tab of the owner's context appeared (before its first script runs). */
  pageAttached(page: Page): Promise<void> | void;
  /** A tab closed. */
  pageDetached(page: Page): void;
  /** A tab is being created (it attaches shortly). */
  pageCreating?(targetId: string, openerId?: string): void;
  /** A tab announced by `pageCreating` is gone without having attached. */
  pageGone?(targetId: string): void;
  /**
   * A tab of the owner's context attached and waits for the debugger: called
   * synchronously, so commands sent here reach it before its first script. What it returns is
   * a script for the target's utility world at each document's start, sent with browxai's
   * first listeners in one command.
   */
  targetAttaching?(target: AttachedTarget): string | undefined | void;
  /**
   * A worker of the owner's context (dedicated, shared or service) attached and waits for the
   * debugger: called synchronously, so commands sent here apply to its first request. `"close"`
   * refuses it (closed before it runs).
   */
  workerAttaching?(target: AttachedTarget): void | "close";
  /**
   * Judges document requests of the owner's tabs that no tab guard saw (a tab the browser
   * opened itself: `../nav_guard/unheld_requests.ts`); undefined lets them go.
   */
  readonly unheld?: UnheldJudge | undefined;
}

/** How many page targets gone (detached or destroyed) {@link PageRouter.contextOf} still knows. */
const GONE_KEPT = 64;
/** How long {@link PageRouter.contextOf} still knows a page target once it is gone, ms. */
const GONE_KEPT_MS = 30_000;

/** The key of a context in the router (`""` is the default context). */
function key(browserContextId: string | undefined): string {
  return browserContextId ?? "";
}

/** Routes tabs of one browser to their owners by browser context. */
export class PageRouter {
  #pages = new Map<string, Page>();
  #owners = new Map<string, PageOwner>();
  /** Owners of the default context that also own every unclaimed context (attached browsers). */
  #takesAll = new WeakSet<PageOwner>();
  /** The browser context of each page target announced (created, until it detaches). */
  #contexts = new Map<string, string | undefined>();
  /**
   * Those gone lately, oldest first, with when (ms since the epoch): a `target=_blank` link's
   * tab whose navigation became a download is often closed before its download is read.
   */
  #gone = new Map<string, { browserContextId: string | undefined; at: number }>();

  /** The target manager attach hook (pass as `attachHook`). */
  readonly attachHook = async (t: AttachedTarget): Promise<void> => {
    if (t.type === "page") {
      const owned = this.#ownerOf(t.browserContextId)?.targetAttaching?.(t);
      const page = await Page.attach(t, attachOptions(owned));
      this.#pages.set(t.targetId, page);
      await this.#ownerOf(t.browserContextId)?.pageAttached(page);
    } else if (t.type === "iframe" && t.parentSessionId) {
      const options = attachOptions(this.#ownerOf(t.browserContextId)?.targetAttaching?.(t));
      const tab = [...this.#pages.values()].find((p) => p.ownsSession(t.parentSessionId!));
      if (tab) await tab.adoptFrameTarget(t, options);
      // No tab of ours holds it: its documents still get the scripts.
      else {
        void t.session.send("Page.addScriptToEvaluateOnNewDocument", {
          source: options.utilityScript,
          worldName: UTILITY_WORLD,
          runImmediately: true,
        }).catch(() => {});
      }
    }
  };

  /** The target manager worker hook (pass as `workerHook`). */
  readonly workerHook = (t: AttachedTarget): void | "close" =>
    this.#ownerOf(t.browserContextId)?.workerAttaching?.(t);

  /** The target manager listener (pass as `listener`). */
  readonly listener: TargetListener = {
    created: (info) => {
      if (info.type === "page") {
        const owner = this.#ownerOf(info.browserContextId);
        // Others' tabs are left alone (and never detach through us: not kept).
        if (owner) this.#contexts.set(info.targetId, info.browserContextId);
        owner?.pageCreating?.(info.targetId, info.openerId);
      }
    },
    detached: (t) => {
      if (t.type === "page") {
        const known = this.#forget(t.targetId);
        const page = this.#pages.get(t.targetId);
        if (!page) {
          // Attached, closed before its page was made: its owner still counts it as opening.
          if (known) this.#ownerOf(t.browserContextId)?.pageGone?.(t.targetId);
          return;
        }
        this.#pages.delete(t.targetId);
        page.dispose();
        this.#ownerOf(t.browserContextId)?.pageDetached(page);
      } else {
        for (const p of this.#pages.values()) p.dropSession(t.session.id);
      }
    },
    crashed: (t) => {
      const page = this.#pages.get(t.targetId);
      page?.markCrashed();
    },
    destroyed: (targetId) => {
      // Closed before it attached (a new tab whose navigation became a download): its owner
      // still counts it as opening.
      if (!this.#contexts.has(targetId) || this.#pages.has(targetId)) return;
      const contextId = this.#contexts.get(targetId);
      this.#forget(targetId);
      this.#ownerOf(contextId)?.pageGone?.(targetId);
    },
  };

  /** Moves a page target from the announced to the gone lately; false when it was not announced. */
  #forget(targetId: string): boolean {
    if (!this.#contexts.has(targetId)) return false;
    this.#gone.delete(targetId);
    this.#gone.set(targetId, { browserContextId: this.#contexts.get(targetId), at: Date.now() });
    this.#contexts.delete(targetId);
    if (this.#gone.size > GONE_KEPT) this.#gone.delete(this.#gone.keys().next().value!);
    return true;
  }

  /**
   * The browser context of a page target of an owned context, from its `Target.targetCreated`:
   * while it lives, and for {@link GONE_KEPT_MS} after it is gone (the last {@link GONE_KEPT}).
   * Undefined for a target never announced (another's tab, a subframe) or forgotten; a found
   * target's `browserContextId` is undefined only when Chromium named none.
   */
  contextOf(targetId: string): { browserContextId: string | undefined } | undefined {
    if (this.#contexts.has(targetId)) return { browserContextId: this.#contexts.get(targetId) };
    const gone = this.#gone.get(targetId);
    if (!gone || Date.now() - gone.at > GONE_KEPT_MS) return undefined;
    return { browserContextId: gone.browserContextId };
  }

  /**
   * The owner of a context. An owner of the default context that claimed
   * `allContexts` (an attached browser: the person's tabs) owns every context
   * nobody claimed, because targets name the default context by its real id,
   * which the claim does not know.
   */
  #ownerOf(browserContextId: string | undefined): PageOwner | undefined {
    const own = this.#owners.get(key(browserContextId));
    if (own) return own;
    const fallback = this.#owners.get("");
    return fallback && this.#takesAll.has(fallback) ? fallback : undefined;
  }

  /**
   * Makes `owner` the owner of a context and returns the tabs that context
   * already has (attached mode, persistent profiles); `allContexts` adds the
   * contexts nobody claimed (see `#ownerOf`).
   */
  claim(
    browserContextId: string | undefined,
    owner: PageOwner,
    options: { allContexts?: boolean } = {},
  ): Page[] {
    this.#owners.set(key(browserContextId), owner);
    if (options.allContexts) this.#takesAll.add(owner);
    return [...this.#pages.values()].filter((p) =>
      this.#ownerOf(p.target.browserContextId) === owner
    );
  }

  /** Drops the owner of a context. */
  release(browserContextId: string | undefined): void {
    this.#owners.delete(key(browserContextId));
  }

  /**
   * Turns on the browser-level net for tabs the browser opens itself
   * (`../nav_guard/unheld_requests.ts`) on this router's browser: call once, before any
   * session's tab opens. Returns its remover.
   *
   * CDP: `Fetch.enable` on the browser session; `Target.getTargetInfo` for a frame not known
   * as a tab yet.
   */
  holdUnheld(connection: Connection): Promise<Unsubscribe> {
    return holdUnheldRequests(connection, {
      all: () => [...new Set(this.#owners.values())].flatMap((o) => o.unheld ? [o.unheld] : []),
      of: async (frameId) => {
        let known = this.#contexts.has(frameId);
        let context = this.#contexts.get(frameId);
        if (!known) {
          // Not announced (yet): a subframe, or a tab whose creation we have not heard of.
          const info = await connection.send("Target.getTargetInfo", { targetId: frameId })
            .catch(() => undefined);
          known = info?.targetInfo.type === "page";
          context = info?.targetInfo.browserContextId;
        }
        return known ? this.#ownerOf(context)?.unheld : undefined;
      },
    });
  }

  /** The Page of a target id, if attached. */
  page(targetId: string): Page | undefined {
    return this.#pages.get(targetId);
  }
}
