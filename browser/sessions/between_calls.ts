/**
 * What happened in a session while none of its actions ran: dialogs the policy answered,
 * uncaught page errors, main-frame navigations, renderer crashes, tabs the page opened or
 * closed (and the active tab moving with them), downloads that began, writes it sent, a person taking control
 * or handing it back and what they picked in the web console. The next result of the
 * session carries it once, as `sinceLastCall` (taken by the call pipeline, `mcp/pipeline.ts`,
 * through `browser/since_last_call.ts`), then it starts empty again.
 *
 * Attribution: while an action window is open (`action_window.ts` {@link BetweenCalls.hold}s
 * the buffer), the window's recorder owns what happens and its ActionResult reports it; at
 * any other time — no call running, or only reads running (they run beside actions) — the
 * event is kept here. So nothing is reported twice, and nothing is lost.
 *
 * Bounded: every kind keeps a few entries (texts cut, secret-aware) and counts the rest.
 *
 * @module
 */
import type { PageEventArgs } from "../../cdp/page.ts";
import { isWriteMethod, keysOnly, shownUrl } from "../network_writes.ts";
import { BoundedList } from "./bounded_list.ts";
import type { DialogEntry } from "./dialogs.ts";
import { capText, type SecretSpans } from "./log_text.ts";
import type { ConsoleEntry, NetworkEntry } from "./page_logs.ts";

/** A tab as the buffer sees it (a `Page`). */
export interface TabLike {
  readonly url: string;
  readonly isClosed: boolean;
  readonly mainFrameId: string;
  /** The tab's own CDP session (its OOPIFs have others). */
  readonly session: unknown;
  /** The response that delivered its document: its `method` (a form's POST) says how it is shown. */
  documentResponse?(): { method?: string } | undefined;
}

/**
 * How a navigation changed a tab: a new document, one restored from the back/forward cache
 * (shown as it was left, nothing run again), or the same one's URL (history API, hash).
 */
export type BetweenNavigationKind = "full_load" | "bfcache_restore" | "spa" | "hash";

/**
 * `sinceLastCall` of a result: what happened in the session outside any action since its
 * previous result. Every key is absent when empty; the object itself is absent when nothing
 * happened. Tab indexes are those of `tabs({ action: "list" })` when the result was made.
 */
export interface SinceLastCall {
  /** Dialogs the page raised, as the session's dialog policy answered them (first 5). */
  dialogs?: DialogEntry[];
  /** Uncaught exceptions' messages (first 3, 300 chars each). */
  pageErrors?: string[];
  /** Main-frame navigations of open tabs (the last 3). */
  navigations?: Array<{ tab: number; url: string; kind: BetweenNavigationKind }>;
  /** Tabs whose renderer crashed and that are still open (reload or navigate recovers them). */
  crashed?: Array<{ tab: number; url: string }>;
  /** Tabs the page opened (first 5); `index` absent when the tab closed since. */
  tabsOpened?: Array<{ index?: number; url: string }>;
  /** Tabs that closed without a call closing them (first 5). */
  tabsClosed?: Array<{ url: string }>;
  /** The active tab (the one calls act on) changed: a popup was followed, or it closed. */
  activeTab?: { index: number; url: string };
  /** Downloads that began (first 5); `saved: false` when the session cancelled them. */
  downloads?: Array<{ filename: string; url: string; saved: boolean }>;
  /** Tasks the agent handed a person (`ask_human`) that the person marked done (first 5). */
  asksDone?: Array<{ id: string; instruction: string }>;
  /**
   * Who has control now, when a person took it or handed it back in the web console
   * (`human`: your mutations answer `human-has-control` until they hand back).
   */
  control?: { by: "agent" | "human"; reason?: string };
  /** Refs (`pN`) of elements a person picked in the web console (the last 5; `picked()` lists them). */
  picked?: string[];
  /**
   * What the navigation policy stopped while no call ran (first 5): a form the page sent by
   * itself (its URL by its keys), a navigation or an iframe off the policy, a request carrying a
   * bound secret elsewhere. Nothing of it was sent.
   */
  stopped?: Array<{ what: string; url: string }>;
  /**
   * Writes (POST, PUT, PATCH, DELETE, …) the page sent by itself (first 5), a tab's or its
   * workers': the URL by its keys; `status` once answered, `pending` while not, `failed`
   * when it never got an answer. The server may have done their work.
   */
  writes?: Array<{ method: string; url: string; status?: number; pending?: true; failed?: true }>;
  /** How many of each kind were left out by the bounds above. */
  omitted?: Partial<Record<ListedKind, number>>;
}

type ListedKind =
  | "dialogs"
  | "pageErrors"
  | "navigations"
  | "crashed"
  | "tabsOpened"
  | "tabsClosed"
  | "downloads"
  | "asksDone"
  | "picked"
  | "stopped"
  | "writes";

/** Longest message kept, characters. */
const MAX_MESSAGE_CHARS = 300;
/** Longest URL kept, characters. */
const MAX_URL_CHARS = 200;

/** A session's news between calls (BrowserSession.between). */
export class BetweenCalls<T extends TabLike & object> {
  #spans: SecretSpans | undefined;
  /** Open action windows: while any is, events are theirs. */
  #held = 0;
  #dialogs = new BoundedList<NonNullable<SinceLastCall["dialogs"]>[number]>(5);
  /** Each told dialog's entry, by its record: a late change reaches the entry still held. */
  #shownDialogs = new WeakMap<DialogEntry, DialogEntry>();
  #pageErrors = new BoundedList<string>(3);
  #navigations = new BoundedList<{ tab: T; url: string; kind: BetweenNavigationKind }>(3, "last");
  #crashed = new BoundedList<T>(3);
  #opened = new BoundedList<T>(5);
  #closed = new BoundedList<string>(5);
  #downloads = new BoundedList<NonNullable<SinceLastCall["downloads"]>[number]>(5);
  #asksDone = new BoundedList<{ id: string; instruction: string }>(5);
  #activeChanged = false;
  #control: SinceLastCall["control"];
  #picked = new BoundedList<string>(5, "last");
  #stopped = new BoundedList<{ what: string; url: string }>(5);
  /** The log's entries of writes (updated in place as they are answered). */
  #writes = new BoundedList<NetworkEntry>(5);
  /** Each tab's last main-frame URL (kept while held too): where a navigation came from. */
  #urls = new WeakMap<T, string>();

  /** @param options.secretSpans Where secrets' values occur: a cut never keeps a prefix of one. */
  constructor(options: { secretSpans?: SecretSpans | undefined } = {}) {
    this.#spans = options.secretSpans;
  }

  /**
   * Gives what happens from now on to an action window, until the returned release is called
   * (idempotent). Windows may nest or overlap (counted).
   */
  hold(): () => void {
    this.#held++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#held--;
    };
  }

  /** True while an action window holds the buffer. */
  get held(): boolean {
    return this.#held > 0;
  }

  #cap(text: string, max: number): string {
    return capText(text, max, this.#spans);
  }

  /**
   * A tab's address as results show it (`reportedUrl`'s rule, `network_writes.ts`): by its keys
   * when a write fetched its document (a form's POST), cut at 200 chars clear of secrets.
   */
  #tabUrl(tab: T, url: string = tab.url): string {
    return this.#cap(shownUrl({ method: tab.documentResponse?.()?.method, url }), MAX_URL_CHARS);
  }

  /**
   * Any CDP event of a tab (the session's `#onPageEvent`), with the log entry the session's
   * logs made of it: keeps uncaught exceptions, main-frame navigations and renderer crashes.
   */
  pageEvent(
    tab: T,
    logged: ConsoleEntry | NetworkEntry | undefined,
    ...[method, params, session]: PageEventArgs
  ): void {
    switch (method) {
      case "Runtime.exceptionThrown":
        if (logged && "level" in logged) this.pageError(logged.text);
        break;
      case "Page.frameNavigated":
        if (params.frame.id !== tab.mainFrameId) break;
        this.navigated(tab, params.frame.url + (params.frame.urlFragment ?? ""), false, {
          restored: params.type === "BackForwardCacheRestore",
        });
        break;
      case "Page.navigatedWithinDocument":
        if (params.frameId === tab.mainFrameId) this.navigated(tab, params.url, true);
        break;
      case "Network.requestWillBeSent":
        // The navigation guard's stops are told as `stopped`; a CSP report is the browser's.
        if (
          !this.held && logged && "requestId" in logged && isWriteMethod(logged.method) &&
          !params.redirectResponse && params.type !== "CSPViolationReport"
        ) this.#writes.push(logged);
        break;
      case "Inspector.targetCrashed":
        // An out-of-process iframe's crash is not the tab's.
        if (session === tab.session) this.crashed(tab);
        break;
    }
  }

  /**
   * The navigation guard stopped a request while no call ran (`nav_guard.ts`): `form` a form
   * or a script's write after a submit (shown by its URL's keys: its values are the fields'),
   * `secret` a request carrying a bound secret (with `webSocket`, one seen as it went: a
   * WebSocket or WebTransport session), `subframe` an iframe's document.
   */
  stopped(
    b: {
      url: string;
      form?: boolean;
      reason?: string;
      secret?: string;
      subframe?: boolean;
      webSocket?: string;
    },
  ): void {
    if (this.held) return;
    const formish = b.form || b.reason === "submit";
    const what = b.secret !== undefined && b.webSocket
      ? `a ${
        b.webSocket === "webtransport" ? "WebTransport session" : "WebSocket"
      } carrying the secret ${b.secret} to an origin it is not bound to (no guard holds one: ` +
        "it may have been sent; leave the page, the value may need rotating)"
      : b.secret !== undefined
      ? `a request carrying the secret ${b.secret} to an origin it is not bound to`
      : formish
      ? "a form the page sent by itself (no call declared it)"
      : b.subframe
      ? "an iframe's document off the navigation policy"
      : "a navigation off the navigation policy";
    const url = formish || b.secret !== undefined ? keysOnly(b.url) : shownUrl({ url: b.url });
    this.#stopped.push({ what, url: this.#cap(url, MAX_URL_CHARS) });
  }

  /** A dialog the session answered (`dialogs.ts`). */
  dialog(d: DialogEntry): void {
    if (this.held) return;
    const shown: DialogEntry = {
      kind: d.kind,
      message: this.#cap(d.message, MAX_MESSAGE_CHARS),
      handledAs: d.handledAs,
      ...(d.raised ? { raised: true as const } : {}),
      ...(d.armed ? { armed: true as const } : {}),
      ...(d.frame ? { frame: this.#cap(d.frame, MAX_URL_CHARS) } : {}),
      ...(d.text !== undefined ? { text: this.#cap(d.text, 100) } : {}),
    };
    this.#shownDialogs.set(d, shown);
    this.#dialogs.push(shown);
  }

  /** A dialog's record changed after it was told (its answer did not arrive: `dialogs.ts`). */
  dialogChanged(d: DialogEntry): void {
    const shown = this.#shownDialogs.get(d);
    if (!shown) return;
    shown.handledAs = d.handledAs;
    if (d.undelivered) shown.undelivered = true;
  }

  /** An uncaught exception's message. */
  pageError(text: string): void {
    if (this.held) return;
    this.#pageErrors.push(this.#cap(text, MAX_MESSAGE_CHARS));
  }

  /** A tab joined the session, showing its current document (its first navigation is no news). */
  tabSeen(tab: T): void {
    if (!this.#urls.has(tab)) this.#urls.set(tab, tab.url);
  }

  /**
   * The tab's main frame went to `url`: a new document, or (`sameDocument`) the history API or
   * a fragment; `restored`: a document shown again from the back/forward cache. A tab's first
   * document (from nothing or `about:blank`) is part of its opening, not news.
   */
  navigated(
    tab: T,
    url: string,
    sameDocument: boolean,
    options: { restored?: boolean } = {},
  ): void {
    const from = this.#urls.get(tab) ?? "";
    this.#urls.set(tab, url);
    if (this.held || from === "" || from === "about:blank") return;
    if (sameDocument && url === from) return;
    const kind: BetweenNavigationKind = !sameDocument
      ? options.restored ? "bfcache_restore" : "full_load"
      : stripHash(url) === stripHash(from)
      ? "hash"
      : "spa";
    this.#navigations.push({ tab, url: this.#tabUrl(tab, url), kind });
  }

  /** The tab's renderer crashed. */
  crashed(tab: T): void {
    if (!this.held) this.#crashed.push(tab);
  }

  /** The page opened a tab. */
  tabOpened(tab: T): void {
    if (!this.held) this.#opened.push(tab);
  }

  /** A tab closed without a call closing it. */
  tabClosed(tab: T): void {
    if (!this.held) this.#closed.push(tab.url ? this.#tabUrl(tab) : "about:blank");
  }

  /** The active tab changed without a call choosing it (a popup followed, the active tab closed). */
  activeChanged(): void {
    if (!this.held) this.#activeChanged = true;
  }

  /** A download began; `saved`: the session kept it (else it was cancelled). */
  download(d: { filename: string; url: string; saved: boolean }): void {
    if (this.held) return;
    this.#downloads.push({
      filename: this.#cap(d.filename, MAX_URL_CHARS),
      url: this.#cap(d.url, MAX_URL_CHARS),
      saved: d.saved,
    });
  }

  /**
   * A person marked an ask done in the console. Kept whether or not an action window is open:
   * no action's result reports it.
   */
  askDone(ask: { id: string; instruction: string }): void {
    this.#asksDone.push({ id: ask.id, instruction: this.#cap(ask.instruction, MAX_MESSAGE_CHARS) });
  }

  /**
   * A person took control (`human`) or handed it back (`agent`) in the web console. Kept
   * whatever window is open: no action's result reports it.
   */
  control(by: "agent" | "human", reason?: string): void {
    this.#control = { by, ...(reason ? { reason } : {}) };
  }

  /** A person picked an element in the web console (its `pN`); kept like {@link control}. */
  picked(ref: string): void {
    this.#picked.push(ref);
  }

  /**
   * What happened since the last take, or `undefined` when nothing did; empties the buffer.
   * Navigations and crashes of tabs closed since are stale and left out (their closing is the
   * news, when the page closed them).
   *
   * @param view.indexOf A tab's index as `tabs` lists them (-1: not listed).
   * @param view.active The session's active tab now.
   */
  take(view: { indexOf(tab: T): number; active: T | undefined }): SinceLastCall | undefined {
    const gone = (tab: T) => tab.isClosed || view.indexOf(tab) < 0;
    this.#navigations.dropWhere((n) => gone(n.tab));
    this.#crashed.dropWhere(gone);
    const out: SinceLastCall = {};
    const omitted: Partial<Record<ListedKind, number>> = {};
    const put = <K extends ListedKind, I>(
      key: K,
      list: BoundedList<I>,
      shape: (item: I) => NonNullable<SinceLastCall[K]>[number],
    ) => {
      if (!list.count) return;
      (out as Record<string, unknown>)[key] = list.items.map(shape);
      if (list.omitted) omitted[key] = list.omitted;
      list.clear();
    };
    put("dialogs", this.#dialogs, (d) => d);
    put("pageErrors", this.#pageErrors, (e) => e);
    put("navigations", this.#navigations, (n) => ({
      tab: view.indexOf(n.tab),
      url: n.url,
      kind: n.kind,
    }));
    put("crashed", this.#crashed, (tab) => ({
      tab: view.indexOf(tab),
      url: this.#tabUrl(tab),
    }));
    put("tabsOpened", this.#opened, (tab) => {
      const index = gone(tab) ? -1 : view.indexOf(tab);
      return { ...(index >= 0 ? { index } : {}), url: this.#tabUrl(tab) };
    });
    put("tabsClosed", this.#closed, (url) => ({ url }));
    const active = view.active;
    if (this.#activeChanged && active && !gone(active)) {
      out.activeTab = { index: view.indexOf(active), url: this.#tabUrl(active) };
    }
    this.#activeChanged = false;
    put("downloads", this.#downloads, (d) => d);
    put("asksDone", this.#asksDone, (a) => a);
    if (this.#control) out.control = this.#control;
    this.#control = undefined;
    put("picked", this.#picked, (ref) => ref);
    put("stopped", this.#stopped, (s) => s);
    this.#writes.dropWhere((w) => !!w.blockedByPolicy);
    put("writes", this.#writes, (w) => ({
      method: w.method,
      url: this.#cap(keysOnly(w.url), MAX_URL_CHARS),
      ...(w.status !== undefined ? { status: w.status } : {}),
      ...(!w.failed && w.status === undefined ? { pending: true as const } : {}),
      ...(w.failed && w.status === undefined ? { failed: true as const } : {}),
    }));
    if (Object.keys(omitted).length) out.omitted = omitted;
    return Object.keys(out).length ? out : undefined;
  }
}

function stripHash(url: string): string {
  const i = url.indexOf("#");
  return i < 0 ? url : url.slice(0, i);
}
