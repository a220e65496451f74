/**
 * A link answered as an attachment becomes a download: Chromium cancels the document load as
 * it hands the response to the download manager. That cancel is not a failed request: the
 * result counts no failure and marks the request `download: true`. A document the server
 * really failed (a refused port) still counts as failed.
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";

type R = Record<string, unknown>;

Deno.test("an attachment download is not a failed request", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/invoice.pdf") {
      return new Response("%PDF-1.4 fake", {
        headers: {
          "content-type": "application/pdf",
          "content-disposition": 'attachment; filename="invoice-1001.pdf"',
        },
      });
    }
    return new Response(
      `<!doctype html><title>Files</title><a href="/invoice.pdf">Download invoice</a>`,
      { headers: { "content-type": "text/html" } },
    );
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const mcp = await startStdio();
  try {
    await mcp.ok("navigate", { url: `${base}/files.html`, snapshot: "none" });
    const r = await mcp.call("click", { selector: "text=Download invoice", download: true });
    const s = r.structuredContent!;
    assertEquals(r.isError, undefined, textOf(r));
    const downloads = s.downloads as R[];
    assertEquals(downloads.map((d) => d.filename), ["invoice-1001.pdf"], textOf(r));
    const network = s.network as { summary: R; requests: R[] };
    assertEquals(network.summary.failed, 0, textOf(r));
    const doc = network.requests.find((q) => String(q.url).endsWith("/invoice.pdf"));
    assertTrue(doc, textOf(r));
    assertEquals([doc!.failed, doc!.errorText, doc!.download], [undefined, undefined, true]);

    // Bad input: a document that fails to load still counts as failed.
    const dead = await mcp.call("navigate", { url: "http://127.0.0.1:9/" });
    assertEquals(dead.isError, true, textOf(dead));
    const failed = await mcp.ok("network_read", { failed_only: true });
    assertTrue(
      (failed.entries as R[]).some((e) => String(e.url).startsWith("http://127.0.0.1:9/")),
      JSON.stringify(failed),
    );
    assertTrue(
      !(failed.entries as R[]).some((e) => String(e.url).endsWith("/invoice.pdf")),
      JSON.stringify(failed),
    );
  } finally {
    await mcp.close();
    await server.shutdown();
  }
});
