/**
 * An invalid field's error given by `aria-describedby` (NU s17 finding 5): hidden until the
 * page shows it (`display: none`), then shown. The snapshot's `[invalid="…"]` says the shown
 * description, never a hidden one (a person reads none: a bare `[invalid]`, or the browser's
 * own message for a native field); of a hint and an error described together, the error the
 * page marks as one; an `aria-errormessage` shown wins. MCP stdio, real Chromium.
 */
import { assertIncludes, assertNotIncludes } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { servePages } from "./_util.ts";

const PAGE = `<!doctype html><meta charset="utf-8"><title>Sign up</title><h1>Sign up</h1>
<form novalidate>
<label for=email>Email</label><input id=email aria-describedby="email-hint email-error">
<small id=email-hint>We never share it</small>
<span id=email-error style="display:none">Enter a valid email</span>
<label for=zip>ZIP</label><input id=zip aria-describedby="zipMsg"><span id=zipMsg style="display:none">ZIP must be 5 digits</span>
<label for=phone>Phone</label><input id=phone aria-describedby="phone-d" aria-errormessage="phone-e">
<span id=phone-d>Mobile or landline</span><span id=phone-e style="display:none">Phone is too short</span>
<button type=button id=check>Check</button></form>
<form><label for=age>Age</label><input id=age type=number min=18 aria-describedby=age-e>
<div id=age-e hidden>At least 18</div><button>Send</button></form>
<script>
const q = (id) => document.getElementById(id);
q('check').onclick = () => {
  q('email').setAttribute('aria-invalid', 'true');
  q('zip').setAttribute('aria-invalid', 'true');
  q('phone').setAttribute('aria-invalid', 'true');
};
q('zip').addEventListener('input', () => { q('zipMsg').style.display = ''; });
q('email').addEventListener('input', () => { q('email-error').style.display = ''; });
q('phone').addEventListener('input', () => { q('phone-e').style.display = ''; });
</script>`;

Deno.test("invalid fields: a shown aria-describedby error is said, a hidden one is not", async (t) => {
  const site = servePages({ "/signup.html": PAGE });
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core" } });
  const tree = async () => textOf(await mcp.call("snapshot", {}));
  try {
    await mcp.ok("navigate", { url: `${site.base}/signup.html`, snapshot: "none" });

    await t.step("invalid, its error still hidden: a bare [invalid]", async () => {
      await mcp.ok("click", { selector: "#check", snapshot: "none" });
      const s = await tree();
      assertIncludes(s, 'textbox "ZIP" [ref=e2] [invalid]\n');
      assertNotIncludes(s, "ZIP must be");
      // The hint beside the hidden error is no error.
      assertIncludes(s, 'textbox "Email" [ref=e1] [invalid]\n');
      assertIncludes(s, "We never share it");
    });

    await t.step("the page shows the errors: said, the error over the hint", async () => {
      for (const id of ["zip", "email", "phone"]) {
        await mcp.ok("fill", { selector: `#${id}`, value: "x", snapshot: "none" });
      }
      const s = await tree();
      assertIncludes(s, 'textbox "ZIP" [ref=e2] [invalid="ZIP must be 5 digits"]');
      assertIncludes(s, 'textbox "Email" [ref=e1] [invalid="Enter a valid email"]');
      assertIncludes(s, 'textbox "Phone" [ref=e3] [invalid="Phone is too short"]');
    });

    await t.step(
      "a native field: the browser's message while the description is hidden",
      async () => {
        await mcp.ok("fill", { selector: "#age", value: "12", snapshot: "none" });
        await mcp.ok("press", { key: "Tab", snapshot: "none" });
        const s = await tree();
        assertIncludes(
          s,
          'spinbutton "Age" [ref=e5] [invalid="Value must be greater than or equal to 18."]',
        );
        assertNotIncludes(s, "At least 18");
      },
    );
  } finally {
    await mcp.close();
    await site.close();
  }
});
