/**
 * `drag`: press on one element or point, move in steps to another, release there; HTML5
 * drag and drop included (browser/actions/drag_sequence.ts).
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { actingFields, namedField, refField, selectorField, submitsField } from "../fields.ts";
import { ACTION_RESULT_OUTPUT } from "../output_schemas.ts";
import { runAction } from "../../browser/actions/run_action.ts";
import { resolveTarget, type TargetSpec } from "../../browser/actions/target.ts";
import { dragBetween } from "../../browser/actions/drag_sequence.ts";
import { releaseHandle } from "../../browser/injected/mod.ts";
import { ToolError } from "../../browser/tool_error.ts";

/** One end of a drag: an element (ref, named, selector) or a viewport point (x and y). */
const endField = z.object({
  ref: refField,
  named: namedField,
  selector: selectorField,
  x: z.number().optional(),
  y: z.number().optional(),
});

type End = z.infer<typeof endField>;

/**
 * The target an end names: exactly one of ref, named, selector, or x with y.
 * @throws ToolError invalid-argument
 */
export function endTarget(end: End, which: "from" | "to"): TargetSpec {
  const given = (["ref", "named", "selector"] as const).filter((k) => end[k] !== undefined);
  const hasX = end.x !== undefined, hasY = end.y !== undefined;
  if (hasX !== hasY) {
    throw new ToolError(
      "invalid-argument",
      `"${which}" needs both x and y`,
      `e.g. ${which}: { x: 120, y: 300 } (viewport CSS px)`,
    );
  }
  const count = given.length + (hasX ? 1 : 0);
  if (count !== 1) {
    throw new ToolError(
      "invalid-argument",
      count === 0
        ? `Missing target for "${which}": give a ref, named, selector, or x and y`
        : `Too many targets for "${which}": got ${
          [...given, ...(hasX ? ["x/y"] : [])].join(" and ")
        }`,
      `e.g. ${which}: { ref: "e12" } or ${which}: { x: 120, y: 300 }`,
    );
  }
  if (hasX) return { coords: { x: end.x!, y: end.y! } };
  return { [given[0]!]: end[given[0]!] };
}

/** The warning of a drag the page showed nothing of (see `DragReport.quiet`). */
export function quietWarning(via: "html5" | "pointer"): string {
  return via === "html5"
    ? "Nothing was dropped: the page started a drag but did not take the drop at the " +
      "destination (no drop event), and nothing changed; check that to is a place the page " +
      "takes drops on (an item or zone, not its label or a cover over it)"
    : "The drag changed nothing: the page got the press, moves and release but no drop " +
      "event, and nothing on it changed; check that from is what the page drags by (a " +
      "handle or grip) and that to is where it takes drops";
}

/**
 * The warning of a drag the page took something of (a drop event, a DOM change meanwhile) but
 * whose outline shows no change after it (judged on the delta: `warningsUnlessChanged`).
 */
export function unchangedWarning(via: "html5" | "pointer"): string {
  return via === "html5"
    ? "Nothing changed on the page after the drop (it got the drag and the drop): the item " +
      "may stand where this page puts it already (many lists put a dropped item after the one " +
      "under the drop); to move it further, drag it onto the next item beyond, or check the page"
    : "Nothing changed on the page after the drag (it got the press, moves and release): check " +
      "that from is what the page drags by (a handle or grip) and that to is where it takes drops";
}

/** The `drag` tool. */
export const dragTool = defineTool({
  name: "drag",
  title: "Drag",
  description:
    "Drag from one element or viewport point to another: press, move in steps, release. HTML5 drag and drop, sortables, sliders.",
  capability: "action",
  toolset: "core",
  annotations: { destructiveHint: true, openWorldHint: true },
  inputSchema: z.object({
    from: endField.describe("{ref|named|selector} or viewport {x,y}"),
    to: endField.describe("Same shape"),
    ...actingFields,
    ...submitsField,
  }),
  outputSchema: ACTION_RESULT_OUTPUT,
  handler(ctx, args) {
    const from = endTarget(args.from, "from");
    const to = endTarget(args.to, "to");
    return runAction(ctx, args, {
      type: "drag",
      target: from,
      actionability: { hitTest: true },
      actionInfo: { to: to.coords ?? to.ref ?? to.named ?? to.selector },
      async perform({ session, page, target, point, elementPoint, deadline, signal }) {
        const dest = await resolveTarget(session, page, to, {
          deadline,
          signal,
          refuseAlike: true,
        });
        try {
          const { quiet, ...drag } = await dragBetween(page, { from: target!, to: dest }, {
            deadline,
            signal,
            fromPoint: elementPoint ?? point!,
          });
          // The drop row's numbers read otherwise than shown (a ticker): said, as for `from`.
          return {
            drag,
            ...(dest.kind === "element" && dest.note ? { warnings: [dest.note] } : {}),
            // Nothing dropped and nothing changed during it, or a drop the page took that left
            // its outline as it was (an item dropped where the page puts it already): said
            // unless the settled page shows a change (a late re-render) or something left the
            // tab.
            warningsUnlessChanged: [quiet ? quietWarning(drag.via) : unchangedWarning(drag.via)],
          };
        } finally {
          if (dest.kind === "element") releaseHandle(dest.handle);
        }
      },
    });
  },
});
