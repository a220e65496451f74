/**
 * The shapes of a session's downloads (`downloads.ts`): a saved file's record, a download as it
 * begins or as it was cancelled, the entry results list, and the gate an action window installs.
 *
 * @module
 */

/** A file the session downloaded (or is downloading). */
export interface DownloadRecord {
  /** Session-unique id (`d1`, `d2`, …) for `download_get`. */
  id: string;
  /** The file's name in the session folder (the suggested name, deduplicated). */
  filename: string;
  /** Absolute path of the file (final once `state` is `complete`). */
  path: string;
  /** Bytes on disk (received so far while in progress). */
  sizeBytes: number;
  /** The URL it came from (`data:` URLs shortened). */
  url: string;
  /** The origin of that URL (`null` for opaque ones). */
  urlOrigin: string;
  state: "in-progress" | "complete" | "failed";
  /** Why it failed, when browxai stopped it (e.g. past `DOWNLOAD_MAX_BYTES`, downloads.ts). */
  failure?: string;
  /** When it began, epoch ms. */
  startedAt: number;
}

/** A download that began and was cancelled: nothing of it was kept. */
export interface BlockedDownload {
  filename: string;
  url: string;
  urlOrigin: string;
}

/** A download as it begins (`Browser.downloadWillBegin`). */
export interface BeganDownload {
  guid: string;
  url: string;
  suggestedFilename: string;
  frameId: string;
}

/** A download as results list it (the ActionResult, `downloads_list`); `state` only while still downloading. */
export type DownloadEntry =
  & Pick<DownloadRecord, "id" | "filename" | "path" | "sizeBytes" | "url" | "urlOrigin">
  & { state?: "in-progress" };

/** The entry results list for a record that did not fail. */
export function downloadEntry(r: DownloadRecord): DownloadEntry {
  return {
    id: r.id,
    filename: r.filename,
    path: r.path,
    sizeBytes: r.sizeBytes,
    url: r.url,
    urlOrigin: r.urlOrigin,
    ...(r.state === "in-progress" ? { state: "in-progress" as const } : {}),
  };
}

/** Decides the downloads that begin while it is installed (an action window). */
export interface DownloadGate {
  /** True: save this download; false: cancel it. */
  admit(download: BeganDownload): boolean;
  /** A download this gate admitted; `done` settles when it completed or failed. */
  saved(record: DownloadRecord, done: Promise<void>): void;
  /** A download that was cancelled (by this gate, or by the deny behavior). */
  blocked(download: BlockedDownload): void;
}
