/**
 * What the console shows of the agents' browser sessions: the `sessions` and `activity` slices
 * of the hub's state, and the console and network tails of one watched session.
 *
 * @module
 */
import type { BrowserSession } from "../../browser/sessions/browser_session.ts";
import type { Page } from "../../cdp/page.ts";
import { shownUrl } from "../../browser/network_writes.ts";
import { isAttended } from "../../browser/human/asks.ts";
import type { ActivityEntry, ConsoleHub, SessionKey } from "./hub.ts";

/** One tab as the console lists it. */
export interface TabView {
  /** The tab's target id. */
  id: string;
  url: string;
  title: string;
  active: boolean;
}

/** One session as the console lists it (the `sessions` slice). */
export interface SessionView {
  id: string;
  mode: string;
  /** The active tab's URL and title ("" without a tab). */
  url: string;
  title: string;
  tabs: TabView[];
  /** The session's latest finished call, from the activity stream. */
  lastCall: Pick<ActivityEntry, "seq" | "time" | "tool" | "ok" | "summary" | "ms"> | null;
  /** Console viewers watching this session now. */
  viewers: number;
  /** True when a person can see it: watched in the console, or a headful browser. */
  attended: boolean;
  /** Who drives the pages: `agent` or `human` (after a takeover). */
  control: "agent" | "human";
  controlReason?: string;
}

/** One MCP client and its sessions (the `sessions` slice is a list of these). */
export interface ClientView {
  /** `stdio`, `c1`, `c2`, … */
  label: string;
  /** The client's own name from `initialize`, when known. */
  name: string | null;
  sessions: SessionView[];
}

/** The most activity entries in the `activity` slice (newest kept). */
export const ACTIVITY_SHOWN = 200;
/** The most lines of each tail. */
export const TAIL_LINES = 50;
/** Longest text of one tail line, characters. */
const TAIL_CHARS = 500;

/**
 * Longest URL and title of a session or tab the `sessions` slice shows, characters: a page sets
 * both (`history.pushState`, `document.title`) to megabytes if it likes, and the slice goes to
 * every viewer on each change.
 */
const URL_CHARS = 2000;
const TITLE_CHARS = 300;

function cut(text: string, max = TAIL_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * Page titles as the document has them. A target's title from CDP lags behind (it reads as the
 * URL until Chromium reports a change), so the console asks the page (`document.title` in the
 * utility world) when its URL changed, or every {@link TITLE_STALE_MS} while watched.
 */
export class Titles {
  #known = new WeakMap<Page, { url: string; title: string; at: number }>();
  #asking = new WeakSet<Page>();

  /** The best title known for `page` now. */
  of(page: Page): string {
    const k = this.#known.get(page);
    return k && k.url === page.url ? k.title : page.target.title;
  }

  /** Asks the active tab of every session for its title when due; `changed()` after a new one. */
  refresh(hub: ConsoleHub, changed: () => void): void {
    const now = Date.now();
    for (const { session } of hub.sessions()) {
      const page = session.activePage;
      if (!page || page.crashed || this.#asking.has(page)) continue;
      const k = this.#known.get(page);
      if (k && k.url === page.url && now - k.at < TITLE_STALE_MS) continue;
      this.#asking.add(page);
      const url = page.url;
      page.title().then((title) => {
        const before = this.of(page);
        this.#known.set(page, { url, title, at: Date.now() });
        if (this.of(page) !== before) changed();
      }).catch(() => {}).finally(() => this.#asking.delete(page));
    }
  }
}

/** A watched page's title is asked again after this long, ms. */
const TITLE_STALE_MS = 2000;

/** The `sessions` slice: every client with its open sessions. */
export function sessionsSlice(
  hub: ConsoleHub,
  options: { headful: boolean; titles?: Titles },
): ClientView[] {
  const last = new Map<string, ActivityEntry>();
  for (const e of hub.activity()) if (e.session) last.set(`${e.client}\n${e.session}`, e);
  return hub.clients().map((c) => ({
    label: c.label,
    name: c.clientName() ?? null,
    sessions: c.sessions.list().map((s) =>
      sessionView(s, last.get(`${c.label}\n${s.id}`), options)
    ),
  }));
}

function sessionView(
  s: BrowserSession,
  last: ActivityEntry | undefined,
  options: { headful: boolean; titles?: Titles },
): SessionView {
  const active = s.activePage;
  const title = (p: Page) => cut(options.titles?.of(p) ?? p.target.title, TITLE_CHARS);
  const control = s.human.control;
  return {
    id: s.id,
    mode: s.mode,
    url: cut(active?.url ?? "", URL_CHARS),
    title: active ? title(active) : "",
    tabs: s.tabs.filter((t) => !t.isClosed).map((t) => ({
      id: t.target.targetId,
      url: cut(t.url, URL_CHARS),
      title: title(t),
      active: t === active,
    })),
    lastCall: last
      ? {
        seq: last.seq,
        time: last.time,
        tool: last.tool,
        ok: last.ok,
        summary: last.summary,
        ms: last.ms,
      }
      : null,
    viewers: s.human.viewers,
    // The rule ask_human and highlight go by: watched, a headful session, or a headful server.
    attended: isAttended(s, options.headful),
    control: control.by,
    ...(control.reason ? { controlReason: control.reason } : {}),
  };
}

/** The `activity` slice: the newest {@link ACTIVITY_SHOWN} entries, oldest first. */
export function activitySlice(hub: ConsoleHub): ActivityEntry[] {
  return hub.activity().slice(-ACTIVITY_SHOWN);
}

/** The console and network tails of one session (sent to the viewers watching it). */
export interface Tails {
  session: SessionKey;
  console: Array<{ seq: number; level: string; text: string; timestamp: number }>;
  network: Array<{
    seq: number;
    method: string;
    url: string;
    type: string;
    status?: number;
    failed: boolean;
    errorText?: string;
    durationMs?: number;
    timestamp: number;
  }>;
  /** The last seq of each buffer: the tails changed when these did. */
  mark: string;
}

/**
 * The last {@link TAIL_LINES} console and network entries of `session`, texts cut to 500
 * characters and passed through `mask` (the secret store's masking, as console_read and
 * network_read mask for the agent; URLs shown as network_read shows them).
 */
export function tailsOf(
  key: SessionKey,
  session: BrowserSession,
  mask: (text: string) => string,
): Tails {
  const c = session.logs.console;
  const n = session.logs.network;
  return {
    session: key,
    console: c.since(Math.max(0, c.lastSeq - TAIL_LINES)).slice(-TAIL_LINES).map((e) => ({
      seq: e.seq,
      level: e.level,
      text: cut(mask(e.text)),
      timestamp: e.timestamp,
    })),
    network: n.since(Math.max(0, n.lastSeq - TAIL_LINES)).slice(-TAIL_LINES).map((e) => ({
      seq: e.seq,
      method: e.method,
      url: cut(mask(shownUrl(e))),
      type: e.type,
      ...(e.status !== undefined ? { status: e.status } : {}),
      failed: e.failed,
      ...(e.errorText ? { errorText: cut(mask(e.errorText)) } : {}),
      ...(e.durationMs !== undefined ? { durationMs: Math.round(e.durationMs) } : {}),
      timestamp: e.timestamp,
    })),
    mark: tailsMark(session),
  };
}

/** A cheap token that changes when either tail changes (entries added or updated). */
export function tailsMark(session: BrowserSession): string {
  const n = session.logs.network;
  const done = n.since(Math.max(0, n.lastSeq - TAIL_LINES)).filter((e) => e.done).length;
  return `${session.logs.console.lastSeq}:${n.lastSeq}:${done}`;
}
