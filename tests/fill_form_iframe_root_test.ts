/**
 * `fill_form({ root })` where root is the `<iframe>` holding the form: the fields are in the
 * frame's document, not under the element, so it says so (and what to pass) instead of
 * "no field named …". Without root the frame with the form is found by itself.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { servePages } from "./_util.ts";

const PAGES = {
  "/support.html": `<!doctype html><title>Support</title><h1>Support</h1>
<iframe title="Support ticket form" src="/ticket.html"></iframe>`,
  "/ticket.html": `<!doctype html><title>Ticket</title>
<form><label>Subject <input name="subject"></label><button>Send</button></form>`,
};

Deno.test("fill_form: an iframe root is named as such; without root the frame's form is filled", async () => {
  const pages = servePages(PAGES);
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,forms" } });
  try {
    await mcp.ok("navigate", { url: `${pages.base}/support.html`, snapshot: "none" });
    const fields = [{ name: "subject", value: "Broken printer" }];
    const r = await mcp.call("fill_form", {
      root: 'iframe[title="Support ticket form"]',
      fields,
    });
    assertEquals(r.isError, true, textOf(r));
    const error = r.structuredContent!.error as { code: string; message: string; hint: string };
    assertEquals(error.code, "invalid-argument");
    assertIncludes(error.message, "matches an <iframe>: its fields are inside the frame");
    assertIncludes(error.hint, "omit root");

    const ok = await mcp.call("fill_form", { fields });
    assertEquals(ok.isError, undefined, textOf(ok));
    const read = await mcp.ok("read_form", {});
    assertIncludes(JSON.stringify(read), "Broken printer");
  } finally {
    await mcp.close();
    await pages.close();
  }
});
