/**
 * What an action window's result says of its traffic and dialogs (`Recording.network` and
 * `Recording.dialogs`): requests counted by type, the notable ones listed (scripts' and
 * documents' requests, failures), writes summarized by their keys with the keys of their JSON
 * answer, and the dialogs listed (a flood cut short).
 *
 * CDP: `Network.getResponseBody` (a write's JSON answer, for its keys).
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import type { DialogRecord } from "../sessions/dialogs.ts";
import type { NetworkEntry } from "../sessions/page_logs.ts";
import { isWriteMethod, keysOnly, reportedUrl } from "../network_writes.ts";
import {
  BY_TYPE,
  MAX_DIALOG_MESSAGE,
  MAX_DIALOGS,
  type Mutation,
  type Recording,
} from "./recording.ts";

/** Whether a window's `i`-th dialog is listed in the result (see `Recording.dialogs`). */
const listed = (d: DialogRecord, i: number) => i < MAX_DIALOGS || d.armed || d.undelivered;

/**
 * The window's `requests` as its result shows them (without `routed`); `writeSessions`: the
 * session each write's request went on, by request id (its answer's keys are read there).
 */
export async function networkSummary(
  requests: NetworkEntry[],
  writeSessions: ReadonlyMap<string, CdpSession>,
): Promise<Omit<Recording["network"], "routed">> {
  const byType: Record<string, number> = {};
  for (const r of requests) {
    const t = BY_TYPE[r.type] ?? "other";
    byType[t] = (byType[t] ?? 0) + 1;
  }
  const notable = requests.filter((r) =>
    r.type === "XHR" || r.type === "Fetch" || r.type === "Document" || r.failed
  );
  const mutations: Mutation[] = [];
  for (const r of requests.filter((r) => isWriteMethod(r.method)).slice(0, 10)) {
    // No answer yet (no status, not failed): it may still reach the server; not a failure.
    const pending = !r.failed && r.status === undefined;
    const m: Mutation = {
      method: r.method,
      urlPattern: reportedUrl(r.url, r.method),
      // The server's answer decides: a body cut off after it (a popup closing, "canceled")
      // does not undo a write the server took.
      ok: r.status !== undefined && r.status < 400,
      ...(pending ? { pending: true as const } : {}),
      ...(r.status !== undefined ? { status: r.status } : {}),
      ...(r.durationMs !== undefined ? { durationMs: r.durationMs } : {}),
    };
    const shape = await responseShape(writeSessions.get(r.requestId), r);
    if (shape) m.responseShape = shape;
    mutations.push(m);
  }
  return {
    summary: {
      total: requests.length,
      byType,
      failed: requests.filter((r) => r.failed).length,
    },
    requests: notable.slice(0, 10).map((r) => ({
      method: r.method,
      // Stopped before it left: by its keys, as the error's blockedUrl (a GET form's
      // request carries what was typed in its fields).
      url: r.blockedByPolicy ? keysOnly(r.url) : reportedUrl(r.url, r.method),
      type: r.type,
      ...(r.status !== undefined ? { status: r.status } : {}),
      ...(r.durationMs !== undefined ? { ms: r.durationMs } : {}),
      ...(r.failed ? { failed: true } : {}),
      ...(r.download ? { download: true as const } : {}),
      // The guard's reason is in its own notes.
      ...(r.errorText && !r.blockedByPolicy ? { errorText: r.errorText } : {}),
      ...(r.blockedByPolicy ? { blockedByPolicy: true } : {}),
      ...(!r.failed && r.status === undefined ? { pending: true as const } : {}),
    })),
    mutations,
  };
}

/** The keys of a write's JSON answer (of its first item when a list), or undefined. */
async function responseShape(
  cdp: CdpSession | undefined,
  r: NetworkEntry,
): Promise<string[] | undefined> {
  if (!cdp || !r.done || r.failed || !/json/i.test(r.mimeType ?? "")) return undefined;
  try {
    const body = await cdp.send("Network.getResponseBody", { requestId: r.requestId }, {
      timeoutMs: 2000,
    });
    if (body.body.length > 1_000_000) return undefined;
    const text = body.base64Encoded ? atob(body.body) : body.body;
    const value = JSON.parse(text);
    const sample = Array.isArray(value) ? value[0] : value;
    return sample && typeof sample === "object" ? Object.keys(sample).slice(0, 30) : undefined;
  } catch {
    return undefined;
  }
}

/** The window's dialogs as its result lists them (see `Recording.dialogs`). */
export function dialogList(dialogs: DialogRecord[]): Pick<Recording, "dialogs" | "dialogsOmitted"> {
  return {
    // A page raising a flood of dialogs (hundreds of 4 KB confirms) must not flood the result.
    ...(dialogs.length > MAX_DIALOGS
      ? {
        dialogsOmitted: dialogs.length - dialogs.filter(listed).length,
      }
      : {}),
    dialogs: dialogs.filter(listed).map((d) => ({
      kind: d.kind,
      message: d.message.length > MAX_DIALOG_MESSAGE
        ? `${d.message.slice(0, MAX_DIALOG_MESSAGE)}…`
        : d.message,
      handledAs: d.handledAs,
      ...(d.raised ? { raised: true } : {}),
      ...(d.armed ? { armed: true } : {}),
      ...(d.frame ? { frame: d.frame } : {}),
      ...(d.text !== undefined ? { text: d.text.slice(0, 100) } : {}),
      ...(d.undelivered ? { undelivered: true } : {}),
    })),
  };
}
