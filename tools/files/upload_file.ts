/**
 * `upload_file`: attach workspace files to a file input, directly (also a
 * hidden `<input type=file>`) or through the file chooser a button opens.
 *
 * @module
 */
import { z } from "zod";
import type { CdpSession } from "../../cdp/connection.ts";
import type { Page } from "../../cdp/page.ts";
import type { Protocol } from "../../cdp/types.ts";
import { PathGuardError, RESERVED_AREAS } from "../../policy/path_guard.ts";
import { type SafeOpenFile, safeOpenRead } from "../../storage/safe_fs.ts";
import { pointerAction } from "../../browser/actions/pointer.ts";
import { actingFields, targetFields } from "../fields.ts";
import { runAction } from "../../browser/actions/run_action.ts";
import { checkTarget } from "../../browser/actions/target.ts";
import { defineTool } from "../define_tool.ts";
import { ToolError } from "../../browser/tool_error.ts";
import type { RemoteHandle } from "../../browser/injected/mod.ts";
import type { BrowserSession } from "../../browser/sessions/browser_session.ts";
import { originOf } from "../../policy/hosts.ts";
import { copyForUpload } from "../../browser/sessions/upload_copies.ts";
import { within } from "../../browser/poll.ts";

/** How long a click may take to open a file chooser, ms. */
const CHOOSER_WAIT_MS = 3000;
/** Most files one call attaches. */
const MAX_FILES = 20;

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

/** The `upload_file` tool. */
export const uploadFileTool = defineTool({
  name: "upload_file",
  title: "Upload files",
  description:
    "Attach workspace files to a file input: target the <input type=file> (hidden ones work) or the button that opens the chooser. Missing paths are all reported before anything is attached. Asks permission each call. Returns the ActionResult with the input's files.",
  capability: "action",
  toolset: "files",
  annotations: { destructiveHint: true, openWorldHint: true },
  inputSchema: z.object({
    ref: targetFields.ref,
    selector: targetFields.selector,
    paths: z.array(z.string()).min(1).max(MAX_FILES).describe(
      "Relative to the workspace (or absolute inside it)",
    ),
    session: actingFields.session,
    timeoutMs: actingFields.timeoutMs,
    snapshot: actingFields.snapshot,
  }),
  async handler(ctx, args) {
    checkTarget(args, "upload_file", { allowCoords: false });
    // The server's own files (audit log, profiles, the secrets file), other clients' files
    // and saved logins never go to a page; a client's own area (its downloads, dumps) may.
    const areas = ctx.sessions.areas;
    const files = await checkUploadPaths(ctx.config.workspace, args.paths, [
      ...areas.reserved,
      ".auth-states",
      areas.authStates(false),
      ...(ctx.config.secretsFile ? [ctx.config.secretsFile] : []),
    ], areas.namespace === undefined ? [] : [areas.own]);
    const names = files.map((f) => f.split(/[\\/]/).pop()!);
    const session = await ctx.sessions.get(args.session ?? "default");
    const url = session.activePage?.url;
    await ctx.confirm({
      hook: "file_upload",
      tool: "upload_file",
      session: session.id,
      summary: `attach ${names.map((n) => JSON.stringify(n)).join(", ")} to a file input on ${
        url ? originOf(url) ?? "null" : "the page"
      }`,
      origin: url ? originOf(url) ?? "null" : undefined,
    });
    return await runAction(ctx, args, {
      type: "upload_file",
      target: args,
      actionInfo: { files: names },
      handlesFileChooser: true,
      async perform({ session, page, target, deadline, signal }) {
        if (target?.kind !== "element") throw new Error("upload_file needs an element target");
        const copies = await privateCopies(ctx.config.workspace, session, files);
        const held = await attach(session, page, target.handle, copies, { deadline, signal });
        return { upload: { input: held.input, files: held.files } };
      },
    });
  },
});

/**
 * Copies each checked file, opened through the guard again, to a private copy Chromium reads
 * (see `upload_copies.ts`): a file swapped for a link after the check is refused here, or
 * copied as it was opened, never followed.
 *
 * @throws ToolError refused when a file changed into something the guard refuses.
 */
async function privateCopies(
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
async function attach(
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
