/**
 * `snapshot`: the page outline with refs, paged by tokens.
 *
 * @module
 */
import { DEFAULT_SNAPSHOT_TOKENS } from "../../browser/snapshot/paging.ts";
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { captureSnapshot, tabSnapshot } from "../../browser/snapshot/capture.ts";
import { pageText } from "../../browser/snapshot/paging.ts";
import { FULL_LABEL, subtreeLabel } from "../../browser/snapshot/labels.ts";
import { BLANK_TAB_WARNING, isBlankTab, unknownRefError } from "../../browser/blank_tab.ts";
import { frameNoteOf } from "../../browser/frame_note.ts";

/** The `snapshot` tool. */
export const snapshotTool = defineTool({
  name: "snapshot",
  title: "Snapshot",
  description:
    "Read the active tab as an outline: ARIA roles and names, all visible text, states, values; iframes and shadow DOM in place. [ref=eN] marks what you can act on; links are [text](url)[ref=eN]. Big pages: truncated=true; continue with offset=nextOffset.",
  capability: "read",
  toolset: "core",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  outputSchema: resultOutput({
    url: z.string(),
    title: z.string(),
    ref: z.string(),
    truncated: z.boolean(),
    offset: z.number(),
    nextOffset: z.number(),
    tree: z.string(),
    warnings: z.array(z.string()),
  }),
  inputSchema: z.object({
    ref: z.string().optional().describe("Only this element's subtree"),
    maxTokens: z.number().int().min(200).max(200_000).optional().describe(
      `Page size, est. tokens (default ${DEFAULT_SNAPSHOT_TOKENS})`,
    ),
    offset: z.number().int().min(0).optional().describe("nextOffset of the previous page"),
    session: sessionField,
  }),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    const page = await session.exclusive(() => session.page());
    // Frames the navigation policy refuses are shown as such, never read.
    const frameNote = frameNoteOf(session, page);
    // A later page of a paged read comes from the same capture while the
    // page is unchanged: pages line up, and the walk is not repeated.
    // A fresh read of the whole tab brings the title with the walk (one round trip, not two:
    // under load each one waits its turn in a busy renderer); a subtree or a later page (the
    // cached capture's title may be older) reads it beside the capture.
    const fresh = !args.ref && !args.offset;
    const title = fresh ? undefined : page.title();
    // Progress of a big page: frame documents and refs read so far.
    const onFrameRead = (frames: number, refs: number) =>
      ctx.progress?.(frames, undefined, `snapshot: ${frames} frame(s) read, ${refs} refs`);
    const snap = args.ref
      ? await captureSnapshot(page, session.refs, {
        rootRef: args.ref,
        frameNote,
        signal: ctx.signal,
        onFrameRead,
      }).catch((e) => {
        throw unknownRefError(e, session.refs, page);
      })
      : await tabSnapshot(page, session.refs, session.snapshots, {
        reuse: (args.offset ?? 0) > 0,
        // Refs take where they sit now once this page of the outline shows them (below).
        holdContexts: true,
        frameNote,
        signal: ctx.signal,
        onFrameRead,
      });
    const paged = pageText(snap.text, {
      maxTokens: args.maxTokens ?? DEFAULT_SNAPSHOT_TOKENS,
      offset: args.offset ?? 0,
    });
    // The agent sees where the refs of this page sit now (an action's delta may have held some
    // back); refs on pages it was not shown keep what they were shown with.
    session.refs.showAll(page.target.targetId, paged.text);
    return {
      structured: {
        url: page.url,
        title: title ? await title : snap.title ?? await page.title(),
        ...(args.ref ? { ref: args.ref } : {}),
        truncated: paged.truncated,
        offset: paged.offset,
        ...(paged.nextOffset !== undefined ? { nextOffset: paged.nextOffset } : {}),
        tree: paged.text,
        // An empty outline of a blank tab says why (a CLI call per session starts blank).
        ...(isBlankTab(page) ? { warnings: [BLANK_TAB_WARNING] } : {}),
      },
      rawTextKeys: ["tree"],
      // The text says it is the page (or a subtree), never to be taken for an action's delta.
      rawTextLabels: { tree: args.ref ? subtreeLabel(args.ref) : FULL_LABEL },
    };
  },
});
