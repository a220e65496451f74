/**
 * `fill_form`: set many fields of a form in one call, like a user would
 * (page side: `formSetField` in `browser/injected/form_edit_lib.ts`).
 *
 * @module
 */
import { withAcceptedFormat } from "../../browser/actions/field_kept.ts";
import { checkFillTarget, queryElementCount } from "../../browser/actions/secret_query.ts";
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { actionOutput, objectList } from "../output_schemas.ts";
import { ToolError } from "../../browser/tool_error.ts";
import {
  actingFields,
  allowsSendField,
  cappedString,
  MAX_VALUE_CHARS,
  refField,
  selectorField,
} from "../fields.ts";
import {
  callOnHandle,
  callUtility,
  callUtilityHandle,
  releaseHandle,
  type RemoteHandle,
  shownForPage,
} from "../../browser/injected/mod.ts";
import { runAction } from "../../browser/actions/run_action.ts";
import { toToolError } from "../../browser/error_map.ts";
import { isFailure, resolveElement, selectorError } from "../../browser/forms/form_common.ts";
import { formFrame } from "../../browser/forms/form_frame.ts";
import { reusedDuringAction } from "../../browser/snapshot/resolve.ts";

/** A field's text value, capped like fill's. */
const valueField = cappedString("a value", MAX_VALUE_CHARS);

const fieldSchema = z.strictObject({
  name: z.string().min(1).optional().describe("Field name or label (read_form)"),
  ref: refField,
  selector: selectorField,
  value: z.union([valueField, z.number(), z.boolean(), z.array(valueField)]).describe(
    "Text, option value/label, true/false, or array (group, multi-select)",
  ),
});

/** The warning of `fill_form { submits: true }` when nothing was sent. */
const FILL_FORM_NOT_SENT =
  "fill_form sends no form (submits: true only allows a send the fill causes): to send it, click its submit button with submits: true";

/** One field's outcome. */
interface FieldResult {
  field: string;
  ok: boolean;
  value?: unknown;
  checked?: boolean;
  error?: { code: string; message: string };
  /** Failed, but its value is in (the page re-used the field as it took it). */
  set?: true;
}

/** The `fill_form` tool. */
export const fillFormTool = defineTool({
  name: "fill_form",
  title: "Fill form",
  description:
    "Set form fields (by name, ref or selector) like a user: text, select, checkbox, radio; each tried and reported. Not for files (upload_file) or editors (set_editor).",
  capability: "action",
  toolset: "forms",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  outputSchema: actionOutput({ fields: objectList }),
  inputSchema: z.object({
    fields: z.array(fieldSchema).min(1).max(100).describe("In order"),
    root: z.string().optional().describe("CSS of the form names refer to (default: as read_form)"),
    ...actingFields,
    ...allowsSendField,
  }),
  async handler(ctx, args) {
    for (const [i, f] of args.fields.entries()) {
      const given = (["name", "ref", "selector"] as const).filter((k) => f[k] !== undefined);
      if (given.length !== 1) {
        throw new ToolError(
          "invalid-argument",
          `fields[${i}] needs exactly one of name, ref, selector; got ${
            given.join(" and ") || "none"
          }`,
          'give each field one address, e.g. { name: "title", value: "Hello" }',
        );
      }
    }
    const results: FieldResult[] = [];
    /** Warnings of refs acted on whose rows read otherwise than shown (see resolveElement). */
    const notes: string[] = [];
    const out = await runAction(ctx, args, {
      type: "fill_form",
      actionInfo: { fields: args.fields.length },
      async perform({ session, page, signal }) {
        // The form's frame: names are looked up there (fields by ref or selector: anywhere).
        const { frameId, frame } = await formFrame(session, page, { root: args.root, signal })
          .catch((e) => selectorError(e, args.root ?? ""));
        if (args.root !== undefined) {
          const n = await queryElementCount(page, frameId, args.root)
            .catch((e) => selectorError(e, args.root!));
          if (!n) {
            throw new ToolError(
              "not-found",
              `No element matches root "${args.root}"`,
              "pass the form's selector (read_form reports it), or omit root",
            );
          }
          // An <iframe> holds no fields of its own document: its form is in the frame.
          const frames = await queryElementCount(
            page,
            frameId,
            `:is(${args.root}):is(iframe, frame)`,
          )
            .catch(() => 0);
          if (frames === n) {
            throw new ToolError(
              "invalid-argument",
              `root "${args.root}" matches an <iframe>: its fields are inside the frame, not under it`,
              "omit root (the frame with the form is found and named in `frame`), or give a " +
                "selector of the form inside the frame",
            );
          }
        }
        for (const f of args.fields) {
          // A cancelled call fills no more fields.
          signal?.throwIfAborted();
          const field = f.name ?? f.ref ?? f.selector!;
          let handle: RemoteHandle | undefined;
          try {
            handle = f.name !== undefined
              ? await callUtilityHandle(page, frameId, "formFieldByName", [
                args.root ?? null,
                f.name,
              ])
              : await resolveElement(session, page, f.ref ?? f.selector!, notes);
            if (!handle) {
              // No name attribute and not exactly one label: several labels are refused by name.
              const labelled = await callUtility(page, frameId, "formFieldsLabelled", [
                args.root ?? null,
                f.name!,
              ]);
              results.push({
                field,
                ok: false,
                error: labelled.length > 1
                  ? {
                    code: "invalid-argument",
                    message: `${labelled.length} fields are labelled "${f.name}": ${
                      labelled.join("; ")
                    }; give one's name attribute, ref or selector`,
                  }
                  : { code: "not-found", message: `no field named or labelled "${f.name}"` },
              });
              continue;
            }
            // A secret bound to origins goes only into frames of those origins; a field a
            // secret goes into is held (shows no part of it after edits).
            await checkFillTarget(page, { kind: "element", handle }, String(f.value));
            const r = await callOnHandle(
              handle,
              "formSetField",
              [f.value, f.name !== undefined, shownForPage(handle)],
            );
            if (isFailure(r) && r.changed && handle.shown) {
              const e = r.landed
                ? reusedDuringAction(
                  handle.shown,
                  r.changed,
                  `its value was set first: check what the page did with it`,
                  "as its input and change events ran (a handler re-rendered the list)",
                )
                : reusedDuringAction(
                  handle.shown,
                  r.changed,
                  "nothing was set in it",
                  "as it took the focus (a focus handler re-rendered the list)",
                );
              results.push({
                field,
                ok: false,
                error: { code: e.code, message: e.message },
                ...(r.landed ? { set: true as const } : {}),
              });
            } else if (isFailure(r)) {
              // A date not in its format: what the field accepts, as fill says it.
              results.push({
                field,
                ok: false,
                error: { code: r.code, message: withAcceptedFormat(r.error) },
              });
            } else {
              const { ok: _ok, ...rest } = r;
              results.push({ field, ok: true, ...rest });
            }
          } catch (e) {
            const te = toToolError(e);
            results.push({ field, ok: false, error: { code: te.code, message: te.message } });
          } finally {
            if (handle) releaseHandle(handle);
          }
        }
        return {
          fields: results,
          ...(notes.length ? { warnings: notes } : {}),
          ...(frame ? { frame } : {}),
          // submits: true read as "send it": nothing was sent, and the result says how to.
          ...(args.submits ? { warningsUnlessSent: [FILL_FORM_NOT_SENT] } : {}),
        };
      },
    });
    // Fields that failed make the whole call a failure the agent reads, with every outcome.
    const failed = results.filter((r) => !r.ok);
    const landed = failed.filter((r) => r.set).length;
    if (failed.length && out.structured.ok === true) {
      out.structured.ok = false;
      out.structured.error = {
        code: failed[0]!.error!.code,
        message: `${failed.length} of ${results.length} field(s) ${
          landed ? `failed (${landed} set before the page re-used it)` : "not set"
        }: ${failed.map((f) => `${f.field} (${f.error!.message})`).join("; ")}`,
        hint: landed
          ? "take a new snapshot and check the items whose fields the page re-used after their value went in; then set the fields still wrong, with new refs"
          : failed.length < results.length
          ? "the other fields were set; fix these (read_form shows names, options and usable) and send only them"
          : "nothing was set; fix the fields (read_form shows names, options and usable) and call again",
      };
      out.isError = true;
    }
    return out;
  },
});
