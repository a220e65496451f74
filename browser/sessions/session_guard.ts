/**
 * A session's tabs under its navigation guard (`../nav_guard/nav_guard.ts`): each page target
 * (tab or out-of-process iframe) attached once, with where a new tab comes from and the
 * diversion of a reload over a dialog Chromium lost (`stuck_dialogs.ts`).
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { AttachedTarget } from "../../cdp/target_manager.ts";
import type { NavGuard } from "../nav_guard/nav_guard.ts";
import type { UnheldJudge } from "../nav_guard/unheld_requests.ts";
import type { SessionDialogs } from "./dialogs.ts";
import { divertLostReload } from "./stuck_dialogs.ts";

/** What the guarding needs of its session. */
export interface GuardedSession {
  /** The session's tabs. */
  readonly tabs: readonly Page[];
  /** The active tab, if any. */
  readonly activePage: Page | undefined;
  readonly dialogs: SessionDialogs;
}

/** The targets of one session its navigation guard holds. */
export class SessionGuard {
  #session: GuardedSession;
  #navGuard: NavGuard | undefined;
  /** Targets the guard holds (an existing browser's tabs may attach before or after the guard). */
  #guarded = new Set<string>();

  constructor(session: GuardedSession) {
    this.#session = session;
  }

  /** The guard, once set. */
  get guard(): NavGuard | undefined {
    return this.#navGuard;
  }

  /** Sets the guard; tabs open already are guarded from then on. */
  set guard(guard: NavGuard | undefined) {
    this.#navGuard = guard;
    for (const page of this.#session.tabs) this.attach(page.target, page.url);
  }

  /**
   * Puts a target under the navigation guard, once; `url`: the document it shows already.
   * `deferScript`: returns the guard's utility-world script (see `NavGuard.attach`).
   */
  attach(target: AttachedTarget, url?: string, deferScript = false): string | undefined {
    if (!this.#navGuard || this.#guarded.has(target.targetId)) return undefined;
    this.#guarded.add(target.targetId);
    return this.#navGuard.attach(
      target.session,
      target.targetId,
      () => this.#session.activePage?.url ?? "about:blank",
      {
        frame: target.type === "iframe",
        ...(url ? { url } : {}),
        // The page reloading itself over a dialog Chromium lost would crash the browser.
        divert: (to, method) => {
          const page = this.#session.tabs.find((p) => p.target.targetId === target.targetId);
          return page && divertLostReload(this.#session.dialogs, page, to, method);
        },
        deferScript,
      },
    );
  }

  /**
   * The guard as the browser-level net asks it (`../nav_guard/unheld_requests.ts`): a tab the
   * browser opened itself comes from the active tab (or, when that is the new tab already,
   * the last other one).
   */
  readonly unheld: UnheldJudge = {
    held: (frameId, url) => this.#navGuard?.held(frameId, url) ?? false,
    judge: (targetId, request) => {
      const others = this.#session.tabs.filter((p) => p.target.targetId !== targetId);
      const active = this.#session.activePage;
      const from = active && active.target.targetId !== targetId ? active : others.at(-1);
      return this.#navGuard?.judgeUnheld(targetId, request, from?.url ?? "about:blank");
    },
    closesRefused: () => this.#navGuard?.acting === false,
  };

  /** Forgets a closed tab (the guard too). */
  detach(targetId: string): void {
    this.#navGuard?.detach(targetId);
    this.#guarded.delete(targetId);
  }
}
