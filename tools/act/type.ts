/**
 * `type`: type text into the focused element, key by key.
 *
 * @module
 */
import { pageTaskTurn } from "../../browser/actions/focus.ts";
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { ACTION_RESULT_OUTPUT } from "../output_schemas.ts";
import { ToolError } from "../../browser/tool_error.ts";

/** Characters typed between deadline checks. */
const TYPE_CHUNK = 40;
/** Longest wait for where the keys went (a page busy or gone: not said), ms. */
const TYPE_END_MS = 1000;
import { callUtility } from "../../browser/injected/mod.ts";
import { listensForKeys, typingFocus } from "../../browser/actions/typing_focus.ts";
import { checkFocusStaysHome } from "../../browser/actions/secret_query.ts";
import { fillsBoundSecret, secretFillValues } from "../../browser/secret_scope.ts";
import { refuseHeldEdit } from "../../browser/actions/copy_guard.ts";
import { inputOf } from "../../browser/actions/devices.ts";
import { actingFields, submitsField } from "../fields.ts";
import { runAction } from "../../browser/actions/run_action.ts";
import { typedOutcome } from "../../browser/actions/typed_where.ts";

/** The `type` tool. */
export const typeTool = defineTool({
  name: "type",
  title: "Type text",
  description:
    "Type text key by key (real key events) into the focused element; click a field first.",
  capability: "action",
  toolset: "core",
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  outputSchema: ACTION_RESULT_OUTPUT,
  inputSchema: z.object({
    text: z.string().min(1).max(10_000).describe(
      "Text to type; \\n presses Enter (use fill for long text)",
    ),
    ...actingFields,
    ...submitsField,
  }),
  handler(ctx, args) {
    return runAction(ctx, args, {
      type: "type",
      quietFromInput: true,
      async perform({ page, deadline, signal }) {
        // What has the focus; where the keys then go is watched (read back after the last key).
        const focus = await callUtility(
          page,
          page.mainFrameId,
          "typeStart",
        ).catch(() => undefined);
        // The focus inside an iframe: what has it there (its keys go into that document).
        const where = focus?.frame !== undefined
          ? await typingFocus(page, signal).catch(() => undefined)
          : focus && { ...focus, frameId: page.mainFrameId };
        // Keys with nothing focused go nowhere, unless the page takes them itself (a game).
        const toPage = where?.none && await listensForKeys(page, where.frameId, signal);
        if (where?.none && !toPage) {
          throw new ToolError(
            "invalid-argument",
            "Nothing has the focus and the page listens for no keys: the text would go nowhere, so nothing was typed",
            "click the field first (its ref), then type; or fill it by ref",
            { reason: "not-focused" },
          );
        }
        // No edit of a field a secret was filled into, but by typing a secret again.
        if (!secretFillValues().length) {
          await refuseHeldEdit(page, { signal, secrets: ctx.config.secrets });
        }
        const chars = [...args.text.replaceAll("\r\n", "\n")];
        // A secret bound to origins: focus is checked before every key (the page may move it).
        const chunk = fillsBoundSecret() ? 1 : TYPE_CHUNK;
        const progress = { typed: 0 };
        const cutShort = () =>
          new ToolError(
            "timeout",
            `Typed ${progress.typed} of ${chars.length} characters before the timeout`,
            "use fill for long text (it inserts the whole value at once), or raise timeoutMs",
            { typed: progress.typed },
          );
        // Type in chunks so the call keeps to its deadline.
        for (let i = 0; i < chars.length; i += chunk) {
          // Out of time (or cancelled): no more keys; the error says how far it got.
          if (signal?.aborted || Date.now() >= deadline) throw cutShort();
          if (i > 0) await checkFocusStaysHome(page, { typed: i, of: chars.length });
          // Each key takes the signal: a cancel stops the typing at once, not at the chunk's end.
          await inputOf(page).keyboard.type(chars.slice(i, i + chunk).join(""), {
            signal,
            progress,
            after: i === 0 ? undefined : chars[i - 1] === "\n" ? "enter" : "text",
            // Between text and Enter: what the keys before deferred runs first.
            aroundEnter: (next) =>
              pageTaskTurn(page, page.mainFrameId, {
                signal,
                stopped: next === "enter"
                  ? "Enter was not pressed"
                  : "the text after Enter was not typed",
              }),
          }).catch((e) => {
            // Stopped during a key (a page slow to take them): how far it got.
            throw signal?.aborted ? cutShort() : e;
          });
        }
        // The page moved the focus mid-way: how much the field took, where the rest went.
        // Read after the last key (overlapping the quiet wait, quietFromInput); a page that
        // navigated (Enter sent a form) has no watch to read.
        if (focus?.watching) {
          const landed = await callUtility(page, page.mainFrameId, "typeEnd", [], {
            timeoutMs: TYPE_END_MS,
            signal,
          }).catch(() => undefined);
          const outcome = typedOutcome(args.text, landed);
          if (outcome && "error" in outcome) throw outcome.error;
          if (outcome) return { warnings: [outcome.warning] };
        }
        // `typed: 0`: no field took the text (s17: ok with a warning read as typed).
        if (toPage) {
          return {
            typed: 0,
            warnings: [
              "nothing had the focus: the keys went to the page's own key listeners, not into a field",
            ],
          };
        }
        // Keys still go to the page (shortcuts), but text went nowhere visible.
        if (where && !where.editable) {
          return {
            typed: 0,
            warnings: [
              `nothing was typed into a field: the focused element (${where.what}) does not ` +
              "take text (only its own key handlers, if any, got the keys); click or fill a field first",
            ],
          };
        }
      },
    });
  },
});
