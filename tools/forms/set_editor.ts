/**
 * `set_editor`: write into a rich-text editor so that the form posts what
 * was written (page side: `formFindEditor`, `formEditor*` in
 * `tools/injected/form_edit_lib.ts`; editor APIs: `editor_api.ts`).
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { ToolError } from "../errors.ts";
import { callOnHandle, callUtilityHandle, releaseHandle } from "../injected/mod.ts";
import { inputOf } from "../actions/devices.ts";
import { actingFields, runAction, submitsField } from "../actions/run_action.ts";
import { checkTarget, targetFields } from "../actions/target.ts";
import { callOnHandleForHandle } from "./form_common.ts";
import { syncEditorApi } from "./editor_api.ts";

const squash = (s: string) => s.replace(/\s+/g, " ").trim();

/** The `set_editor` tool. */
export const setEditorTool = defineTool({
  name: "set_editor",
  title: "Set rich-text editor",
  description:
    "Replace the content of a rich-text editor: a contenteditable, or an iframe editor (CKEditor/TinyMCE style, whose form posts a hidden textarea). Syncs the field the form posts, so it carries what was written. ref/selector: the editor, its iframe, its field, or a container; omit for the first editor on the page. html=true writes text as markup. Returns the ActionResult with postsAs (the field name).",
  capability: "action",
  toolset: "forms",
  annotations: { destructiveHint: false, openWorldHint: true },
  inputSchema: z.object({
    ref: targetFields.ref,
    selector: targetFields.selector,
    text: z.string().describe("The new content (replaces the current one)"),
    html: z.boolean().optional().describe("text is HTML markup"),
    ...actingFields,
    ...submitsField,
  }),
  handler(ctx, args) {
    checkTarget(args, "set_editor", { allowCoords: false, optional: true });
    return runAction(ctx, args, {
      type: "set_editor",
      ...(args.ref !== undefined || args.selector !== undefined ? { target: args } : {}),
      ...(args.html ? { actionInfo: { html: true } } : {}),
      async perform({ page, target }) {
        const editor = target?.kind === "element"
          ? await callOnHandleForHandle(target.handle, "formFindEditor")
          : await callUtilityHandle(page, page.mainFrameId, "formFindEditor", [null]);
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
          const info = await callOnHandle<
            {
              kind: string;
              selector: string;
              usable: boolean;
              postsAs: string | null;
              backingValue: string | null;
            }
          >(editor, "formEditorInfo");
          if (!info.usable) {
            throw new ToolError(
              "not-visible",
              `The editor ${info.selector} is hidden right now`,
              "reveal it first (its tab or section), then call again",
            );
          }
          if (args.html) {
            await callOnHandle(editor, "formEditorWrite", [{ html: args.text }]);
          } else if (await callOnHandle<boolean>(editor, "formEditorFocus")) {
            // Typing goes through the editor's own input handling, as a user's would.
            const { keyboard } = inputOf(page);
            if (args.text === "") await keyboard.press("Delete");
            else await keyboard.insertText(args.text);
            const now = await callOnHandle<{ text: string }>(editor, "formEditorContent");
            if (squash(now.text) !== squash(args.text)) {
              await callOnHandle(editor, "formEditorWrite", [{ text: args.text }]);
            }
          } else {
            await callOnHandle(editor, "formEditorWrite", [{ text: args.text }]);
          }
          const api = await syncEditorApi(page, editor, args.html ? args.text : null);
          const sync = await callOnHandle<{ postsAs: string | null; syncedBy: string | null }>(
            editor,
            "formEditorSync",
            [info.backingValue, api],
          );
          const content = await callOnHandle<{ text: string }>(editor, "formEditorContent");
          const warnings = sync.postsAs ? [] : [
            "found no field this editor posts as: the page may read the editor itself on submit; check with review_form",
          ];
          return {
            editor: { kind: info.kind, selector: info.selector, ...(api ? { api } : {}) },
            postsAs: sync.postsAs,
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
