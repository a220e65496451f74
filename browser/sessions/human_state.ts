/**
 * The human half of one browser session (issue 15, seeds 003/004): who has
 * control (the agent, or a person who took over), how many people watch it
 * in the web console, what the agent asked a person to do, what it outlined
 * for them, and what a person picked for the agent.
 *
 * Kept on the {@link BrowserSession} (browser-level state, no MCP): the call
 * pipeline reads {@link HumanState.control} to refuse agent mutations while a
 * person has control, tools read and change it, and the web console (mcp/)
 * listens to its `change` events to redraw.
 *
 * @module
 */

/** Who drives the session's pages. */
export interface SessionControl {
  /** `agent` (the default) or `human` (a person took over, or the agent handed over). */
  by: "agent" | "human";
  /** Why control went to a person (the agent's `takeover({ reason })`, or "taken over in the console"). */
  reason?: string;
  /** Since when, ms since the epoch. */
  since: number;
}

/** An element's on-screen box: top-level viewport CSS px (what the console's live frame shows). */
export interface ScreenBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A task the agent handed to a person (`ask_human`): credentials, a CAPTCHA, 2FA, a payment. */
export interface HumanAsk {
  /** Stable id (`a1`, `a2`, …), unique in the process (the console answers it by id alone). */
  id: string;
  /** What the person is asked to do. */
  instruction: string;
  /** The element concerned, when the agent named one (an eN/pN ref). */
  ref?: string;
  /** Where that element was when asked (the console outlines it). */
  box?: ScreenBox;
  /** The tab's URL when asked: the box is stale once the tab shows another page. */
  url?: string;
  /** `awaiting_user` until the person marks it done in the console. */
  status: "awaiting_user" | "done";
  /** ms since the epoch. */
  created: number;
  /** ms since the epoch, once done. */
  done?: number;
}

/** An element the agent outlined for the person (`highlight`). */
export interface HumanHighlight {
  /** The element's ref. */
  ref: string;
  /** The agent's note shown beside the outline. */
  note?: string;
  /** Where the element was when outlined (the console draws it over the live view). */
  box?: ScreenBox;
  /** The tab's URL when outlined: the outline is stale once the tab shows another page. */
  url?: string;
  /** ms since the epoch. */
  created: number;
}

/** An element a person picked in the console for the agent. */
export interface HumanPick {
  /** The `pN` ref, usable wherever an eN is. */
  ref: string;
  role: string;
  name: string;
  /** A verified selector for the element, when one was found. */
  selectorHint?: string;
  /** The page's URL when picked. */
  url: string;
  /** ms since the epoch. */
  created: number;
}

/** What changed, in a `change` event's `detail`. */
export type HumanChange = "control" | "viewers" | "asks" | "highlights" | "picks";

/**
 * The per-session human state. Mutations go through its methods so every
 * change fires one `change` event (`CustomEvent<HumanChange>`).
 */
export class HumanState extends EventTarget {
  #control: SessionControl = { by: "agent", since: Date.now() };
  #viewers = 0;
  /** Asks, oldest first (done ones kept for the console's history, capped). */
  readonly asks: HumanAsk[] = [];
  /** Highlights, oldest first (capped). */
  readonly highlights: HumanHighlight[] = [];
  /** Picks, oldest first (capped). */
  readonly picks: HumanPick[] = [];

  /** Who has control now. */
  get control(): SessionControl {
    return this.#control;
  }

  /** True while a person has control: agent mutations answer `human-has-control`. */
  get humanHasControl(): boolean {
    return this.#control.by === "human";
  }

  /** Gives control to `by` (no event when it already has it). */
  setControl(by: SessionControl["by"], reason?: string): void {
    if (this.#control.by === by) return;
    this.#control = { by, since: Date.now(), ...(reason ? { reason } : {}) };
    this.changed("control");
  }

  /** People watching this session in the web console now. */
  get viewers(): number {
    return this.#viewers;
  }

  /** A console viewer started (+1) or stopped (−1) watching. */
  addViewer(delta: 1 | -1): void {
    this.#viewers = Math.max(0, this.#viewers + delta);
    this.changed("viewers");
  }

  /** Fires one `change` event for `what` (after a mutation of the public arrays). */
  changed(what: HumanChange): void {
    this.dispatchEvent(new CustomEvent<HumanChange>("change", { detail: what }));
  }
}
