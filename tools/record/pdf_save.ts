/**
 * `pdf_save`: the active tab as a PDF file in the workspace (`Page.printToPDF`, headless only).
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { DEFAULT_TIMEOUT_MS, sessionField, timeoutField } from "../fields.ts";
import { ERROR_OUTPUT } from "../output_schemas.ts";
import { leftAfterTurn } from "../../browser/timeouts.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { PAPER_FORMATS, type PaperFormat, printPdf } from "../../browser/recording/pdf.ts";
import {
  checkOutputPath,
  defaultFileName,
  writeOutputFile,
} from "../../browser/recording/output_file.ts";

const inches = z.number().positive().max(200);

/** The `pdf_save` tool. */
export const pdfSaveTool = defineTool({
  name: "pdf_save",
  title: "Save as PDF",
  description: "Print the page to a PDF file in the workspace.",
  capability: "action",
  toolset: "files",
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  inputSchema: z.object({
    path: z.string().optional().describe("Workspace file (default <title>-<time>.pdf)"),
    landscape: z.boolean().optional().describe("Landscape"),
    printBackground: z.boolean().optional().describe("Backgrounds"),
    scale: z.number().min(0.1).max(2).optional().describe("Default 1"),
    paperFormat: z.enum(Object.keys(PAPER_FORMATS) as [PaperFormat, ...PaperFormat[]]).optional()
      .describe("Default letter"),
    paperWidth: inches.optional().describe("Inches"),
    paperHeight: inches.optional().describe("Inches"),
    pageRanges: z.string().optional().describe('"1-3, 5"'),
    timeoutMs: timeoutField,
    session: sessionField,
  }),
  outputSchema: z.object({
    path: z.string().optional(),
    absolutePath: z.string().optional(),
    bytes: z.number().optional(),
    pages: z.number().optional(),
    error: ERROR_OUTPUT.optional(),
  }).loose(),
  async handler(ctx, args) {
    if (args.paperFormat && (args.paperWidth !== undefined || args.paperHeight !== undefined)) {
      throw new ToolError(
        "invalid-argument",
        "Give paperFormat or paperWidth/paperHeight, not both",
        "drop one",
      );
    }
    if (args.path !== undefined) await checkOutputPath(ctx, args.path);
    const session = await ctx.sessions.get(args.session ?? "default");
    const started = ctx.elapsedMs?.() ?? 0;
    return await session.exclusive(async () => {
      const page = await session.page();
      const timeoutMs = leftAfterTurn(
        "pdf_save",
        args.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        (ctx.elapsedMs?.() ?? 0) - started,
      );
      const pdf = await printPdf(page, args, { signal: ctx.signal, timeoutMs });
      const path = args.path ??
        defaultFileName(await page.title().catch(() => ""), "pdf", { fallback: "page" });
      const file = await writeOutputFile(ctx, path, pdf.bytes);
      return { structured: { ...file, ...(pdf.pages ? { pages: pdf.pages } : {}) } };
    });
  },
});
