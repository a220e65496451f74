/**
 * The page as a PDF (`pdf_save`): `Page.printToPDF` with the result handed over as a stream
 * (`transferMode: "ReturnAsStream"`, read with `IO.read`), so a long document is not one
 * giant message.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { ProtocolError } from "../../cdp/errors.ts";
import { pageShowsSecret } from "../screenshot/screenshot_cover.ts";
import { ToolError } from "../tool_error.ts";
import { readIoStream } from "./io_stream.ts";

/** Paper sizes by name, inches (width × height, portrait): the names Playwright and Puppeteer take. */
export const PAPER_FORMATS = {
  letter: [8.5, 11],
  legal: [8.5, 14],
  tabloid: [11, 17],
  ledger: [17, 11],
  a0: [33.1, 46.8],
  a1: [23.4, 33.1],
  a2: [16.54, 23.4],
  a3: [11.7, 16.54],
  a4: [8.27, 11.7],
  a5: [5.83, 8.27],
  a6: [4.13, 5.83],
} as const satisfies Record<string, readonly [number, number]>;

/** A paper size name (see {@link PAPER_FORMATS}). */
export type PaperFormat = keyof typeof PAPER_FORMATS;

/** Largest PDF written, bytes. */
export const MAX_PDF_BYTES = 256 * 1024 * 1024;

/** How to print. Sizes in inches; `scale` 0.1–2; `pageRanges` like `"1-5, 8"`. */
export interface PdfOptions {
  landscape?: boolean | undefined;
  printBackground?: boolean | undefined;
  scale?: number | undefined;
  paperFormat?: PaperFormat | undefined;
  paperWidth?: number | undefined;
  paperHeight?: number | undefined;
  pageRanges?: string | undefined;
}

/**
 * Prints the tab to PDF. Under secrets masking, a tab that shows a registered secret is
 * refused (boxes drawn over a screenshot cannot follow the page into its print layout).
 *
 * CDP: `Page.printToPDF` (`ReturnAsStream`), `IO.read`, `IO.close`.
 *
 * @returns The PDF's bytes and its page count when it could be read off the file.
 * @throws ToolError `refused` (a secret shows; headful browsers cannot print), `invalid-argument`
 *   (a page range past the end or reversed), `result-too-large`.
 */
export async function printPdf(
  page: Page,
  options: PdfOptions,
  call: { signal?: AbortSignal | undefined; timeoutMs: number },
): Promise<{ bytes: Uint8Array; pages?: number }> {
  if (await pageShowsSecret(page)) {
    throw new ToolError(
      "refused",
      "The page shows a registered secret, and a PDF cannot be covered the way a screenshot is",
      "take a screenshot instead (secrets are boxed over), or save the PDF of a page without it",
    );
  }
  const paper = options.paperFormat ? PAPER_FORMATS[options.paperFormat] : undefined;
  let stream: string | undefined;
  try {
    ({ stream } = await page.session.send("Page.printToPDF", {
      transferMode: "ReturnAsStream",
      ...(options.landscape !== undefined ? { landscape: options.landscape } : {}),
      ...(options.printBackground !== undefined
        ? { printBackground: options.printBackground }
        : {}),
      ...(options.scale !== undefined ? { scale: options.scale } : {}),
      ...(paper ? { paperWidth: paper[0], paperHeight: paper[1] } : {}),
      ...(options.paperWidth !== undefined ? { paperWidth: options.paperWidth } : {}),
      ...(options.paperHeight !== undefined ? { paperHeight: options.paperHeight } : {}),
      ...(options.pageRanges !== undefined ? { pageRanges: options.pageRanges } : {}),
    }, call));
  } catch (e) {
    throw printError(e, options.pageRanges);
  }
  if (!stream) throw new ToolError("internal", "Chromium returned no PDF stream", "try again");
  const bytes = await readIoStream(page.session, stream, {
    signal: call.signal,
    maxBytes: MAX_PDF_BYTES,
    timeoutMs: call.timeoutMs,
  });
  const pages = countPdfPages(bytes);
  return { bytes, ...(pages ? { pages } : {}) };
}

/** Chromium's refusals of `Page.printToPDF` as errors the agent can act on. */
function printError(e: unknown, pageRanges: string | undefined): unknown {
  if (!(e instanceof ProtocolError)) return e;
  const m = e.originalMessage;
  if (/not implemented/i.test(m)) {
    return new ToolError(
      "refused",
      `Cannot save a PDF: Chromium prints to PDF only in headless mode, and this session's browser is headful (${m})`,
      "open a headless session (open_session without headful) for pdf_save, or take a fullPage screenshot",
    );
  }
  if (/page range|pageRanges/i.test(m)) {
    return new ToolError(
      "invalid-argument",
      `Bad pageRanges ${JSON.stringify(pageRanges ?? "")}: ${m}`,
      'give 1-based pages of the document, e.g. "1-3, 5" (start ≤ end)',
    );
  }
  return new ToolError(
    "invalid-argument",
    `Chromium could not print the page: ${m}`,
    "check the options",
  );
}

/**
 * The number of pages of a PDF as Chromium writes it (each page a `/Type /Page` object,
 * uncompressed), or undefined when none is found (another writer's object streams).
 */
export function countPdfPages(bytes: Uint8Array): number | undefined {
  const text = new TextDecoder("latin1").decode(bytes);
  const n = text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
  return n > 0 ? n : undefined;
}
