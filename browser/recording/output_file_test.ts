import { assertEquals } from "../../tests/_assert.ts";
import { defaultFileName } from "./output_file.ts";
import { countPdfPages } from "./pdf.ts";

Deno.test("defaultFileName: letters and digits of the title, then the UTC time", () => {
  const now = new Date("2026-12-02T03:04:05.678Z");
  assertEquals(
    defaultFileName('Long "Report" / 2026', "pdf", { fallback: "page", now }),
    "long-report-2026-20261202-030405.pdf",
  );
  assertEquals(
    defaultFileName("  ../..  ", "pdf", { fallback: "page", now }),
    "page-20261202-030405.pdf",
  );
  assertEquals(
    defaultFileName("Café ünïcode", "har", { fallback: "x", now }),
    "cafe-unicode-20261202-030405.har",
  );
  assertEquals(defaultFileName("a".repeat(90), "pdf", { fallback: "p", now }).length, 60 + 20);
});

Deno.test("countPdfPages: /Type /Page objects, not /Pages", () => {
  const pdf = new TextEncoder().encode(
    "%PDF-1.4\n1 0 obj <</Type /Pages /Count 2>>\n2 0 obj <</Type /Page>>\n3 0 obj <</Type/Page\n>>",
  );
  assertEquals(countPdfPages(pdf), 2);
  assertEquals(countPdfPages(new TextEncoder().encode("%PDF-1.7 compressed")), undefined);
});
