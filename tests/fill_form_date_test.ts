/**
 * fill_form's refused date says what the field accepts, as fill's does (session 17, new-user
 * finding 6c): "01/02/2000" into a date field fails with "it accepts YYYY-MM-DD, e.g.
 * 2026-12-31", and the field is left as it was.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { servePages } from "./_util.ts";

type R = Record<string, unknown>;

const PAGE = `<!doctype html><title>Sign up</title><form action="/done">
<label>Name <input name="name"></label> <label>Birthday <input type="date" name="bday"></label>
<button>Sign up</button></form>`;

Deno.test("fill_form: a date not in the field's format says the format it accepts", async () => {
  const pages = servePages({ "/": PAGE });
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,forms" } });
  try {
    await mcp.ok("navigate", { url: pages.base + "/", snapshot: "none" });
    const r = await mcp.call("fill_form", { fields: { name: "Jo", bday: "01/02/2000" } });
    assertEquals(r.isError, true);
    const fields = (r.structuredContent as R).fields as R[];
    const bday = fields.find((f) => JSON.stringify(f.field).includes("bday"))!;
    assertEquals(bday.ok, false);
    const message = String((bday.error as R).message);
    assertIncludes(message, "the field rejected the value (a date field)");
    assertIncludes(message, "it accepts YYYY-MM-DD, e.g. 2026-12-31");
    // The other field went in.
    assertEquals(fields.find((f) => JSON.stringify(f.field).includes("name"))?.ok, true);
  } finally {
    await mcp.close();
    await pages.close();
  }
});
