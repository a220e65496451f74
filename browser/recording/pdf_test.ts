import { assertEquals, assertRejects } from "../../tests/_assert.ts";
import { ProtocolError } from "../../cdp/errors.ts";
import type { Page } from "../../cdp/page.ts";
import { ToolError } from "../tool_error.ts";
import { printPdf } from "./pdf.ts";

/** A tab whose `Page.printToPDF` fails as Chromium answers it. */
function failingPage(message: string): Page {
  const send = (method: string) => Promise.reject(new ProtocolError(method, -32000, message));
  return { session: { send }, frames: () => [] } as unknown as Page;
}

Deno.test("printPdf: a headful browser's refusal says to use a headless session", async () => {
  const e = await assertRejects(
    () => printPdf(failingPage("PrintToPDF is not implemented"), {}, { timeoutMs: 1000 }),
    ToolError,
  );
  assertEquals(e.code, "refused");
  assertEquals(e.message.includes("headless"), true);
  assertEquals(e.hint.includes("headless"), true);
});

Deno.test("printPdf: a bad page range is the agent's to fix", async () => {
  const e = await assertRejects(
    () =>
      printPdf(failingPage("Page range exceeds page count"), { pageRanges: "9" }, {
        timeoutMs: 1000,
      }),
    ToolError,
  );
  assertEquals(e.code, "invalid-argument");
});
