/**
 * Progress bars and meters keep their names in the outline (a new user's two uploads read
 * `- progressbar: 0/100` twice, and find("Upload progress") found neither).
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startInProcess } from "./_in_process.ts";
import { servePages } from "./_util.ts";

Deno.test("snapshot: a progress bar or meter shows its name and value", async () => {
  const pages = servePages({
    "/": `<!doctype html><title>Uploads</title><main><h1>Uploads</h1>
      <progress aria-label="Upload progress" value="3" max="100"></progress>
      <div role="progressbar" aria-label="Thumbnail upload" aria-valuenow="5"></div>
      <meter aria-label="Disk use" value="0.6"></meter>
      <progress value="1" max="4"></progress></main>`,
  });
  const mcp = await startInProcess({});
  try {
    assertEquals(
      (await mcp.call("navigate", { url: pages.base + "/", snapshot: "none" })).isError,
      undefined,
    );
    const tree = String((await mcp.call("snapshot", {})).structuredContent?.tree);
    assertIncludes(tree, `- progressbar "Upload progress": 3/100`);
    assertIncludes(tree, `- progressbar "Thumbnail upload": 5`);
    assertIncludes(tree, `- meter "Disk use"`);
    // A nameless one still shows its value.
    assertIncludes(tree, "- progressbar: 1/4");
    const found = await mcp.call("find", { query: "Upload progress" });
    assertIncludes(JSON.stringify(found.structuredContent), "Upload progress");
    // Bad input: a query of only spaces is refused, saying what to pass.
    const bad = await mcp.call("find", { query: "   " });
    assertEquals(bad.isError, true);
  } finally {
    await mcp.close();
    await pages.close();
  }
});
