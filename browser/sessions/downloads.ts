/**
 * Downloads of one browxai session: its browser context's download
 * behavior, the files it saved under `<downloads>/<session>/` (`<downloads>`: `.downloads` in
 * the workspace for stdio, `.clients/<namespace>/downloads` for an HTTP client),
 * and the gate that decides each download as it begins.
 *
 * A context denies downloads (Chromium cancels them itself, still telling us
 * they began) except while something allows them: an action window that
 * declared `download: true`, or the session's capture (`downloads_capture`).
 * Allowed downloads are written by Chromium under a guid name into a staging
 * folder (`<downloads>/.incoming/<session>/`) and moved to their suggested
 * name (deduplicated) once complete, so the session folder only ever holds
 * finished files. Its shapes are in `download_types.ts`.
 *
 * @module
 */
import { join } from "node:path";
import type { Protocol } from "../../cdp/types.ts";
import { safeMkdir, safeMove, safeRemove } from "../../storage/safe_fs.ts";
import type { BrowserSession } from "./browser_session.ts";
import { freeName, reserveName, safeFileName, shortUrl } from "./download_names.ts";
import { originOf } from "../../policy/hosts.ts";
import { SessionSlot } from "./session_slots.ts";
import type { BeganDownload, DownloadGate, DownloadRecord } from "./download_types.ts";

/**
 * Largest file one download may write, bytes (1 GiB): a bigger one is cancelled as soon as
 * its size (Content-Length) or its bytes so far pass it, so a page cannot fill the
 * workspace's disk through an allowed download.
 */
export const DOWNLOAD_MAX_BYTES = 1024 ** 3;

/** The session's downloads state (set by {@link startDownloads}). */
const DOWNLOADS = new SessionSlot<SessionDownloads>("downloads");

/** The downloads state of a session (undefined before {@link startDownloads}). */
export function downloadsOf(session: BrowserSession): SessionDownloads | undefined {
  return session.slots.get(DOWNLOADS);
}

/**
 * Sets up downloads for a new session: its context denies downloads, with
 * events on. Never fails the session: a browser that refuses (an old one,
 * attached) leaves downloads to the browser's own behavior, logged.
 */
export async function startDownloads(
  session: BrowserSession,
  workspace: string,
  root = ".downloads",
): Promise<void> {
  const d = new SessionDownloads(session, workspace, root);
  session.slots.set(DOWNLOADS, d);
  await d.start().catch((e) =>
    console.error(`browxai: downloads of session "${session.id}" not set up:`, e)
  );
}

/**
 * Undoes {@link startDownloads} before a session closes: an attached
 * browser's context gets Chromium's default behavior back.
 */
export async function stopDownloads(session: BrowserSession): Promise<void> {
  await session.slots.get(DOWNLOADS)?.stop();
}

/** One session's downloads. CDP: `Browser.setDownloadBehavior`, `Browser.cancelDownload`, events `Browser.downloadWillBegin`, `Browser.downloadProgress`. */
export class SessionDownloads {
  #session: BrowserSession;
  #workspace: string;
  /** The downloads folder, relative to the workspace (e.g. `.downloads`). */
  #root: string;
  #records: DownloadRecord[] = [];
  #byGuid = new Map<string, { record: DownloadRecord; finish: () => void }>();
  /** Guids this session saw begin and did not keep (to clean up their staging file). */
  #dropped = new Set<string>();
  #reserved = new Set<string>();
  /** The latest progress of downloads not decided yet (their owner check is in flight). */
  #early = new Map<string, Protocol.Browser.DownloadProgressEvent>();
  #seq = 0;
  #gate: DownloadGate | undefined;
  #capture = false;
  #windowAllows = false;
  #applied: "deny" | "allowAndName" | undefined;
  #applying: Promise<void> = Promise.resolve();
  #unsubs: Array<() => void> = [];
  /** Where Chromium writes allowed downloads (guid names), resolved through the path guard. */
  #staging = "";

  /** @param root The downloads folder, relative to the workspace (default `.downloads`). */
  constructor(session: BrowserSession, workspace: string, root = ".downloads") {
    this.#session = session;
    this.#workspace = workspace;
    this.#root = root;
  }

  /** `$BROWX_WORKSPACE/<downloads>/<session>` (not resolved). */
  get folder(): string {
    return join(this.#workspace, this.#root, this.#session.id);
  }

  /** True while every download during an action is saved (`downloads_capture`). */
  get capture(): boolean {
    return this.#capture;
  }

  /** Subscribes to the browser's download events and denies downloads. */
  async start(): Promise<void> {
    const conn = this.#session.browser.connection;
    this.#unsubs.push(
      conn.on("Browser.downloadWillBegin", (e) => void this.#onBegin(e).catch(logError), null),
      conn.on("Browser.downloadProgress", (e) => void this.#onProgress(e).catch(logError), null),
    );
    await this.#apply();
  }

  /** Unsubscribes; an attached browser's context gets the default behavior back. */
  async stop(): Promise<void> {
    for (const u of this.#unsubs.splice(0)) u();
    if (this.#session.mode === "attached" && !this.#session.crashed) {
      await this.#session.browser.connection.send("Browser.setDownloadBehavior", {
        behavior: "default",
        ...this.#contextParam(),
      }, { timeoutMs: 2000 }).catch(() => {});
    }
  }

  /** Turns the session's capture on or off (allows downloads while on). */
  async setCapture(on: boolean): Promise<void> {
    this.#capture = on;
    await this.#apply();
  }

  /**
   * Installs the gate of an action window (one at a time: actions of a
   * session are exclusive). `allow`: downloads may be saved, so Chromium must
   * write them; otherwise the deny behavior stays and cancels them.
   */
  async openGate(gate: DownloadGate, allow: boolean): Promise<void> {
    this.#gate = gate;
    this.#windowAllows = allow;
    await this.#apply();
  }

  /** Removes the gate; downloads already admitted keep going. */
  async closeGate(gate: DownloadGate): Promise<void> {
    if (this.#gate !== gate) return;
    this.#gate = undefined;
    this.#windowAllows = false;
    await this.#apply();
  }

  /** Saved and in-progress downloads, oldest first (failed ones are left out). */
  list(): DownloadRecord[] {
    return this.#records.filter((r) => r.state !== "failed").map((r) => ({ ...r }));
  }

  /** A saved download by id. */
  get(id: string): DownloadRecord | undefined {
    const r = this.#records.find((r) => r.id === id && r.state !== "failed");
    return r && { ...r };
  }

  #contextParam(): { browserContextId?: string } {
    const id = this.#session.browserContextId;
    return id ? { browserContextId: id } : {};
  }

  /** Applies the behavior the state calls for, in order, skipping no-ops. */
  #apply(): Promise<void> {
    const run = async () => {
      const want = this.#capture || this.#windowAllows ? "allowAndName" : "deny";
      if (want === this.#applied || this.#session.closed) return;
      if (want === "allowAndName") {
        // Chromium writes here: a real folder (0700) made through the guard, never a link.
        this.#staging = await safeMkdir(
          { workspace: this.#workspace },
          `${this.#root}/.incoming/${this.#session.id}`,
        );
      }
      await this.#session.browser.connection.send("Browser.setDownloadBehavior", {
        behavior: want,
        ...this.#contextParam(),
        ...(want === "allowAndName" ? { downloadPath: this.#staging } : {}),
        eventsEnabled: true,
      });
      this.#applied = want;
    };
    const p = this.#applying.then(run, run);
    this.#applying = p.catch(() => {});
    return p;
  }

  /** True when the frame that started a download is in this session's browser context. */
  async #owns(frameId: string): Promise<boolean> {
    // A session without a context of its own has the whole connection.
    if (!this.#session.browserContextId) return true;
    // A `target=_blank` link's tab whose navigation became a download is often closed before
    // `Browser.downloadWillBegin` is read, and `Target.getTargetInfo` no longer knows it: the
    // router still does, for a while.
    const known = this.#session.targetContext(frameId);
    if (known) return known.browserContextId === this.#session.browserContextId;
    // A tab the page opened for the download may not be routed yet: ask.
    try {
      const { targetInfo } = await this.#session.browser.connection.send(
        "Target.getTargetInfo",
        { targetId: frameId },
        { timeoutMs: 2000 },
      );
      return targetInfo.browserContextId === this.#session.browserContextId;
    } catch {
      return false;
    }
  }

  async #onBegin(e: Protocol.Browser.DownloadWillBeginEvent) {
    const known = this.#session.tabs.some((p) => p.mainFrameId === e.frameId || p.frame(e.frameId));
    if (!known) {
      this.#early.set(e.guid, {
        guid: e.guid,
        totalBytes: 0,
        receivedBytes: 0,
        state: "inProgress",
      });
      const owns = await this.#owns(e.frameId);
      const early = this.#early.get(e.guid);
      this.#early.delete(e.guid);
      if (!owns) return;
      this.#decide(e);
      if (early && early.state !== "inProgress") await this.#onProgress(early);
      return;
    }
    this.#decide(e);
  }

  #decide(e: Protocol.Browser.DownloadWillBeginEvent) {
    const gate = this.#gate;
    const began: BeganDownload = {
      guid: e.guid,
      url: e.url,
      suggestedFilename: e.suggestedFilename,
      frameId: e.frameId,
    };
    const url = shortUrl(e.url);
    const admitted = gate?.admit(began) === true;
    // Outside an action window (which holds the news and reports its own downloads).
    this.#session.between.download({ filename: e.suggestedFilename, url, saved: admitted });
    if (!admitted) {
      this.#dropped.add(e.guid);
      // Under deny Chromium cancels it by itself; otherwise we must.
      if (this.#applied === "allowAndName") {
        this.#session.browser.connection.send("Browser.cancelDownload", {
          guid: e.guid,
          ...this.#contextParam(),
        }).catch(() => {});
      }
      gate?.blocked({ filename: e.suggestedFilename, url, urlOrigin: originOf(e.url) ?? "null" });
      return;
    }
    if (!gate) return;
    const filename = reserveName(safeFileName(e.suggestedFilename), this.#reserved);
    const record: DownloadRecord = {
      id: `d${++this.#seq}`,
      filename,
      path: join(this.folder, filename),
      sizeBytes: 0,
      url,
      urlOrigin: originOf(e.url) ?? "null",
      state: "in-progress",
      startedAt: Date.now(),
    };
    let finish!: () => void;
    const done = new Promise<void>((resolve) => finish = resolve);
    this.#records.push(record);
    this.#byGuid.set(e.guid, { record, finish });
    gate.saved(record, done);
  }

  async #onProgress(e: Protocol.Browser.DownloadProgressEvent) {
    if (this.#early.has(e.guid)) {
      this.#early.set(e.guid, e);
      return;
    }
    const staged = this.#staging ? `${this.#root}/.incoming/${this.#session.id}/${e.guid}` : "";
    const drop = () => safeRemove({ workspace: this.#workspace }, staged).catch(() => false);
    if (this.#dropped.has(e.guid)) {
      if (e.state === "inProgress") return;
      this.#dropped.delete(e.guid);
      if (staged) await drop();
      return;
    }
    const entry = this.#byGuid.get(e.guid);
    if (!entry) return;
    const { record, finish } = entry;
    record.sizeBytes = e.receivedBytes;
    if (e.state === "inProgress") {
      if (!record.failure && Math.max(e.totalBytes, e.receivedBytes) > DOWNLOAD_MAX_BYTES) {
        const size = e.totalBytes > DOWNLOAD_MAX_BYTES ? `${gib(e.totalBytes)} GiB` : "more";
        record.failure = `it is ${size}, past browxai's limit of ${
          gib(DOWNLOAD_MAX_BYTES)
        } GiB per download: it was cancelled`;
        this.#session.browser.connection.send("Browser.cancelDownload", {
          guid: e.guid,
          ...this.#contextParam(),
        }).catch(() => {});
      }
      return;
    }
    this.#byGuid.delete(e.guid);
    try {
      if (e.state === "canceled") throw new Error("cancelled");
      await this.#finalize(record, staged);
      record.state = "complete";
    } catch (error) {
      record.state = "failed";
      if (e.state !== "canceled") {
        console.error(`browxai: download "${record.filename}" could not be kept:`, error);
      }
      if (staged) await drop();
    } finally {
      this.#reserved.delete(record.filename);
      finish();
    }
  }

  /**
   * Moves a completed download from staging to its (deduplicated) name in the session folder,
   * through the guard: a folder or file swapped for a link must not carry files out.
   */
  async #finalize(record: DownloadRecord, staged: string): Promise<void> {
    const area = `${this.#root}/${this.#session.id}`;
    const folder = await safeMkdir({ workspace: this.#workspace }, area);
    const name = await freeName(folder, record.filename, this.#reserved);
    const target = await safeMove({ workspace: this.#workspace }, staged, `${area}/${name}`);
    if (name !== record.filename) {
      this.#reserved.delete(record.filename);
      record.filename = name;
    }
    record.path = target;
    record.sizeBytes = (await Deno.lstat(target)).size;
  }
}

/** Bytes as GiB, one decimal. */
function gib(bytes: number): string {
  return (bytes / 1024 ** 3).toFixed(1).replace(/\.0$/, "");
}

function logError(error: unknown): void {
  console.error("browxai: download event handling failed:", error);
}
