/**
 * The machinery of `upload_file`: the path checks (every path through the path guard before
 * anything is attached), the private copies Chromium reads, and attaching them to a file input
 * or through the file chooser a button opens.
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import type { Page } from "../../cdp/page.ts";
import type { Protocol } from "../../cdp/types.ts";
import { PathGuardError, RESERVED_AREAS } from "../../policy/path_guard.ts";
import { type SafeOpenFile, safeOpenRead } from "../../storage/safe_fs.ts";
import { pointerAction } from "./pointer.ts";
import { ToolError } from "../tool_error.ts";
import type { RemoteHandle } from "../injected/mod.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import { copyForUpload } from "../sessions/upload_copies.ts";
import { within } from "../poll.ts";

/** How long a click may take to open a file chooser, ms. */
const CHOOSER_WAIT_MS = 3000;
/** Most files one call attaches. */
export const MAX_FILES = 20;

/** What the input holds after the upload. */
interface HeldFile {
  name: string;
  sizeBytes: number;
  type: string;
}

/**
 * Opens every path through the path guard (no link at any component, a
 * regular file with one name: a hard link is refused, copy the file instead).
 * Reports every bad path at once, before anything is attached.
 *
 * @returns Absolute, canonical paths in the given order.
 * @throws ToolError refused (outside the workspace, traversal, …) or
 *   not-found (missing files), naming each path.
 */
export async function checkUploadPaths(
  workspace: string,
  paths: string[],
  reserved: readonly string[] = RESERVED_AREAS,
  allowed: readonly string[] = [],
): Promise<string[]> {
  const resolved: string[] = [];
  const refused: string[] = [];
  const missing: string[] = [];
  for (const p of paths) {
    try {
      const file = await safeOpenRead({ workspace, reserved, allowed }, p);
      await file.handle.close();
      resolved.push(file.path);
    } catch (e) {
      if (!(e instanceof PathGuardError)) throw e;
      if (e.reason === "missing") missing.push(JSON.stringify(p));
      else refused.push(e.message);
    }
  }
  if (refused.length) {
    throw new ToolError(
      "refused",
      `Nothing was attached: ${refused.join("; ")}${
        missing.length ? `; also missing: ${missing.join(", ")}` : ""
      }`,
      `upload only files inside the workspace (${workspace}), by a path relative to it`,
      { refusedPaths: refused.length, missingPaths: missing.length },
    );
  }
  if (missing.length) {
    throw new ToolError(
      "not-found",
      `Nothing was attached: no file at ${missing.join(", ")} in the workspace (${workspace})`,
      "check the names (paths are relative to the workspace), or put the files there first",
      { missingPaths: missing.length },
    );
  }
  return resolved;
}

/**
 * Copies each checked file, opened through the guard again, to a private copy Chromium reads
 * (see `upload_copies.ts`): a file swapped for a link after the check is refused here, or
 * copied as it was opened, never followed.
 *
 * @throws ToolError refused when a file changed into something the guard refuses.
 */
export async function privateCopies(
  workspace: string,
  session: BrowserSession,
  files: string[],
): Promise<string[]> {
  const out: string[] = [];
  for (const path of files) {
    let file: SafeOpenFile;
    try {
      file = await safeOpenRead({ workspace }, path);
    } catch (e) {
      if (!(e instanceof PathGuardError)) throw e;
      throw new ToolError(
        "refused",
        `Nothing was attached: ${e.message}`,
        "upload a real file inside the workspace",
      );
    }
    try {
      out.push(await copyForUpload(session, file, path.split(/[\\/]/).pop()!));
    } finally {
      await file.handle.close();
    }
  }
  return out;
}

/**
 * Attaches through the input itself, or through the chooser its click opens (waited for up
 * to `deadline`, epoch ms, or until the call's `signal` aborts: then its reason is thrown).
 */
export async function attach(
  session: BrowserSession,
  page: Page,
  handle: RemoteHandle,
  files: string[],
  time: { deadline: number; signal: AbortSignal | undefined },
): Promise<{ input: string; files: HeldFile[] }> {
  const { deadline, signal } = time;
  const info = await inputInfo(handle.session, handle.objectId);
  if (info.fileInput) {
    checkMultiple(info.multiple, files.length, info.describe);
    if (info.disabled) {
      throw new ToolError(
        "not-enabled",
        `The file input ${info.describe} is disabled; nothing was attached`,
        "enable it first (the page may need another field filled), then retry",
      );
    }
    // Sets the files and fires input/change as a user's choice would.
    await handle.session.send("DOM.setFileInputFiles", { files, objectId: handle.objectId });
    return { input: info.describe, files: await heldFiles(handle.session, handle.objectId) };
  }
  const chooser = await openChooser(session, page, handle.session, async () => {
    await pointerAction(page, handle, { press: {}, enabled: true, deadline, signal });
  }, { until: () => Math.min(deadline, Date.now() + CHOOSER_WAIT_MS), signal });
  if (!chooser) {
    throw new ToolError(
      "not-actionable",
      `Clicking ${info.describe} opened no file chooser; nothing was attached`,
      'target the <input type=file> itself (hidden ones work, e.g. selector: "input[type=file]"), or the control that opens the chooser',
    );
  }
  const { event, cdp } = chooser;
  if (event.backendNodeId === undefined) {
    throw new ToolError(
      "not-actionable",
      "The page opened a file picker that belongs to no <input type=file> (File System Access API); nothing was attached",
      "look for an <input type=file> on the page and target it",
    );
  }
  const { object } = await cdp.send("DOM.resolveNode", { backendNodeId: event.backendNodeId });
  const input = await inputInfo(cdp, object.objectId!);
  checkMultiple(event.mode === "selectMultiple", files.length, input.describe);
  await cdp.send("DOM.setFileInputFiles", { files, backendNodeId: event.backendNodeId });
  const held = await heldFiles(cdp, object.objectId!);
  cdp.send("Runtime.releaseObject", { objectId: object.objectId! }).catch(() => {});
  return { input: input.describe, files: held };
}

function checkMultiple(multiple: boolean, count: number, describe: string): void {
  if (!multiple && count > 1) {
    throw new ToolError(
      "invalid-argument",
      `The file input ${describe} takes one file, and ${count} were given; nothing was attached`,
      "pass a single path",
    );
  }
}

/**
 * Runs `click` with file choosers intercepted on the tab (and the element's
 * frame session) and resolves with the first one opened, or undefined by
 * `until()` (epoch ms, asked once the click is done: it may wait for the
 * element); `signal` (the call's) ends the wait with its reason. CDP:
 * `Page.setInterceptFileChooserDialog`, event `Page.fileChooserOpened`.
 */
async function openChooser(
  session: BrowserSession,
  page: Page,
  frameSession: CdpSession,
  click: () => Promise<void>,
  wait: { until: () => number; signal: AbortSignal | undefined },
): Promise<{ event: Protocol.Page.FileChooserOpenedEvent; cdp: CdpSession } | undefined> {
  const sessions = [...new Set([page.session, frameSession])];
  let resolveOpened!: (v: { event: Protocol.Page.FileChooserOpenedEvent; cdp: CdpSession }) => void;
  const opened = new Promise<{ event: Protocol.Page.FileChooserOpenedEvent; cdp: CdpSession }>(
    (resolve) => resolveOpened = resolve,
  );
  const unlisten = session.listen({
    event(_page, method, params, cdp) {
      if (method === "Page.fileChooserOpened") {
        resolveOpened({ event: params, cdp });
      }
    },
  });
  try {
    await Promise.all(
      sessions.map((s) => s.send("Page.setInterceptFileChooserDialog", { enabled: true })),
    );
    await click();
    return await within(opened, wait.until() - Date.now(), wait.signal);
  } finally {
    unlisten();
    // Choosers the page opens later are the browser's again (headless: none shown).
    for (const s of sessions) {
      s.send("Page.setInterceptFileChooserDialog", { enabled: false }).catch(() => {});
    }
  }
}

/** Whether a node is a file input, and how to name it. CDP: `Runtime.callFunctionOn`. */
async function inputInfo(
  cdp: CdpSession,
  objectId: string,
): Promise<{ fileInput: boolean; multiple: boolean; disabled: boolean; describe: string }> {
  const r = await cdp.send("Runtime.callFunctionOn", {
    objectId,
    functionDeclaration: `function() {
      const el = this;
      const tag = (el.localName || "node");
      const id = el.id ? "#" + el.id : "";
      const name = el.getAttribute && el.getAttribute("name");
      const fileInput = el instanceof HTMLInputElement && el.type === "file";
      return {
        fileInput,
        multiple: fileInput && el.multiple,
        disabled: fileInput && el.disabled,
        describe: tag + (fileInput ? "[type=file]" : "") + id + (name && !id ? "[name=" + name + "]" : ""),
      };
    }`,
    returnByValue: true,
  });
  return r.result.value;
}

/** The files an input holds: name, size, type. CDP: `Runtime.callFunctionOn`. */
async function heldFiles(cdp: CdpSession, objectId: string): Promise<HeldFile[]> {
  const r = await cdp.send("Runtime.callFunctionOn", {
    objectId,
    functionDeclaration: `function() {
      return Array.from(this.files || [], (f) => ({ name: f.name, sizeBytes: f.size, type: f.type }));
    }`,
    returnByValue: true,
  });
  return r.result.value ?? [];
}
