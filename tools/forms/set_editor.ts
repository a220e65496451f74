/**
 * `set_editor`: write into a rich-text editor so that the form posts what
 * was written (page side: `formFindEditor`, `formEditor*` in
 * `browser/injected/form_edit_lib.ts`; editor APIs: `editor_api.ts`).
 *
 * Markup (html=true) never runs script, whatever the capabilities: it is
 * parsed inertly and cleaned (`browser/injected/sanitize_lib.ts`), the clean
 * nodes are imported into contenteditable and iframe editors, and editor
 * APIs (CKEditor `setData`, TinyMCE `setContent`) get the clean string; the
 * hidden field is synced from that content. What was removed is reported.
 *
 * @module
 */
import { checkFillTarget, checkFocusStaysHome } from "../../browser/actions/secret_query.ts";
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { actionOutput, anyObject } from "../output_schemas.ts";
import { ToolError } from "../../browser/tool_error.ts";
import {
  callOnHandle,
  callUtilityHandle,
  releaseHandle,
  withSignal,
} from "../../browser/injected/mod.ts";
import { inputOf } from "../../browser/actions/devices.ts";
import {
  actingFields,
  cappedString,
  MAX_VALUE_CHARS,
  submitsField,
  targetFields,
} from "../fields.ts";
import { runAction } from "../../browser/actions/run_action.ts";
import { checkTarget } from "../../browser/actions/target.ts";
import { callOnHandleForHandle } from "../../browser/injected/mod.ts";
import { searchFrames } from "../../browser/actions/frame_query.ts";
import { syncEditorApi } from "../../browser/forms/editor_api.ts";
import { frameNoteOf } from "../../browser/frame_note.ts";

const squash = (s: string) => s.replace(/\s+/g, " ").trim();

/** The `set_editor` tool. */
export const setEditorTool = defineTool({
  name: "set_editor",
  title: "Set rich-text editor",
  description:
    "Replace a rich-text editor's content (contenteditable or CKEditor/TinyMCE-style iframe; no ref/selector: the first) and sync the field the form posts. html=true: sanitized markup (no script, handlers, frames, form controls; removals listed).",
  capability: "action",
  toolset: "forms",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  outputSchema: actionOutput({
    editor: anyObject,
    frame: anyObject,
    postsAs: z.string().nullable(),
    removed: z.array(z.string()),
    syncedBy: z.string(),
    text: z.string(),
  }),
  inputSchema: z.object({
    ref: targetFields.ref,
    named: targetFields.named,
    selector: targetFields.selector,
    text: cappedString("a text", MAX_VALUE_CHARS).describe("New content"),
    html: z.boolean().optional().describe(
      "text is markup (sanitized)",
    ),
    ...actingFields,
    ...submitsField,
  }),
  handler(ctx, args) {
    checkTarget(args, "set_editor", { allowCoords: false, optional: true });
    return runAction(ctx, args, {
      type: "set_editor",
      ...(args.ref !== undefined || args.named !== undefined || args.selector !== undefined
        ? { target: args }
        : {}),
      ...(args.html ? { actionInfo: { html: true } } : {}),
      async perform({ session, page, target, signal }) {
        // No target: the first editor of the main frame, else of a child frame (snapshot order).
        const inFrames = target?.kind === "element" ? undefined : await searchFrames(
          page,
          session.refs,
          async (frameId) =>
            (await callUtilityHandle(page, frameId, "formFindEditor", [null], { signal })) ??
              undefined,
          { signal, skip: (url, id) => frameNoteOf(session, page)(url, id) !== undefined },
        );
        const found = target?.kind === "element"
          ? await callOnHandleForHandle(target.handle, "formFindEditor")
          : inFrames?.value;
        const frame = inFrames?.frame ? { frame: inFrames.frame } : {};
        // Its page calls end with the call (cancel or budget).
        const editor = found && withSignal(found, signal);
        if (!editor) {
          throw new ToolError(
            "not-found",
            target
              ? "That element is not a rich-text editor and holds none"
              : "No rich-text editor on the page (no contenteditable, no iframe with an editable body)",
            "pass the editor's iframe or [contenteditable] element (read_form lists editors); for a plain <textarea> use fill",
          );
        }
        try {
          // A secret bound to origins goes only into frames of those origins.
          await checkFillTarget(page, { kind: "element", handle: editor });
          const info = await callOnHandle(editor, "formEditorInfo");
          if (!info.usable) {
            throw new ToolError(
              "not-visible",
              `The editor ${info.selector} is hidden right now`,
              "reveal it first (its tab or section), then call again",
            );
          }
          let markup: { html: string; removed: string[] } | null = null;
          if (args.html) {
            const w = await callOnHandle(editor, "formEditorWrite", [{
              html: args.text,
            }]);
            if ("error" in w) {
              throw new ToolError(w.code, w.error, "check the editor and the markup");
            }
            markup = { html: w.html ?? "", removed: w.removed ?? [] };
          } else if (await callOnHandle(editor, "formEditorFocus")) {
            // Typing goes through the editor's own input handling, as a user's would.
            const { keyboard } = inputOf(page);
            if (args.text === "") await keyboard.press("Delete");
            else {
              // A bound secret: focus may have left the editor's origin since it took focus.
              await checkFocusStaysHome(page, { typed: 0, of: [...args.text].length });
              await keyboard.insertText(args.text);
            }
            const now = await callOnHandle(editor, "formEditorContent");
            if (squash(now.text) !== squash(args.text)) {
              await callOnHandle(editor, "formEditorWrite", [{ text: args.text }]);
            }
          } else {
            await callOnHandle(editor, "formEditorWrite", [{ text: args.text }]);
          }
          // An editor API gets the sanitized markup, never the agent's string.
          const api = await syncEditorApi(page, editor, markup ? markup.html : null);
          const sync = await callOnHandle(
            editor,
            "formEditorSync",
            [info.backingValue, api],
          );
          const content = await callOnHandle(editor, "formEditorContent");
          const warnings = sync.postsAs ? [] : [
            "found no field this editor posts as: the page may read the editor itself on submit; check with review_form",
          ];
          const removed = markup?.removed ?? [];
          if (removed.length) {
            warnings.push(
              `the markup was changed: removed ${removed.join(", ")} (set_editor never writes ` +
                "script, event handlers, frames, form controls or javascript:/data: URLs)",
            );
          }
          return {
            editor: { kind: info.kind, selector: info.selector, ...(api ? { api } : {}) },
            ...frame,
            postsAs: sync.postsAs,
            ...(removed.length ? { removed } : {}),
            ...(sync.syncedBy ? { syncedBy: sync.syncedBy } : {}),
            text: content.text.length > 200 ? content.text.slice(0, 200) + "…" : content.text,
            warnings,
          };
        } finally {
          releaseHandle(editor);
        }
      },
    });
  },
});
