/**
 * A fake browser session and tab for unit tests of the action machinery
 * (recorder, action window): real page logs, listeners fed CDP events by
 * hand, and the dialogs and navigation guard hooks counted, with no browser.
 *
 * @module
 */
import type { CdpSession } from "../cdp/connection.ts";
import type { Page } from "../cdp/page.ts";
import type { CdpEventArgs } from "../cdp/types.ts";
import type { BrowserSession } from "../browser/sessions/browser_session.ts";
import type { SessionListener } from "../browser/sessions/browser_session_types.ts";
import { BetweenCalls } from "../browser/sessions/between_calls.ts";
import type { DialogRecord } from "../browser/sessions/dialogs.ts";
import { PageLogs } from "../browser/sessions/page_logs.ts";
import { SessionRoutes } from "../browser/routes/routes.ts";
import { SessionSlots } from "../browser/sessions/session_slots.ts";
import type { WindowFacts } from "../browser/actions/result_builder.ts";

/** A tab of the fake session: what the recorder reads of a `Page`. */
export interface FakePage {
  url: string;
  mainFrameId: string;
  isClosed: boolean;
  target: { targetId: string };
  /** Whether its main frame fired DOMContentLoaded (a new tab's first document). */
  loaded: boolean;
  frame(id: string): { url: string; lifecycle: Set<string> } | undefined;
  title(): Promise<string>;
  /** The method that fetched its document (`POST`: a form's result); undefined: unknown. */
  documentMethod?: string;
  /** What `Page.documentResponse` gives the recorder: the method only. */
  documentResponse(): { method?: string } | undefined;
}

/** A fake tab at `url`. */
export function fakePage(url: string, id = "T1"): FakePage {
  const page: FakePage = {
    url,
    mainFrameId: `${id}-main`,
    isClosed: false,
    target: { targetId: id },
    loaded: true,
    frame: (frameId) =>
      frameId === page.mainFrameId
        ? { url: page.url, lifecycle: new Set(page.loaded ? ["DOMContentLoaded"] : []) }
        : undefined,
    title: () => Promise.resolve(`title of ${page.url}`),
    documentResponse: () =>
      page.documentMethod === undefined ? undefined : { method: page.documentMethod },
  };
  return page;
}

/** The fake session; {@link FakeSession.session} is what the code under test gets. */
export interface FakeSession {
  /** The fake typed as the real thing (the one cast). */
  session: BrowserSession;
  logs: PageLogs;
  tabs: FakePage[];
  /** Listeners currently subscribed. */
  listeners: Set<SessionListener>;
  /** Calls of `dialogs.actionWindow`, in order. */
  dialogWindows: boolean[];
  /** The session's real between-calls news (an action window holds it). */
  between: BetweenCalls<Page>;
  /** Calls of the guard: `begin` and `end`, in order. */
  guardCalls: string[];
  /** Replies to `Network.getResponseBody` by request id (the CDP session of a write). */
  bodies: Map<string, string>;
  /** Feeds one CDP event of `page` to the logs and the listeners, as the real session does. */
  emit(page: FakePage, method: string, params: unknown): void;
  /** A tab the page opened (listeners' `tabOpened`). */
  open(page: FakePage): void;
  /** A dialog the session answered (listeners' `dialog`). */
  dialog(record: Omit<DialogRecord, "seq" | "tab">): void;
}

/** A fake session whose active tab is `page`. */
export function fakeSession(page: FakePage): FakeSession {
  const listeners = new Set<SessionListener>();
  const logs = new PageLogs();
  const tabs = [page];
  const dialogWindows: boolean[] = [];
  const guardCalls: string[] = [];
  const bodies = new Map<string, string>();
  const between = new BetweenCalls<Page>();
  const cdp = {
    send(method: string, params: { requestId: string }) {
      const body = bodies.get(params.requestId);
      if (method !== "Network.getResponseBody" || body === undefined) {
        return Promise.reject(new Error(`no ${method} for ${params.requestId}`));
      }
      return Promise.resolve({ body, base64Encoded: false });
    },
  } as unknown as CdpSession;
  const fake = {
    id: "fake",
    logs,
    tabs,
    openingTabs: 0,
    closed: false,
    slots: new SessionSlots(),
    routes: new SessionRoutes(),
    get activePage() {
      return tabs.at(-1);
    },
    listen(listener: SessionListener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dialogs: {
      // Nothing armed: an ended window leaves no unused answer.
      actionWindow: (open: boolean) => {
        dialogWindows.push(open);
        return false;
      },
    },
    between,
    navGuard: {
      begin: () => guardCalls.push("begin"),
      end: () => {
        guardCalls.push("end");
        return [];
      },
      settled: () => Promise.resolve(false),
    },
    closeTab: () => Promise.resolve(),
  };
  let seq = 0;
  return {
    session: fake as unknown as BrowserSession,
    logs,
    tabs,
    listeners,
    dialogWindows,
    between,
    guardCalls,
    bodies,
    emit(p, method, params) {
      // A fake feeds events of its own making: untyped here, as the tests write them.
      const event = [method, params] as unknown as CdpEventArgs;
      logs.onEvent(p.target.targetId, ...event);
      for (const l of [...listeners]) {
        (l.event as ((...a: unknown[]) => void) | undefined)?.(p, method, params, cdp);
      }
    },
    open(p) {
      tabs.push(p);
      for (const l of [...listeners]) l.tabOpened?.(p as unknown as Page);
    },
    dialog(record) {
      const full: DialogRecord = { ...record, seq: ++seq, tab: page.target.targetId };
      for (const l of [...listeners]) l.dialog?.(full);
    },
  };
}

/** The tab URL of {@link quietFacts}. */
export const QUIET_URL = "http://127.0.0.1:8000/a.html";

/**
 * The facts of an action window where nothing happened on {@link QUIET_URL}
 * (for the ActionResult builder), with `over` laid on the recording.
 */
export function quietFacts(over: Partial<WindowFacts["recording"]> = {}): WindowFacts {
  return {
    recording: {
      navigation: { changed: false, from: QUIET_URL, to: QUIET_URL, kind: null },
      newTabs: [],
      newTabCount: 0,
      console: { errors: [], warnings: 0 },
      pageErrors: [],
      network: { summary: { total: 0, byType: {}, failed: 0 }, requests: [], mutations: [] },
      dialogs: [],
      ...over,
    },
    downloads: { downloads: [], blocked: [] },
  };
}
