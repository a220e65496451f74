/**
 * Enter pressed with no target while the focus is in a field inside an iframe (same-origin,
 * and a cross-site, out-of-process one) whose form the browser's validation stops: the result
 * warns that the form was not sent, naming the field, as it does in the main frame; a plain
 * click on that form's submit button in the frame says the same.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { eventually } from "./_util.ts";
import { act } from "./_results.ts";

Deno.test("Enter in a framed field the browser's validation stops: warned", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const echoes = () => fx.requests.filter((q) => q.path.startsWith("/api/echo"));
  try {
    const cases = [
      ["same-origin", fx.url("enter-frame.html")],
      [
        "cross-site",
        fx.url(`enter-frame.html?src=${encodeURIComponent(`${fx.crossOrigin}/fill-submit.html`)}`),
      ],
    ] as const;
    for (const [name, url] of cases) {
      await t.step(`${name} frame`, async () => {
        await mcp.ok("navigate", { url, snapshot: "none" });
        await eventually(
          async () => /textbox "Email"/.test(String((await mcp.ok("snapshot")).tree)),
          5000,
          "the frame's form",
        );
        await act(mcp, "fill", { selector: "#email", value: "Bob" });
        const r = await act(mcp, "press", { key: "Enter" });
        assertEquals(r.ok, true);
        const warned = r.warnings.find((w) => w.startsWith("the form was not sent"));
        assertIncludes(String(warned), "email: ", JSON.stringify(r.warnings));
        assertIncludes(String(warned), "press Enter again");
        // Another key: nothing of the kind.
        const tab = await act(mcp, "press", { key: "ArrowLeft" });
        assertEquals(tab.warnings.filter((w) => w.includes("not sent")), []);
        // A plain click on the frame's submit button: the same news.
        const click = await act(mcp, "click", { selector: "#required button" });
        const said = click.warnings.find((w) => w.startsWith("the form was not sent"));
        // The fields' messages once, in the element's list the warning points at.
        assertIncludes(
          String(said),
          "element.formInvalid says why",
          JSON.stringify(click.warnings),
        );
        assertIncludes(String(click.element?.formInvalid), "email: ");
        assertEquals(echoes().length, 0);
      });
    }
  } finally {
    await mcp.close();
    await fx.close();
  }
});
